// Playwright webServer (see playwright.config.ts): the built shop (scripts/serve.ts over dist/) on
// 127.0.0.1:$E2E_PORT (default 4399) with a fresh, empty DATA_DIR, removed when it stops (SIGTERM, SIGINT, SIGHUP).
//
//   npm run build && node scripts/e2e-server.ts
import fs from 'node:fs';
import { startBuiltServer } from './lib/built-server.ts';
import { e2eServerFile } from './lib/e2e-server-file.ts';

const port = process.env.E2E_PORT ?? '4399';
console.log(`e2e-server: starting the built shop on http://127.0.0.1:${port}`);
// Every spec's shoppers register from 127.0.0.1: the shop's limit per address (30 in 15 minutes) would refuse the later ones.
const server = await startBuiltServer({ env: { PORT: port, ACCOUNT_WRITES_PER_ADDRESS: '1000', TEXTS_PER_HOUR: '100000' }, timeoutMs: 120_000, echo: true }).catch((error: unknown) => {
  console.error(`e2e-server: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});

// The tests read the texts the shop writes to its outbox (one-time codes) from this folder.
const file = e2eServerFile(port);
fs.writeFileSync(file, JSON.stringify({ dataDir: server.dataDir }));

for (const signal of ['SIGHUP', 'SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () =>
    void server.stop().then(() => {
      fs.rmSync(file, { force: true });
      process.exit(0);
    }),
  );
}
