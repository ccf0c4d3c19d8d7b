// The grocer's commands (`npm run orders`, `npm run import`) reach the shop's data one of two ways: through the
// running shop's grocer routes (only one process may open the embedded database), or, with the shop stopped or on
// PostgreSQL, by opening the database themselves.
import fs from 'node:fs';
import path from 'node:path';
import { readServerSettings, type ServerSettings } from '../../src/server/config.ts';
import { GROCER_TOKEN_FILE } from '../../src/server/auth/secret.ts';
import type { DatabaseHandle } from '../../src/server/db/client.ts';
import { inProcessBus, postgresBus, type InvalidationBus } from '../../src/server/cache/invalidation-bus.ts';

/** A message for the grocer: printed on one line, exit 1. `status`: the shop's HTTP status when it refused. */
export class CliError extends Error {
  readonly status: number | undefined;
  constructor(message: string, status?: number) {
    super(message);
    this.status = status;
  }
}

export interface GrocerRequest {
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as they are (application/octet-stream). */
  bytes?: Uint8Array<ArrayBuffer>;
}

export type GrocerCall = <T>(method: string, route: string, request?: GrocerRequest) => Promise<T>;

/**
 * Calls the running shop's `/api/grocer/<route>` with GROCER_TOKEN, as the shop reads it, else the token from the data
 * folder; the shop's error message on failure.
 */
export function grocerClient(url: string, dataDir: string): GrocerCall {
  const tokenFile = path.join(dataDir, GROCER_TOKEN_FILE);
  let token = readServerSettings().grocerToken ?? '';
  try {
    token ||= fs.readFileSync(tokenFile, 'utf8').trim();
  } catch (error) {
    throw new CliError(`cannot read the grocer token ${tokenFile} (or set GROCER_TOKEN as the shop has it): ${(error as Error).message}`);
  }
  return async <T>(method: string, route: string, { json, bytes }: GrocerRequest = {}): Promise<T> => {
    // Astro refuses a POST whose Origin is not the shop's own (its guard against cross-site forms).
    const headers: Record<string, string> = { authorization: `Grocer ${token}`, origin: new URL(url).origin };
    let body: BodyInit | undefined;
    if (json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(json);
    } else if (bytes) {
      headers['content-type'] = 'application/octet-stream';
      body = bytes;
    }
    let res: Response;
    try {
      res = await fetch(new URL(`/api/grocer/${route}`, url), { method, headers, body });
    } catch (error) {
      throw new CliError(`the shop at ${url} did not answer (${(error as Error).cause ?? (error as Error).message})`);
    }
    const answer = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
    if (!res.ok) throw new CliError(answer?.error?.message ?? `the shop answered ${res.status}`, res.status);
    return answer as T;
  };
}

/** The database itself: the shop is stopped (the data folder's lock refuses otherwise), or it is PostgreSQL. */
export async function openStoppedShop(settings: ServerSettings): Promise<DatabaseHandle> {
  if (!settings.databaseUrl && !fs.existsSync(path.join(settings.dataDir, 'PG_VERSION'))) {
    throw new CliError(`there is no shop database in ${settings.dataDir} yet: start the shop once (npm start), or set DATA_DIR.`);
  }
  // Never seed or log here: the grocer asked for their own data, not for a demo catalogue. Loaded here: a command
  // through the running shop needs none of the database's code.
  const { openShopDatabase } = await import('../../src/server/db/prepare.ts');
  return openShopDatabase({ ...settings, seedOnEmpty: false }, () => {});
}

/** How long a tool waits for its bus to listen before it writes. */
const BUS_WAIT_MS = 5_000;

/**
 * The bus a tool that writes straight to the database tells the shops on: on PostgreSQL, LISTEN/NOTIFY as the shops
 * use (runtime.ts), listening before the tool writes, so its first publish is sent rather than left for a reconnect;
 * on a stopped shop's PGlite nobody else is there to hear it (in process). `log` gets the bus's troubles.
 */
export async function toolBus(settings: ServerSettings, log: (message: string) => void): Promise<InvalidationBus> {
  if (!settings.databaseUrl) return inProcessBus(log);
  const bus = postgresBus(settings.databaseUrl, log);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, BUS_WAIT_MS)));
  await Promise.race([bus.listening().catch(() => {}), late]);
  clearTimeout(timer);
  return bus;
}
