// scrypt in worker threads of its own (issue 32). In libuv's thread pool (4 threads, shared with file reads, zlib and
// the token checks' crypto), 480 failed sign-ins held a product page, an account call and /favicon.svg for up to two
// minutes and took the shop to 1.5 GB. Here a few hashes run at once, each alone on its thread, a few more wait their
// turn, and the rest are told at once to come back: a 503 with Retry-After, never a wait behind an attacker's queue.
//
// Hand-written rather than tinypool or piscina: both load the worker from a file, and Astro bundles src/server into
// dist/, where no such file would be. The worker's code is the few lines below, run with `eval`.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { ScryptOptions } from 'node:crypto';
import { ApiError } from '../errors.ts';

/**
 * Hashes at once: one fewer than the cores, at least one. On the 2-core machines a shop runs on, one hash at a time
 * uses one core and leaves the other to the main thread (pages, the API, PGlite), which must stay quick; more threads
 * would only share the same cores, each hash slower, with 128 MiB more held for each.
 */
export const SCRYPT_THREADS = Math.max(1, availableParallelism() - 1);

/**
 * Hashes waiting for a thread. A hash at OWASP's cost takes about 0.3 s here, so a sign-in that is let in waits at
 * most about 8 × 0.3 s ≈ 2.5 s behind the others, on top of its own. A waiting hash holds only its password.
 */
export const SCRYPT_WAITING_PER_THREAD = 8;

/** What a shopper is told to wait when the queue is full: a few hashes' time. */
export const BUSY_RETRY_SECONDS = 5;

export const BUSY_MESSAGE = 'Sign-ins are busy right now. Please try again in a few seconds.';

/**
 * The hashing threads' niceness (Linux): when the cores are short, pages and the API come first and hashes wait,
 * so a flood of sign-ins slows sign-ins (and fills the queue, a 503) rather than the shop.
 */
export const SCRYPT_NICENESS = 10;

// CommonJS (an eval worker's kind). scryptSync blocks this thread alone, which is the point of it. /proc/thread-self
// names this thread's id, whose priority Linux sets apart from the process's; elsewhere the thread keeps its own.
const WORKER_CODE = `
const { parentPort } = require('node:worker_threads');
const { scryptSync } = require('node:crypto');
try {
  const threadId = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop());
  require('node:os').setPriority(threadId, ${SCRYPT_NICENESS});
} catch {}
parentPort.on('message', ({ password, salt, keyBytes, options }) => {
  try {
    parentPort.postMessage({ key: scryptSync(password, salt, keyBytes, options) });
  } catch (error) {
    parentPort.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
});
`;

interface Job {
  password: string;
  salt: Uint8Array;
  keyBytes: number;
  options: ScryptOptions;
  resolve: (key: Buffer) => void;
  reject: (error: Error) => void;
}

export class ScryptPool {
  private readonly idle: Worker[] = [];
  private readonly working = new Map<Worker, Job>();
  private readonly waiting: Job[] = [];

  readonly threads: number;
  readonly maxWaiting: number;

  constructor(threads = SCRYPT_THREADS, maxWaiting = SCRYPT_WAITING_PER_THREAD * threads) {
    this.threads = threads;
    this.maxWaiting = maxWaiting;
  }

  /**
   * Throws the 503 ApiError (code `busy`) that `derive` would give now: a caller asks before its own work (a sign-in's
   * account lookup), so a flood of refused sign-ins costs the main thread, and the pages it serves, next to nothing.
   */
  refuseWhenFull(): void {
    // Jobs wait only while every thread works (dispatch runs after every change), so the queue's length is the wait.
    if (this.waiting.length >= this.maxWaiting) throw new ApiError(503, 'busy', BUSY_MESSAGE, { retryAfterSeconds: BUSY_RETRY_SECONDS });
  }

  /** scrypt's key, from a thread of the pool; a 503 ApiError (code `busy`) at once when the queue is full. */
  derive(password: string, salt: Uint8Array, keyBytes: number, options: ScryptOptions): Promise<Buffer> {
    try {
      this.refuseWhenFull();
    } catch (error) {
      return Promise.reject(error as Error);
    }
    return new Promise((resolve, reject) => {
      this.waiting.push({ password, salt, keyBytes, options, resolve, reject });
      this.dispatch();
    });
  }

  /** Ends the threads (the shop's shutdown, once its requests are answered); a later hash starts new ones. */
  async close(): Promise<void> {
    const closing = new Error('The shop is shutting down');
    for (const job of this.waiting.splice(0)) job.reject(closing);
    const workers = [...this.idle.splice(0), ...this.working.keys()];
    for (const job of this.working.values()) job.reject(closing);
    this.working.clear();
    await Promise.all(workers.map((worker) => worker.terminate()));
  }

  private dispatch() {
    while (this.waiting.length > 0 && (this.idle.length > 0 || this.working.size < this.threads)) {
      const worker = this.idle.pop() ?? this.spawn();
      const job = this.waiting.shift()!;
      this.working.set(worker, job);
      // Held only while it hashes: an idle thread keeps no process (a command, a test) from ending.
      worker.ref();
      worker.postMessage({ password: job.password, salt: job.salt, keyBytes: job.keyBytes, options: job.options });
    }
  }

  private spawn(): Worker {
    const worker = new Worker(WORKER_CODE, { eval: true, name: 'kirana-scrypt' });
    worker.on('message', (answer: { key?: Uint8Array; error?: string }) => {
      const job = this.working.get(worker);
      this.working.delete(worker);
      worker.unref();
      this.idle.push(worker);
      if (answer.key) job?.resolve(Buffer.from(answer.key.buffer, answer.key.byteOffset, answer.key.byteLength));
      else job?.reject(new Error(answer.error));
      this.dispatch();
    });
    // A thread that died (out of memory, terminated) fails its job and is replaced by the next dispatch.
    worker.on('error', () => {});
    worker.once('exit', (code) => {
      const job = this.working.get(worker);
      this.working.delete(worker);
      const at = this.idle.indexOf(worker);
      if (at >= 0) this.idle.splice(at, 1);
      job?.reject(new Error(`The password hashing thread stopped (exit code ${code})`));
      this.dispatch();
    });
    return worker;
  }
}
