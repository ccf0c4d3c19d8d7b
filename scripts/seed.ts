// `npm run seed [-- --reset] [--products N] [--force]`: fills an empty catalogue with the demo data.
// Without --reset an existing catalogue is left alone; with it the catalogue tables are emptied first (users,
// addresses and delivery slots stay; carts and wishlists are emptied). When orders exist, --reset refuses
// unless --force is given too, which deletes the orders as well. --products N builds a deterministic
// catalogue of N products (default 400; e.g. 50000 for the scale bench), brands in proportion.
import { readServerSettings } from '../src/server/config.ts';
import { openDatabase } from '../src/server/db/client.ts';
import { databaseTarget } from '../src/server/db/prepare.ts';
import { parseSeedArgs } from '../src/server/seed/args.ts';
import { isCatalogueEmpty, resetCatalogue, seedCatalogue } from '../src/server/seed/index.ts';

async function main(): Promise<void> {
  const { reset, force, products } = parseSeedArgs(process.argv.slice(2));

  const settings = readServerSettings();
  const target = databaseTarget(settings);
  console.log(target.kind === 'postgres' ? 'Database: PostgreSQL (DATABASE_URL)' : `Database: PGlite in ${settings.dataDir}`);

  // The work runs as the database's set-up step, so on PostgreSQL it waits for a shop that is starting.
  const handle = await openDatabase(target, async (db) => {
    if (reset) {
      await resetCatalogue(db, { force });
      console.log(`Catalogue emptied (users kept${force ? '; orders deleted' : ''}; carts and wishlists emptied).`);
    } else if (!(await isCatalogueEmpty(db))) {
      console.log('The catalogue already exists; nothing to do. To start again: npm run seed -- --reset');
      return;
    }
    const started = performance.now();
    const summary = await seedCatalogue(db, { products, log: (m) => console.log(`  ${m}`) });
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
