// The shop of one process, made once at start by scripts/serve.ts (or `npm run api`, or `astro dev`'s middleware):
// the database opened once, one API, one read cache, one invalidation bus, and the storefront that pages get in
// Astro.locals. Embedded (no API_URL) the API opens its database on first use and tries again after a failure, so
// the shop starts, and recovers, while the database is out of reach.
import { sql } from 'drizzle-orm';
import { createApp, type KiranaApi } from './app.ts';
import { errorBody, isDatabaseUnreachable, UNAVAILABLE_RETRY_SECONDS } from './errors.ts';
import { readServerSettings, type ServerSettings } from './config.ts';
import type { DatabaseHandle } from './db/client.ts';
import { openShopDatabase } from './db/prepare.ts';
import { accountDepsFromSettings } from './auth/setup.ts';
import { resolveGrocerToken } from './auth/secret.ts';
import { closePasswordHashing } from './auth/passwords.ts';
import { readStoreSettings } from './store-settings.ts';
import { startPaymentExpiry } from './payments/expiry.ts';
import { startIssuePhotoSweep } from './services/issue-photos.ts';
import { orderNotices, startNoticeOutbox } from './services/notices.ts';
import { logServerError } from '../lib/error-log.ts';
import { limiterStoreFor } from './rate-limit.ts';
import { catalogueReads } from './catalogue-reads.ts';
import { invalidationBusFor, type InvalidationBus } from './cache/invalidation-bus.ts';
import { TaggedCache } from './cache/tagged-cache.ts';
import { apiClient, inProcessCatalogue, remoteCatalogue, type Storefront } from './storefront.ts';
import { passToApiHost } from './api-pass-through.ts';
import { CLIENT_IP_HEADER } from '../lib/api/headers.ts';

/** Entries of the read cache: a page of the shop reads a handful; a few thousand cover the catalogue's busy part. */
const READ_CACHE_ENTRIES = 5_000;

export interface OpenedApi {
  api: KiranaApi;
  handle: DatabaseHandle;
  settings: ServerSettings;
  reads: ReturnType<typeof catalogueReads>;
}

/**
 * The shop's API on its database, as the settings say, its catalogue reads through `readCache` and its writes
 * announced on `stale`. A start that fails after the database opened closes it again (it holds the data folder's lock).
 */
export async function openShopApi(
  log: (message: string) => void,
  { stale, readCache }: { stale: InvalidationBus; readCache: TaggedCache<object> | undefined },
): Promise<OpenedApi> {
  const settings = readServerSettings();
  // Read before the database opens: a grocer's mistake in store.yaml stops the start with its name.
  const store = readStoreSettings();
  // The database first: it takes the data folder's lock and checks the folder before anything is written in it.
  const handle = await openShopDatabase(settings, log);
  try {
    const accounts = await accountDepsFromSettings(settings, log);
    const reads = catalogueReads(handle.db, readCache);
    const notices = orderNotices({ db: handle.db, mailer: accounts.mailer, sms: accounts.sms, linkOrigin: accounts.linkOrigin, timeZone: store.delivery.timeZone, textsPerNumberPerHour: store.limits.orderTextsPerNumberPerHour });
    const api = createApp({
      db: handle.db,
      accounts,
      store,
      notices,
      grocerToken: resolveGrocerToken(settings),
      catalogue: reads(),
      stale,
      imageCacheDir: settings.imageCacheDir,
      rateLimits: limiterStoreFor(handle),
    });
    // Unpaid pay-now orders past their time are cancelled by every shop process (at start, then every 30 s); the
    // database makes each happen once. Closing the database stops it first, and waits for the notices being sent.
    const stopExpiry = startPaymentExpiry({
      db: handle.db,
      stale,
      notices,
      logError: (error) => logServerError('[payments]', error),
    });
    // The notices' outbox (issue 33): what a shop killed between a commit and its send left, and what failed, is sent
    // at start and every 30 s by every shop process; SKIP LOCKED keeps two from sending the same one.
    const stopNoticeOutbox = startNoticeOutbox(notices, { logError: (error) => logServerError('[notices]', error) });
    // Shoppers' uploads no report names are deleted a day after (issue 32), by every shop process, stopped the same way.
    const stopPhotoSweep = startIssuePhotoSweep({ db: handle.db, logError: (error) => logServerError('[issue photos]', error) });
    const closeDatabase = handle.close.bind(handle);
    // The password hashing threads end too, or the process would not exit (src/http/shutdown.ts calls this last).
    const stoppingHandle = {
      ...handle,
      close: async () => {
        await Promise.all([stopExpiry(), stopPhotoSweep(), stopNoticeOutbox()]);
        await notices.drain();
        await closeDatabase();
        await closePasswordHashing();
      },
    };
    return { api, handle: stoppingHandle, settings, reads };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** Kept pieces of pages: some thousands of product cards (about 3 KB each), counted in UTF-16 code units. */
const KEPT_PIECES_MAX_BYTES = 48 * 1024 * 1024;
/** A piece's key holds all it shows (src/lib/server/kept-pieces.ts): an hour bounds a piece nobody asks for again. */
const KEPT_PIECE_SECONDS = 3600;

/**
 * Pieces of pages rendered once and kept (src/components/KeptPiece.astro), on the tagged cache and the bus like every
 * other cache: a product's cards go when a write makes the product stale, here or in another shop.
 */
export function keptPiecesFor(stale: InvalidationBus): TaggedCache<string> {
  const pieces = new TaggedCache<string>({
    maxEntries: 100_000,
    maxBytes: KEPT_PIECES_MAX_BYTES,
    sizeOf: (html) => html.length * 2,
    ttlSeconds: KEPT_PIECE_SECONDS,
  });
  stale.subscribe((tags) => pieces.invalidate(tags));
  return pieces;
}

/** The read cache the settings ask for (READ_CACHE_SECONDS; 0: none), emptied of what each write made stale. */
export function readCacheFor(settings: Pick<ServerSettings, 'readCacheSeconds'>, stale: InvalidationBus): TaggedCache<object> | undefined {
  if (settings.readCacheSeconds <= 0) return undefined;
  const cache = new TaggedCache<object>({ maxEntries: READ_CACHE_ENTRIES, ttlSeconds: settings.readCacheSeconds });
  stale.subscribe((tags) => cache.invalidate(tags));
  return cache;
}

export interface Shop {
  /** What a page gets in Astro.locals.shop; the tags of what it reads are added to `tags` (the page cache's). */
  storefront(tags?: Set<string>): Storefront;
  /** true when the shop can serve (its database open, migrated and answering), else why not. */
  ready(): Promise<true | string>;
  /** Opens the database now; rejects with the reason it cannot (`npm start` refuses to serve then). */
  open(): Promise<void>;
  /** Where writes say what they made stale, in this process and, on PostgreSQL, in every other. */
  stale: InvalidationBus;
  close(): Promise<void>;
}

/** A dead server whose packets vanish must not hold the balancer's check longer than it waits. */
const PROBE_TIMEOUT_MS = 2_000;

/** `check`'s verdict within PROBE_TIMEOUT_MS: true, or why not. */
function probe(check: () => Promise<unknown>): Promise<true | string> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(`the database did not answer within ${PROBE_TIMEOUT_MS / 1000} s`), PROBE_TIMEOUT_MS);
    check().then(
      () => resolve(true),
      (error: unknown) => resolve(error instanceof Error ? error.message : String(error)),
    ).finally(() => clearTimeout(timer));
  });
}

/** The shop whose API runs in this process, on the database the settings name. */
export function embeddedShop(settings: ServerSettings, log: (message: string) => void, origin: () => URL): Shop {
  const stale = invalidationBusFor(settings, log);
  const readCache = readCacheFor(settings, stale);
  const keptPieces = keptPiecesFor(stale);
  let booting: Promise<OpenedApi> | undefined;
  const booted = () =>
    (booting ??= openShopApi(log, { stale, readCache }).catch((error: unknown) => {
      booting = undefined;
      throw error;
    }));

  /** Hands a request to the API; while the database cannot be opened, answers 503. */
  const fetchApi = async (request: Request): Promise<Response> => {
    let api: KiranaApi;
    try {
      api = (await booted()).api;
    } catch (error) {
      console.error('[kirana] the API could not start', error);
      return Response.json(errorBody('unavailable', 'The shop is starting or unavailable. Please try again shortly.'), {
        status: 503,
        headers: { 'Retry-After': String(UNAVAILABLE_RETRY_SECONDS) },
      });
    }
    return api.fetch(request);
  };
  const api = apiClient('http://kirana.embedded/api/', (input, init) => fetchApi(input instanceof Request && !init ? input : new Request(input, init)));
  // Reads wait for the database like the API's calls do; a failed open rejects them (a page answers 503).
  const reads = catalogueReads(async () => (await booted()).handle.db, readCache);

  let probing: Promise<true | string> | undefined;
  return {
    stale,
    open: async () => void (await booted()),
    storefront: (tags) => ({
      catalogue: inProcessCatalogue(reads(tags)),
      api,
      origin: origin(),
      keptPieces,
      shopperAddress: (forwardedFor, socket) => shopperAddress(settings, forwardedFor, socket),
      handleApi: (request, clientAddress) => {
        // Set on the request as it came (the server's is @hono/node-server's, which a new Request could not copy): any
        // value the client sent under this name is replaced.
        request.headers.set(CLIENT_IP_HEADER, clientAddress);
        return fetchApi(request);
      },
      isUnavailable: isDatabaseUnreachable,
    }),
    // Checks made meanwhile share the one in flight, so a burst of health checks costs the database one `select 1`.
    ready: () =>
      (probing ??= probe(async () => (await booted()).handle.db.execute(sql`select 1`)).finally(() => (probing = undefined))),
    close: async () => {
      const current = booting;
      booting = undefined;
      await stale.close();
      if (current) await (await current.catch(() => undefined))?.handle.close();
    },
  };
}

/** The storefront of an API on another host (API_URL): pages read it over HTTP; that host answers for its database. */
export function remoteShop(settings: ServerSettings & { apiUrl: string }, log: (message: string) => void, origin: () => URL): Shop {
  const api = apiClient(settings.apiUrl, fetch);
  // With the API host's PostgreSQL named here too (DATABASE_URL), this storefront hears its writes; without, its
  // pages are kept no longer than PAGE_CACHE_SECONDS.
  const stale = invalidationBusFor(settings, log);
  const keptPieces = keptPiecesFor(stale);
  return {
    stale,
    open: async () => {},
    storefront: () => ({
      catalogue: remoteCatalogue(api),
      api,
      origin: origin(),
      keptPieces,
      shopperAddress: (forwardedFor, socket) => shopperAddress(settings, forwardedFor, socket),
      handleApi: (request, clientAddress) => passToApiHost(settings.apiUrl, request, clientAddress),
      isUnavailable: () => false,
    }),
    ready: async () => true,
    close: () => stale.close(),
  };
}

/** The shop the settings describe. */
/** `origin`: the shop's public origin, asked for each page (with port 0 it is known once the server listens). */
export function shopFor(settings: ServerSettings, log: (message: string) => void, origin: () => URL): Shop {
  return settings.apiUrl ? remoteShop({ ...settings, apiUrl: settings.apiUrl }, log, origin) : embeddedShop(settings, log, origin);
}

/**
 * The socket's peer; with TRUST_PROXY=true (the shop or `npm run api` behind a proxy of yours: nginx, a storefront),
 * the last X-Forwarded-For entry, the one that proxy added (an entry before it is whatever the client claimed).
 * Without it, every shopper behind nginx would share nginx's address, and one limit.
 */
export function shopperAddress(settings: Pick<ServerSettings, 'trustProxy'>, forwardedFor: string | null | undefined, socketAddress: string | undefined): string {
  const forwarded = settings.trustProxy ? forwardedFor?.split(',').at(-1)?.trim() : undefined;
  return forwarded || socketAddress || 'unknown';
}
