// `npm run import -- catalogue.csv --images ./photos`: a grocer's own catalogue into the shop (docs/importing-products.md).
// The file is checked here first, so a bad one sends nothing; then each photo is stored (the original: the image
// pipeline serves its sizes), then the rows are applied in one transaction, by handle and pack, keeping ids.
// While the shop runs it goes through the shop's grocer routes (only one process may open the embedded database, and
// the shop's caches must hear of the change); when no shop runs it opens the database itself (DATA_DIR or
// DATABASE_URL) and runs the same service code.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { readServerSettings, type ServerSettings } from '../src/server/config.ts';
import { ApiError } from '../src/server/errors.ts';
import { MAX_IMPORT_PICTURE_BYTES, sizeText } from '../src/server/body-limits.ts';
import type { ImportSummaryDto, StoredPictureDto } from '../src/server/import-schemas.ts';
import { parseCatalogue } from '../src/server/services/import-csv.ts';
import { ImportRejected, saveImportPhoto } from '../src/server/services/import.ts';
import { importAndTell } from '../src/server/services/after-write.ts';
import { CliError, grocerClient, openStoppedShop, toolBus } from './lib/grocer-client.ts';
import { runningShop } from '../src/http/shop-file.ts';

const HELP = `npm run import -- <catalogue.csv> [--images <folder>]

Loads a grocer's catalogue: a UTF-8 CSV with the columns
  handle,name,brand,category,description,pack,price,mrp,stock,hot,images
(see docs/importing-products.md). Running it again with the same file changes nothing; with a changed file it
updates prices, stock and text in place. A file with any problem imports nothing and names each line.

Options:
  --images <folder>   where the photos named in the images column are (default: the CSV's own folder)
  -h, --help          this help

Works with the shop running (it goes through the shop) or stopped (it opens the database).
Reads DATA_DIR (default ./data) or DATABASE_URL, as the shop does.`;

interface Backend {
  savePhoto(bytes: Uint8Array<ArrayBuffer>, name: string): Promise<StoredPictureDto>;
  import(csv: string, images: Record<string, string>): Promise<ImportSummaryDto>;
  close(): Promise<void>;
}

/** A photo the shop refused (not a picture): a problem of the file, listed with the others; anything else stops. */
class PhotoRefused extends Error {}

function httpBackend(url: string, dataDir: string): Backend {
  const call = grocerClient(url, dataDir);
  const refusedAs400 = async <T>(work: Promise<T>): Promise<T> => {
    try {
      return await work;
    } catch (error) {
      if (error instanceof CliError && error.status === 400) throw new PhotoRefused(error.message);
      throw error;
    }
  };
  return {
    savePhoto: (bytes, name) => refusedAs400(call('POST', `Pictures?name=${encodeURIComponent(name)}`, { bytes })),
    import: (csv, images) => call('POST', 'Import', { json: { csv, images } }),
    close: async () => {},
  };
}

async function databaseBackend(settings: ServerSettings, progress: (done: number, total: number) => void): Promise<Backend> {
  const handle = await openStoppedShop(settings);
  // On PostgreSQL the shops running on it hear the import on the bus, as after an import through a shop.
  const stale = await toolBus(settings, (message) => console.error(`import: ${message}`));
  return {
    savePhoto: async (bytes, name) => {
      try {
        return await saveImportPhoto(handle.db, bytes, name);
      } catch (error) {
        if (error instanceof ApiError && error.status === 400) throw new PhotoRefused(error.message);
        throw error;
      }
    },
    import: (csv, images) => importAndTell({ db: handle.db, stale }, csv, images, { progress }),
    close: async () => {
      await stale.close();
      await handle.close();
    },
  };
}

/** A progress line about every tenth of the way, and at the end. */
function progressPrinter(what: string) {
  return (done: number, total: number) => {
    const step = Math.max(1, Math.ceil(total / 10));
    if (done === total || done % step === 0) console.log(`  ${what} ${done}/${total}`);
  };
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function printSummary(s: ImportSummaryDto) {
  if (!s.changed) {
    console.log(`Nothing to change: the shop already holds these ${plural(s.products.unchanged, 'product')} as the file has them.`);
    return;
  }
  console.log('Imported.');
  console.log(`  products: ${s.products.created} new, ${s.products.updated} updated, ${s.products.unchanged} unchanged`);
  console.log(`  packs:    ${s.packs.created} new, ${s.packs.updated} updated${s.packs.offShelf ? `, ${s.packs.offShelf} no longer in the file (now out of stock)` : ''}`);
  console.log(`  pictures: ${s.pictures}`);
  if (s.brandsCreated.length > 0) console.log(`  new brands: ${s.brandsCreated.join(', ')}`);
  if (s.categoriesCreated.length > 0) console.log(`  new categories: ${s.categoriesCreated.join(', ')}`);
}

function readText(file: string): string {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (error) {
    throw new CliError(`cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new CliError(`${file} is not UTF-8 text: save it from the spreadsheet as "CSV UTF-8"`);
  }
}

function photoNames(folder: string): Set<string> {
  try {
    return new Set(
      fs
        .readdirSync(folder, { withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => e.name),
    );
  } catch (error) {
    throw new CliError(`cannot read the images folder ${folder}: ${(error as Error).message}`);
  }
}

async function main(argv: string[]): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { images: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (error) {
    throw new CliError(`${(error as Error).message} (see npm run import -- --help)`);
  }
  const { values, positionals } = parsed;
  if (values.help) return console.log(HELP);
  if (positionals.length !== 1) throw new CliError('give one CSV file, e.g. npm run import -- catalogue.csv --images ./photos');
  const csvFile = positionals[0]!;
  const folder = values.images ?? path.dirname(csvFile);
  const csv = readText(csvFile);
  const photos = photoNames(folder);

  // The whole file is checked before anything is sent or written.
  const catalogue = parseCatalogue(csv, { imageExists: (name) => photos.has(name) });
  if (catalogue.errors.length > 0) throw new ImportRejected(catalogue.errors);
  const lineOf = new Map<string, number>();
  for (const p of catalogue.products) for (const name of p.images) if (!lineOf.has(name)) lineOf.set(name, p.line);
  // The shop takes a photo up to its upload limit; the same limit holds with the shop stopped.
  const tooLarge = [...lineOf]
    .filter(([name]) => fs.statSync(path.join(folder, name)).size > MAX_IMPORT_PICTURE_BYTES)
    .map(([name, line]) => `line ${line}: images: '${name}' is larger than ${sizeText(MAX_IMPORT_PICTURE_BYTES)}, the most a photo may be`);
  if (tooLarge.length > 0) throw new ImportRejected(tooLarge);
  const packs = catalogue.products.reduce((n, p) => n + p.packs.filter((pack) => pack.name !== '').length, 0);
  console.log(
    `Read ${csvFile}: ${plural(catalogue.rows, 'row')}, ${plural(catalogue.products.length, 'product')}, ` +
      `${plural(packs, 'pack')}, ${plural(lineOf.size, 'photo')}`,
  );

  const settings = readServerSettings();
  // A running shop is gone through even on PostgreSQL: its page cache and read cache then forget the changed pages.
  const shop = runningShop(settings.dataDir);
  const backend = shop ? httpBackend(shop.url, settings.dataDir) : await databaseBackend(settings, progressPrinter('products'));
  console.log(shop ? `Importing through the shop at ${shop.url}` : 'Importing into the database (the shop is not running)');
  try {
    const images: Record<string, string> = {};
    const refused: string[] = [];
    const photoProgress = progressPrinter('photos');
    let done = 0;
    for (const [name, line] of lineOf) {
      const file = path.join(folder, name);
      try {
        images[name] = (await backend.savePhoto(new Uint8Array(fs.readFileSync(file)), name)).sha256;
      } catch (error) {
        if (!(error instanceof PhotoRefused)) throw error;
        refused.push(`line ${line}: images: ${error.message}`);
      }
      photoProgress(++done, lineOf.size);
    }
    if (refused.length > 0) throw new ImportRejected(refused);
    printSummary(await backend.import(csv, images));
  } finally {
    await backend.close();
  }
}

try {
  await main(process.argv.slice(2));
} catch (error) {
  // The grocer reads what went wrong: every line of a bad file, or one line (a folder in use, a shop not answering).
  console.error(`import: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
