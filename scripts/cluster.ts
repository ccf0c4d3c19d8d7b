// Two shops on one throwaway PostgreSQL behind nginx, on loopback, until Ctrl+C (scripts/lib/cluster.ts).
//
//   npm run cluster            (needs dist/: npm run build)
//
// Env: CLUSTER_PORT (nginx's port; default a free one), SHUTDOWN_GRACE_SECONDS (each shop's; default 2),
// CLUSTER_VERBOSE=1 to print the shops' and nginx's output.
// Everything it started is stopped and its temp folder removed on Ctrl+C, SIGTERM, SIGHUP or a failure.
import { Cluster } from './lib/cluster.ts';

const log = (message: string) => console.log(`cluster: ${message}`);
const verbose = process.env.CLUSTER_VERBOSE === '1';
const cluster = new Cluster({
  port: process.env.CLUSTER_PORT ? Number(process.env.CLUSTER_PORT) : undefined,
  shutdownGraceSeconds: process.env.SHUTDOWN_GRACE_SECONDS ? Number(process.env.SHUTDOWN_GRACE_SECONDS) : 2,
  log,
  // A shop that exits on its own is worth saying even when quiet.
  output: (name, line) => {
    if (verbose || line.startsWith('exited')) console.log(`[${name}] ${line}`);
  },
});

process.on('exit', () => cluster.stopNow());
let stopping = false;
for (const [signal, number] of [['SIGINT', 2], ['SIGTERM', 15], ['SIGHUP', 1]] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: stopping nginx, the shops and PostgreSQL`);
    void cluster.stop().finally(() => process.exit(128 + number));
  });
}

try {
  await cluster.start();
} catch (error) {
  console.error(`cluster: ${(error as Error).message}`);
  await cluster.stop().catch(() => {});
  process.exit(1);
}
console.log(`
The shop:      ${cluster.url}   (nginx, balancing the two below)
Shops:         ${cluster.shops.map((s) => `${s.name} http://127.0.0.1:${s.port} (DATA_DIR ${s.dataDir})`).join('\n               ')}
DATABASE_URL:  ${cluster.databaseUrl}
GROCER_TOKEN:  ${cluster.grocerToken}
Load it:       LOAD_DATABASE_URL=${cluster.databaseUrl} npm run load -- ${cluster.url}
Ctrl+C stops everything and removes its folder.`);
// Waits here until a signal.
setInterval(() => {}, 1 << 30);
