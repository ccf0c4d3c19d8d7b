// Two shops on one PostgreSQL behind nginx, on loopback, in one temp folder (DESIGN.md "Scale"): what
// `npm run cluster` runs and `npm run load` runs its load against. Each shop is the built site (dist/) served by
// scripts/serve.ts with its own DATA_DIR and the settings they must share (DATABASE_URL, JWT_SECRET, GROCER_TOKEN,
// SITE_URL: nginx's address). `stop()` ends everything it started and removes the folder; `stopNow()` does the same
// synchronously (SIGKILL), for an 'exit' handler.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureNginx, nginxVersion, prepareBalancer } from './nginx.ts';
import { randomFreePort, ThrowawayPostgres } from './postgres.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface ClusterOptions {
  /** SHUTDOWN_GRACE_SECONDS of each shop: how long it answers while /readyz says 503, after SIGTERM. */
  shutdownGraceSeconds?: number;
  /** Port of nginx; default a free one. */
  port?: number;
  log: (message: string) => void;
  /** Where a shop's and nginx's output goes: a line at a time, with its name. Default: dropped (kept in memory). */
  output?: (name: string, line: string) => void;
}

export interface Shop {
  name: string;
  port: number;
  dataDir: string;
  process: ChildProcess | undefined;
  /** Resident memory of its process now, in bytes (from /proc), or undefined when it is not running. */
  rss(): number | undefined;
}

function rssOf(pid: number | undefined): number | undefined {
  if (!pid) return undefined;
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

const alive = (child: ChildProcess | undefined): boolean => !!child && child.exitCode === null && child.signalCode === null;

async function waitForReady(url: string, withinMs: number, what: string): Promise<void> {
  const until = Date.now() + withinMs;
  for (;;) {
    const status = await fetch(url, { signal: AbortSignal.timeout(5_000) }).then((r) => r.status, () => 0);
    if (status === 200) return;
    if (Date.now() > until) throw new Error(`${what} not ready after ${withinMs / 1000} s (${url}: ${status || 'no answer'})`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export class Cluster {
  readonly postgres: ThrowawayPostgres;
  readonly shops: Shop[] = [];
  url = '';
  private tempDir = '';
  private nginx: ChildProcess | undefined;
  private readonly secrets = {
    JWT_SECRET: `cluster-jwt-${crypto.randomUUID()}`,
    GROCER_TOKEN: `cluster-grocer-${crypto.randomUUID()}`,
  };
  private stopped = false;
  private readonly options: ClusterOptions;

  constructor(options: ClusterOptions) {
    this.options = options;
    this.postgres = new ThrowawayPostgres({ prefix: 'kirana-cluster-pg-', log: options.log });
  }

  get databaseUrl(): string {
    return this.postgres.url;
  }

  get grocerToken(): string {
    return this.secrets.GROCER_TOKEN;
  }

  async start(): Promise<void> {
    const { log } = this.options;
    if (!fs.existsSync(path.join(root, 'dist/server/entry.mjs'))) throw new Error('dist/ is missing: run `npm run build` first.');
    const nginxBinary = ensureNginx(log);
    this.tempDir = fs.mkdtempSync(path.join('/tmp', 'kirana-cluster-'));
    // nginx's workers (user nobody when started as root) need to reach their temp folders inside it.
    fs.chmodSync(this.tempDir, 0o755);
    await this.postgres.init();
    log(`PostgreSQL ${this.postgres.version} on ${this.databaseUrl}`);

    const port = this.options.port ?? (await randomFreePort());
    this.url = `http://127.0.0.1:${port}`;
    for (const name of ['shop-1', 'shop-2']) {
      this.shops.push({ name, port: await randomFreePort(), dataDir: path.join(this.tempDir, name), process: undefined, rss() { return rssOf(this.process?.pid); } });
    }
    // Both at once on the empty database: one migrates and seeds it, the other waits (tests/postgres/start-together).
    await Promise.all(this.shops.map((shop) => this.startShop(shop)));

    const prefix = path.join(this.tempDir, 'nginx');
    const args = prepareBalancer({ prefix, port, upstreams: this.shops.map((s) => s.port) });
    fs.chmodSync(prefix, 0o755);
    log(`nginx ${nginxVersion(nginxBinary)} on ${this.url} → ${this.shops.map((s) => `127.0.0.1:${s.port}`).join(', ')}`);
    this.nginx = this.spawn('nginx', nginxBinary, args, {});
    await waitForReady(`${this.url}/readyz`, 15_000, 'nginx');
  }

  private spawn(name: string, command: string, args: string[], env: NodeJS.ProcessEnv): ChildProcess {
    const child = spawn(command, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const output = this.options.output;
    for (const stream of [child.stdout, child.stderr]) {
      let rest = '';
      stream?.on('data', (chunk: Buffer) => {
        const lines = (rest + chunk.toString()).split('\n');
        rest = lines.pop() ?? '';
        for (const line of lines) output?.(name, line);
      });
    }
    child.on('exit', (code, signal) => {
      if (!this.stopped) output?.(name, `exited (${signal ?? code})`);
    });
    return child;
  }

  /** Starts a shop (again) on its port and folder, and waits until its /readyz answers 200. */
  async startShop(shop: Shop): Promise<void> {
    shop.process = this.spawn(shop.name, process.execPath, [path.join(root, 'scripts/serve.ts')], {
      ...this.secrets,
      DATABASE_URL: this.databaseUrl,
      DATA_DIR: shop.dataDir,
      HOST: '127.0.0.1',
      PORT: String(shop.port),
      // Pages and mails name the balancer, the shop's public address; the same on both.
      SITE_URL: this.url,
      SHUTDOWN_GRACE_SECONDS: String(this.options.shutdownGraceSeconds ?? 2),
      // The shopper's address is the one nginx forwards (scripts/lib/nginx.ts), for the rate limits.
      TRUST_PROXY: 'true',
    });
    await waitForReady(`http://127.0.0.1:${shop.port}/readyz`, 120_000, shop.name);
  }

  /** nginx's error log so far (why it answered a 502: refused, reset, timed out), one line each. */
  balancerErrors(): string[] {
    try {
      return fs.readFileSync(path.join(this.tempDir, 'nginx', 'error.log'), 'utf8').split('\n').filter(Boolean);
    } catch {
      return [];
    }
  }

  /** SIGTERM, and waits for the shop to exit (its drain: grace, then the requests in flight); SIGKILL after 30 s. */
  async stopShop(shop: Shop): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    const child = shop.process;
    if (!child || !alive(child)) return { code: child?.exitCode ?? null, signal: child?.signalCode ?? null };
    const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    const [code, signal] = await exited;
    clearTimeout(timer);
    return { code, signal };
  }

  /** Ends everything: nginx, the shops (drained), PostgreSQL, then the folder. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (this.nginx && alive(this.nginx)) {
      const exited = once(this.nginx, 'exit');
      this.nginx.kill('SIGQUIT'); // graceful: finishes the requests it is passing on
      const timer = setTimeout(() => this.nginx?.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    await Promise.all(this.shops.map((shop) => this.stopShop(shop)));
    this.postgres.remove();
    if (this.tempDir) fs.rmSync(this.tempDir, { recursive: true, force: true, maxRetries: 3 });
  }

  /** The same, at once and synchronously (an 'exit' handler cannot wait): SIGKILL to whatever still runs. */
  stopNow(): void {
    this.stopped = true;
    for (const child of [this.nginx, ...this.shops.map((s) => s.process)]) if (child && alive(child)) child.kill('SIGKILL');
    this.postgres.remove();
    if (this.tempDir) fs.rmSync(this.tempDir, { recursive: true, force: true, maxRetries: 3 });
  }
}
