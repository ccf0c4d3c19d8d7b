// The embedded API of one process: opens the database once, migrates it, seeds an empty catalogue.
import { createApp, type KiranaApi } from './app.ts';
import { errorBody, UNAVAILABLE_RETRY_SECONDS } from './errors.ts';
import { readServerSettings, type ServerSettings } from './config.ts';
import type { DatabaseHandle } from './db/client.ts';
import { openShopDatabase } from './db/prepare.ts';
import { accountDepsFromSettings } from './auth/setup.ts';
import { resolveGrocerToken } from './auth/secret.ts';
import { onShutdown } from './shutdown-hooks.ts';
import { readStoreSettings } from './store-settings.ts';
import { readCacheFor } from './catalogue-cache.ts';
import { setReadinessProbe } from './readiness.ts';
import { sql } from 'drizzle-orm';
import { limiterStoreFor } from './rate-limit.ts';

let booting: Promise<{ api: KiranaApi; handle: DatabaseHandle }> | undefined;

/**
 * The shop's API on its database, as the settings say: what the pages embed, and what `npm run api` serves alone.
 * A start that fails after the database opened closes it again (it holds the data folder's lock).
 */
export async function openShopApi(
  log: (message: string) => void,
): Promise<{ api: KiranaApi; handle: DatabaseHandle; settings: ServerSettings }> {
  const settings = readServerSettings();
  // Read before the database opens: a grocer's mistake in store.yaml stops the start with its name.
  const store = readStoreSettings();
  // The database first: it takes the data folder's lock and checks the folder before anything is written in it.
  const handle = await openShopDatabase(settings, log);
  try {
    const accounts = await accountDepsFromSettings(settings, log);
    const api = createApp({
      db: handle.db,
      accounts,
      store,
      grocerToken: resolveGrocerToken(settings),
      readCache: readCacheFor(settings),
      imageCacheDir: settings.imageCacheDir,
      rateLimits: limiterStoreFor(handle),
    });
    return { api, handle, settings };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

async function boot() {
  const { api, handle } = await openShopApi((m) => console.log(`[kirana] ${m}`));
  // The server that imports this bundle closes the database on SIGTERM (scripts/lib/shutdown.ts).
  onShutdown(closeEmbeddedApi);
  return { api, handle };
}

function booted() {
  booting ??= boot().catch((error: unknown) => {
    booting = undefined;
    throw error;
  });
  return booting;
}

/** The API of this process, booted on first use. A failed boot is retried by the next call. */
export function embeddedApi(): Promise<KiranaApi> {
  return booted().then((b) => b.api);
}

// /readyz (scripts/serve.ts): the API booted (the database open and migrated; a failed boot is tried again here, so
// the shop recovers when the database comes back) and its database answering now.
setReadinessProbe(async () => {
  await (await booted()).handle.db.execute(sql`select 1`);
});

export async function closeEmbeddedApi() {
  const current = booting;
  booting = undefined;
  if (current) await (await current).handle.close();
}

/** Hands a request to the embedded API; while the database cannot be opened, answers 503. */
export async function fetchEmbedded(request: Request): Promise<Response> {
  let api: KiranaApi;
  try {
    api = await embeddedApi();
  } catch (error) {
    console.error('[kirana] the API could not start', error);
    return Response.json(errorBody('unavailable', 'The shop is starting or unavailable. Please try again shortly.'), {
      status: 503,
      headers: { 'Retry-After': String(UNAVAILABLE_RETRY_SECONDS) },
    });
  }
  return api.fetch(request);
}
