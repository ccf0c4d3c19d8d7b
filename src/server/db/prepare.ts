// Opening the shop's database as every entry point does: the configured target, migrated, and seeded with
// the demo catalogue when it is empty (unless SEED_ON_EMPTY=false).
import type { ServerSettings } from '../config.ts';
import { openDatabase, type DatabaseHandle } from './client.ts';

/** The database the settings name: a PostgreSQL server when DATABASE_URL is set, else PGlite in DATA_DIR. */
export function databaseTarget(settings: Pick<ServerSettings, 'databaseUrl' | 'dataDir'>) {
  return settings.databaseUrl
    ? ({ kind: 'postgres', url: settings.databaseUrl } as const)
    : ({ kind: 'pglite', dataDir: settings.dataDir } as const);
}

export async function openShopDatabase(
  settings: ServerSettings,
  log: (message: string) => void,
  options: { vacuum?: boolean } = {},
): Promise<DatabaseHandle> {
  const target = databaseTarget(settings);
  log(
    target.kind === 'postgres'
      ? 'database: PostgreSQL from DATABASE_URL; applying migrations…'
      : `database: embedded PGlite in ${settings.dataDir}; applying migrations…`,
  );
  const handle = await openDatabase(target, async (db) => {
    if (!settings.seedOnEmpty) return;
    // Loaded only where it may seed: the demo catalogue's code (its pictures: sharp) is not the grocer tools' to load.
    const { isCatalogueEmpty, seedCatalogue } = await import('../seed/index.ts');
    if (await isCatalogueEmpty(db)) {
      log('new database: seeding the demo catalogue…');
      const summary = await seedCatalogue(db, { log: (m) => log(`  ${m}`) });
      log(`seeded ${summary.products} products, ${summary.brands} brands, ${summary.categories} categories`);
    }
  }, options);
  log('database ready');
  return handle;
}
