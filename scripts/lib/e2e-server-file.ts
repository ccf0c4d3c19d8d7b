// Where the Playwright web server (scripts/e2e-server.ts) says which data folder its shop runs on, for the tests that
// read the shop's outboxes (tests/e2e/session.ts).
import os from 'node:os';
import path from 'node:path';

export const e2eServerFile = (port: string) => path.join(os.tmpdir(), `kirana-e2e-${port}.json`);
