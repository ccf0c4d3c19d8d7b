// Reading a grocer's catalogue CSV (`npm run import`, docs/importing-products.md): the rows grouped into products by
// handle, each value checked, every problem named as `line N: column: what is wrong`. Pure: the command checks a file
// with it before sending anything, and the import (src/server/services/import.ts) checks it again where it is applied.
import { CsvError, parse, type Info } from 'csv-parse/sync';
import { CONTROL_CHARACTER, showControlCharacters } from '../../lib/control-characters.ts';
import { readFoodType, type FoodType } from '../../lib/food-type.ts';
import { canonicalPackSize } from '../../lib/search-text.ts';

export const IMPORT_COLUMNS = ['handle', 'name', 'brand', 'category', 'description', 'pack', 'price', 'mrp', 'stock', 'hot', 'images'] as const;
/**
 * The columns a file may add (issue 24): a product's food type and the facts Legal Metrology asks a seller to show. A
 * file without one leaves that fact as it was (null for a new product); an empty cell clears it.
 */
export const OPTIONAL_IMPORT_COLUMNS = ['food_type', 'net_quantity', 'country_of_origin', 'manufacturer', 'shelf_life', 'fssai_licence'] as const;
type Column = (typeof IMPORT_COLUMNS)[number] | (typeof OPTIONAL_IMPORT_COLUMNS)[number];

/** Bounds of the values, so one odd cell cannot make a page unreadable. */
export const IMPORT_LIMITS = {
  handle: 64,
  name: 150,
  brand: 60,
  category: 60,
  description: 5000,
  pack: 30,
  net_quantity: 40,
  country_of_origin: 60,
  /** A name and a whole address. */
  manufacturer: 300,
  shelf_life: 100,
  imagesPerProduct: 8,
  /** ₹10,00,000: far above any grocery item, well inside an integer of paise. */
  maxPricePaise: 100_000_000,
  maxStock: 1_000_000,
} as const;

export interface ImportPack {
  line: number;
  /** '' for a plain product; weights and volumes written the catalogue's way ('1kg' → '1 kg'). */
  name: string;
  pricePaise: number;
  /** 0: no MRP printed. */
  mrpPaise: number;
  stock: number;
}

export interface ImportProduct {
  /** The line of the handle's first row. */
  line: number;
  handle: string;
  name: string;
  brand: string;
  category: string;
  description: string;
  hot: boolean;
  /** File names inside the images folder, in order. */
  images: string[];
  /** One pack named '' for a plain product; else the pack sizes in the file's order. */
  packs: ImportPack[];
  /** The facts of the optional columns the file has, from the product's first row: null for an empty cell. */
  facts: ImportFacts;
}

/** A product's facts as the file gives them; a key is absent when the file has no column for it. */
export interface ImportFacts {
  foodType?: FoodType | null;
  netQuantity?: string | null;
  countryOfOrigin?: string | null;
  manufacturer?: string | null;
  shelfLife?: string | null;
  fssaiLicence?: string | null;
}

export interface ParsedCatalogue {
  /** Data rows (the header not counted). */
  rows: number;
  products: ImportProduct[];
  /** `line N: column: what is wrong`, in line order; empty when the file can be imported. */
  errors: string[];
}

export interface ParseOptions {
  /** Whether a file name of the images column is one the import has (a file in --images, or an uploaded one). */
  imageExists: (name: string) => boolean;
}

const HANDLE = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const RUPEES = /^(\d{1,7})(?:\.(\d{1,2}))?$/;
const WHOLE = /^\d+$/;
const FSSAI_LICENCE = /^\d{14}$/;
const MEASURE = /^(\d+(?:\.\d+)?)\s*([A-Za-z]+)$/;

/** One line of text: runs of spaces (and any newline a spreadsheet left inside a cell) as one space. */
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** A pack as the catalogue writes it: '1kg', '1000 g' and '1 KG' are all '1 kg'; counts ('6 pcs') as given. */
export function canonicalPack(text: string): string {
  const pack = oneLine(text);
  const m = MEASURE.exec(pack);
  return (m && canonicalPackSize(Number(m[1]), m[2]!.toLowerCase())) || pack;
}

/** Rupees with up to two decimals ('45', '45.5', '45.50') → paise, without floating point. */
function paiseOf(text: string): number | undefined {
  const m = RUPEES.exec(text.replace(/^₹\s*/, ''));
  if (!m) return undefined;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

/** Tabs and line breaks are text in a cell: a description keeps them, the other columns read them as spaces. */
const TEXT_LAYOUT = /[\t\n]/;

/**
 * The control characters of a cell (C0 but tab and line break, DEL, C1, bidirectional controls: they change how the
 * shop's pages and the grocer's terminal show text, and a NUL cannot be stored), and the cell without them, which the
 * other checks read so that no message carries one.
 */
function controlCharacters(cell: string): { problem?: string; text: string } {
  if (!CONTROL_CHARACTER.test(cell.replace(/[\t\n]/g, ''))) return { text: cell };
  const found = new Set<string>();
  let text = '';
  for (const char of cell) {
    if (CONTROL_CHARACTER.test(char) && !TEXT_LAYOUT.test(char)) found.add(showControlCharacters(char));
    else text += char;
  }
  const shown = [...found].join(', ');
  const problem = found.size === 1 ? `has a control character in it (${shown}): remove it` : `has control characters in it (${shown}): remove them`;
  return { problem, text };
}

function csvProblem(error: CsvError): string {
  const line = (error as CsvError & { lines?: number }).lines;
  const where = line ? `line ${line}: ` : '';
  if (error.code === 'CSV_QUOTE_NOT_CLOSED') return `${where}a quoted field is never closed (a " is missing)`;
  if (error.code === 'CSV_INVALID_CLOSING_QUOTE') return `${where}a " inside a quoted field must be written twice ("")`;
  return `${where}${error.message}`;
}

/** Reads and checks a catalogue CSV. Never throws for bad content: the problems are in `errors`. */
export function parseCatalogue(text: string, { imageExists }: ParseOptions): ParsedCatalogue {
  let records: { record: string[]; info: Info }[];
  try {
    // `info: true` gives each record with where it ends (its typings do not know that shape).
    // Line ends made '\n' first: csv-parse counts a quoted '\r\n' as two lines, and the line numbers would drift.
    const options = { bom: true, info: true, skip_empty_lines: true, relax_column_count: true, trim: true };
    records = parse(text.replace(/\r\n?/g, '\n'), options) as unknown as typeof records;
  } catch (error) {
    if (error instanceof CsvError) return { rows: 0, products: [], errors: [csvProblem(error)] };
    throw error;
  }
  const errors: { line: number; text: string }[] = [];
  const problem = (line: number, column: Column | 'row', what: string) => errors.push({ line, text: `line ${line}: ${column}: ${what}` });

  // A record's first line: the one after the previous record's last, past any empty lines skipped between them.
  let lastLine = 0;
  let emptyLines = 0;
  const lines = records.map(({ info }) => {
    const first = lastLine + 1 + (info.empty_lines - emptyLines);
    lastLine = info.lines;
    emptyLines = info.empty_lines;
    return first;
  });

  const [header, ...data] = records;
  if (!header) return { rows: 0, products: [], errors: ['line 1: the file is empty: it needs a header row and at least one product'] };
  const headerProblem = header.record.map((h) => controlCharacters(h).problem).find(Boolean);
  if (headerProblem) return { rows: data.length, products: [], errors: [`line 1: header: ${headerProblem}`] };
  const names = header.record.map((h) => h.toLowerCase());
  const index = new Map<string, number>(names.map((n, i) => [n, i]));
  const known: readonly string[] = [...IMPORT_COLUMNS, ...OPTIONAL_IMPORT_COLUMNS];
  const missing = IMPORT_COLUMNS.filter((c) => !index.has(c));
  const unknown = names.filter((n) => !known.includes(n));
  if (missing.length > 0 || unknown.length > 0 || index.size !== names.length) {
    const parts = [
      missing.length > 0 ? `missing ${missing.join(', ')}` : '',
      unknown.length > 0 ? `unknown ${unknown.map((u) => `'${u}'`).join(', ')}` : '',
    ].filter(Boolean);
    return {
      rows: data.length,
      products: [],
      errors: [
        `line 1: header: the columns must be ${IMPORT_COLUMNS.join(',')}, and may add ${OPTIONAL_IMPORT_COLUMNS.join(',')}${parts.length > 0 ? ` (${parts.join('; ')})` : ' (each once)'}`,
      ],
    };
  }
  const columns: Column[] = [...IMPORT_COLUMNS, ...OPTIONAL_IMPORT_COLUMNS.filter((c) => index.has(c))];
  if (data.length === 0) return { rows: 0, products: [], errors: ['line 2: row: the file has a header but no products'] };

  const byHandle = new Map<string, ImportProduct>();
  data.forEach(({ record }, i) => {
    const line = lines[i + 1]!;
    if (record.length !== names.length) {
      problem(line, 'row', `has ${record.length} fields, the header has ${names.length} (a comma inside a value needs the value in "quotes")`);
      return;
    }
    // A cell with control characters is named once; the checks below read it without them.
    const cells = new Map(
      columns.map((c) => {
        const { problem: bad, text } = controlCharacters(record[index.get(c)!]!);
        if (bad) problem(line, c, bad);
        return [c, text];
      }),
    );
    const cell = (c: Column) => cells.get(c)!;
    const tooLong = (c: Column & keyof typeof IMPORT_LIMITS, value: string) => {
      const max = IMPORT_LIMITS[c];
      if (value.length <= max) return false;
      problem(line, c, `is ${value.length} characters long; at most ${max}`);
      return true;
    };

    /** The optional columns the file has, read from a product's first row. */
    const readFacts = (): ImportFacts => {
      const facts: ImportFacts = {};
      const text = (c: Column & keyof typeof IMPORT_LIMITS, read: (value: string) => string = oneLine) => {
        const value = read(cell(c));
        return value === '' || tooLong(c, value) ? null : value;
      };
      if (index.has('food_type')) {
        const given = oneLine(cell('food_type'));
        const foodType = given === '' ? null : readFoodType(given);
        if (foodType === undefined) problem(line, 'food_type', `'${given}' must be veg, non-veg or egg, or empty when it is not food`);
        facts.foodType = foodType ?? null;
      }
      if (index.has('net_quantity')) facts.netQuantity = text('net_quantity', canonicalPack);
      if (index.has('country_of_origin')) facts.countryOfOrigin = text('country_of_origin');
      if (index.has('manufacturer')) facts.manufacturer = text('manufacturer');
      if (index.has('shelf_life')) facts.shelfLife = text('shelf_life');
      if (index.has('fssai_licence')) {
        const given = oneLine(cell('fssai_licence'));
        const digits = given.replace(/[\s-]/g, '');
        if (given !== '' && !FSSAI_LICENCE.test(digits)) problem(line, 'fssai_licence', `'${given}' must be the 14 digits of an FSSAI licence, or empty`);
        facts.fssaiLicence = FSSAI_LICENCE.test(digits) ? digits : null;
      }
      return facts;
    };

    const handle = cell('handle');
    let handleOk = false;
    if (!handle) problem(line, 'handle', 'is empty: every row needs the handle of its product');
    else if (!HANDLE.test(handle)) problem(line, 'handle', `'${handle}' may hold only letters, digits, '-', '_' and '.' (e.g. toor-dal-premium)`);
    else handleOk = !tooLong('handle', handle);

    // A row without a usable handle is still checked as a product's first row, so all its problems are listed.
    let product = handleOk ? byHandle.get(handle) : undefined;
    if (!product) {
      // The product's own columns come from the first row of its handle.
      const name = oneLine(cell('name'));
      const brand = oneLine(cell('brand'));
      const category = oneLine(cell('category'));
      const description = cell('description');
      if (!name) problem(line, 'name', 'is empty: the first row of a product needs its name');
      else tooLong('name', name);
      if (!brand) problem(line, 'brand', 'is empty: the first row of a product needs its brand');
      else tooLong('brand', brand);
      if (!category) problem(line, 'category', 'is empty: the first row of a product needs its category');
      else tooLong('category', category);
      tooLong('description', description);
      const hotText = cell('hot').toLowerCase();
      if (hotText !== '' && hotText !== 'yes') problem(line, 'hot', `'${cell('hot')}' must be yes or empty`);
      const images = cell('images')
        .split(';')
        .map((s) => s.trim())
        .filter(Boolean);
      if (images.length > IMPORT_LIMITS.imagesPerProduct) {
        problem(line, 'images', `names ${images.length} pictures; at most ${IMPORT_LIMITS.imagesPerProduct}`);
      }
      for (const file of images) {
        if (/[\\/]/.test(file) || file === '.' || file === '..') problem(line, 'images', `'${file}' must be a file name inside the images folder, without a folder`);
        else if (!imageExists(file)) problem(line, 'images', `'${file}' is not in the images folder`);
      }
      product = { line, handle, name, brand, category, description, hot: hotText === 'yes', images, packs: [], facts: readFacts() };
      if (handleOk) byHandle.set(handle, product);
    }

    const pack = canonicalPack(cell('pack'));
    if (pack.length > IMPORT_LIMITS.pack) problem(line, 'pack', `is ${pack.length} characters long; at most ${IMPORT_LIMITS.pack}`);
    const twin = product.packs.find((p) => p.name === pack);
    if (twin && pack) {
      problem(line, 'pack', `'${pack}' of ${handle} is already on line ${twin.line} (each handle and pack once)`);
    }

    const priceText = cell('price');
    const pricePaise = paiseOf(priceText);
    if (!priceText) problem(line, 'price', 'is empty: give the price in rupees, e.g. 45 or 45.50');
    else if (pricePaise === undefined) problem(line, 'price', `'${priceText}' is not an amount in rupees (e.g. 45 or 45.50)`);
    else if (pricePaise === 0) problem(line, 'price', 'must be more than 0');
    else if (pricePaise > IMPORT_LIMITS.maxPricePaise) problem(line, 'price', `'${priceText}' is more than ₹${IMPORT_LIMITS.maxPricePaise / 100}`);

    const mrpText = cell('mrp');
    const mrpPaise = mrpText ? paiseOf(mrpText) : 0;
    if (mrpPaise === undefined) problem(line, 'mrp', `'${mrpText}' is not an amount in rupees (e.g. 50 or 49.90), or leave it empty`);
    else if (mrpPaise > IMPORT_LIMITS.maxPricePaise) problem(line, 'mrp', `'${mrpText}' is more than ₹${IMPORT_LIMITS.maxPricePaise / 100}`);
    else if (mrpPaise > 0 && pricePaise !== undefined && mrpPaise < pricePaise) {
      problem(line, 'mrp', `${mrpText} is below the price ${priceText}: the MRP is the most a shop may charge`);
    }

    const stockText = cell('stock');
    if (!WHOLE.test(stockText)) problem(line, 'stock', `'${stockText}' must be a whole number of packs on the shelf (0 or more)`);
    else if (Number(stockText) > IMPORT_LIMITS.maxStock) problem(line, 'stock', `${stockText} is more than ${IMPORT_LIMITS.maxStock}`);

    product.packs.push({ line, name: pack, pricePaise: pricePaise ?? 0, mrpPaise: mrpPaise ?? 0, stock: Number(stockText) || 0 });
  });

  for (const product of byHandle.values()) {
    // '' is a plain product's one pack: next to named packs it is a row that forgot its pack.
    if (product.packs.length > 1) {
      for (const p of product.packs) {
        if (p.name === '') problem(p.line, 'pack', `is empty, but ${product.handle} has several rows: each row is one pack size and needs its pack`);
      }
    }
  }

  errors.sort((a, b) => a.line - b.line);
  return { rows: data.length, products: [...byHandle.values()], errors: errors.map((e) => e.text) };
}
