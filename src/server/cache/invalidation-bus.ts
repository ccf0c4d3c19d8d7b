// Tells every cache, in this process and in the others on the same PostgreSQL database, which tags a write made
// stale (src/server/cache/stale-after.ts). Between processes it goes by LISTEN/NOTIFY: no other service to run.
import { randomUUID } from 'node:crypto';
import type pg from 'pg';

/** What a subscriber is told: the tags a write made stale, or 'all' when it may have missed some. */
export type StaleTags = readonly string[] | 'all';
export type StaleListener = (tags: StaleTags) => void;

export interface InvalidationBus {
  /** Tells this process's subscribers at once (read your writes), then the other processes. Never throws. */
  publish(tags: readonly string[]): Promise<void>;
  /** Returns the unsubscribe. */
  subscribe(listener: StaleListener): () => void;
  close(): Promise<void>;
}

/** The subscribers of one bus. A listener that throws is logged: the write it follows has committed and must answer. */
class Listeners {
  readonly #listeners = new Set<StaleListener>();
  readonly #log: (message: string) => void;

  constructor(log: (message: string) => void) {
    this.#log = log;
  }

  add(listener: StaleListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  deliver(tags: StaleTags) {
    for (const listener of [...this.#listeners]) {
      try {
        listener(tags);
      } catch (error) {
        this.#log(`a cache could not forget what a write made stale: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
}

/** One process (an embedded database, tests): a publish reaches the subscribers before it returns. */
export function inProcessBus(log: (message: string) => void = (m) => console.error(m)): InvalidationBus {
  const listeners = new Listeners(log);
  return {
    async publish(tags) {
      if (tags.length > 0) listeners.deliver(tags);
    },
    subscribe: (listener) => listeners.add(listener),
    async close() {},
  };
}

export const STALE_CHANNEL = 'kirana_stale';
/** PostgreSQL refuses a payload of 8,000 bytes or more; a longer list of tags is sent as "forget everything". */
const MAX_PAYLOAD_BYTES = 7_900;
const FIRST_RETRY_MS = 250;
const LAST_RETRY_MS = 5_000;
/** Also bounds a publish: a write waits no longer than this for its notification to leave. */
const TIMEOUT_MS = 2_000;

interface Message {
  from: string;
  tags?: string[];
  all?: true;
}

export interface PostgresBus extends InvalidationBus {
  /** This bus's id, sent with its notifications; its connection's application_name is `kirana-stale-bus <id>`. */
  readonly id: string;
  /** Resolves once LISTEN is in effect (at once if it is); rejects if the bus is closed first. */
  listening(): Promise<void>;
}

/**
 * A bus over PostgreSQL's LISTEN/NOTIFY on one dedicated connection. A notification sent while that connection is
 * down is lost to it, so each time it listens (again) its subscribers are told 'all'; and a publish that could not be
 * sent makes it tell the other processes 'all' once it is back.
 */
export function postgresBus(url: string, log: (message: string) => void): PostgresBus {
  const id = randomUUID();
  const listeners = new Listeners(log);
  let connection: { client: pg.Client; lose: (reason: string) => void } | undefined;
  let attempt: Promise<void> | undefined;
  let retry: NodeJS.Timeout | undefined;
  let retryMs = FIRST_RETRY_MS;
  let failedAttempts = 0;
  let closed = false;
  let missedPublish = false;
  const waiting: { resolve: () => void; reject: (error: Error) => void }[] = [];

  const scheduleRetry = () => {
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      start();
    }, retryMs);
    // Waiting to reconnect is no reason to keep a process alive.
    retry.unref();
    retryMs = Math.min(retryMs * 2, LAST_RETRY_MS);
  };

  const receive = (payload: string | undefined) => {
    let message: Partial<Message>;
    try {
      message = JSON.parse(payload ?? '') as Partial<Message>;
    } catch {
      log(`an unreadable notification on ${STALE_CHANNEL}; every cache forgets everything`);
      return listeners.deliver('all');
    }
    if (message.from === id) return; // delivered when it was published
    const tags = Array.isArray(message.tags) ? message.tags.filter((tag) => typeof tag === 'string') : undefined;
    listeners.deliver(message.all || !tags ? 'all' : tags);
  };

  const notify = async (message: Message) => {
    const current = connection;
    let payload = JSON.stringify(message);
    if (Buffer.byteLength(payload) > MAX_PAYLOAD_BYTES) payload = JSON.stringify({ from: id, all: true } satisfies Message);
    if (!current) {
      missedPublish = true;
      log('a write could not tell the other processes what it made stale (no connection); they will forget everything once it is back');
      return;
    }
    try {
      await current.client.query('select pg_notify($1, $2)', [STALE_CHANNEL, payload]);
    } catch (error) {
      missedPublish = true;
      const reason = error instanceof Error ? error.message : String(error);
      log(`a write could not tell the other processes what it made stale (${reason}); they will forget everything once it is back`);
      // A connection that cannot send a notification in time is taken for lost, and made again.
      current.lose(reason);
    }
  };

  async function connect(): Promise<void> {
    if (closed) return;
    const { default: pgModule } = await import('pg');
    const client = new pgModule.Client({
      connectionString: url,
      // Which connection listens, for whoever reads pg_stat_activity.
      application_name: `kirana-stale-bus ${id}`,
      connectionTimeoutMillis: TIMEOUT_MS,
      query_timeout: TIMEOUT_MS,
      // A connection whose server vanished without a word (a network cut) is found out, not waited on forever.
      keepAlive: true,
    });
    let lost = false;
    const lose = (reason: string) => {
      if (lost) return;
      lost = true;
      const wasListening = connection?.client === client;
      if (wasListening) connection = undefined;
      client.end().catch(() => {});
      if (closed) return;
      if (wasListening) log(`the invalidation bus lost its connection (${reason}); reconnecting`);
      else if (failedAttempts++ === 0) log(`the invalidation bus could not listen (${reason}); trying again every few seconds`);
      scheduleRetry();
    };
    client.on('error', (error) => lose(error.message));
    client.on('end', () => lose('the connection ended'));
    client.on('notification', (notification) => {
      if (notification.channel === STALE_CHANNEL) receive(notification.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${STALE_CHANNEL}`);
    } catch (error) {
      return lose(error instanceof Error ? error.message : String(error));
    }
    if (lost) return;
    if (closed) {
      await client.end().catch(() => {});
      return;
    }
    connection = { client, lose };
    retryMs = FIRST_RETRY_MS;
    if (failedAttempts > 0) log('the invalidation bus is listening again');
    failedAttempts = 0;
    // Anything cached until now may have missed a notification.
    listeners.deliver('all');
    if (missedPublish) {
      missedPublish = false;
      await notify({ from: id, all: true });
    }
    for (const waiter of waiting.splice(0)) waiter.resolve();
  }

  function start() {
    attempt = connect().catch((error: unknown) => {
      log(`the invalidation bus could not start listening: ${error instanceof Error ? error.message : String(error)}`);
      scheduleRetry();
    });
  }
  start();

  return {
    id,
    async publish(tags) {
      if (tags.length === 0) return;
      listeners.deliver(tags);
      await notify({ from: id, tags: [...tags] });
    },
    subscribe: (listener) => listeners.add(listener),
    listening() {
      if (closed) return Promise.reject(new Error('the invalidation bus is closed'));
      if (connection) return Promise.resolve();
      return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      for (const waiter of waiting.splice(0)) waiter.reject(new Error('the invalidation bus is closed'));
      await attempt;
      const current = connection;
      connection = undefined;
      await current?.client.end().catch(() => {});
    },
  };
}

/** PostgreSQL's bus when the shop runs on a server several processes may share, else the in-process one (PGlite). */
export function invalidationBusFor(settings: { databaseUrl?: string }, log: (message: string) => void): InvalidationBus {
  return settings.databaseUrl ? postgresBus(settings.databaseUrl, log) : inProcessBus(log);
}
