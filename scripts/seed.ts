// `npm run seed [-- --reset]`: fills an empty catalogue with the demo data.
// Without --reset an existing catalogue is left alone; with it the catalogue tables are emptied first (users stay).
import { readServerSettings } from '../src/server/config.ts';
import { openDatabase } from '../src/server/db/client.ts';
import { databaseTarget } from '../src/server/db/prepare.ts';
import { isCatalogueEmpty, resetCatalogue, seedCatalogue } from '../src/server/seed/index.ts';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const unknown = args.filter((a) => a !== '--reset');
  if (unknown.length > 0) throw new Error(`Unknown argument ${unknown[0]} (usage: npm run seed [-- --reset])`);
  const reset = args.includes('--reset');

  const settings = readServerSettings();
  const target = databaseTarget(settings);
  console.log(target.kind === 'postgres' ? 'Database: PostgreSQL (DATABASE_URL)' : `Database: PGlite in ${settings.dataDir}`);

  // The work runs as the database's set-up step, so on PostgreSQL it waits for a shop that is starting.
  const handle = await openDatabase(target, async (db) => {
    if (reset) {
      await resetCatalogue(db);
      console.log('Catalogue emptied (users kept).');
    } else if (!(await isCatalogueEmpty(db))) {
      console.log('The catalogue already exists; nothing to do. To start again: npm run seed -- --reset');
      return;
    }
    const started = performance.now();
    const summary = await seedCatalogue(db, { log: (m) => console.log(`  ${m}`) });
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(
      `Seeded ${summary.brands} brands, ${summary.categories} categories, ${summary.products} products, ` +
        `${summary.variants} variants and ${summary.reviews} reviews in ${seconds} s.`,
    );
  });
  await handle.close();
}

main().catch((error: unknown) => {
  const firstLine = (e: unknown) => (e instanceof Error ? e.message : String(e)).split('\n')[0];
  // Drizzle wraps driver errors ("Failed query: ..."); the cause says what actually went wrong.
  const cause = error instanceof Error && error.cause !== undefined ? ` (${firstLine(error.cause)})` : '';
  console.error(`Seed failed: ${firstLine(error)}${cause}`);
  process.exitCode = 1;
});
