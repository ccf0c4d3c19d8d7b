// `npm run api`: the API alone, with the shop's production stack (src/http/api-server.ts).
import { readServerSettings } from '../src/server/config.ts';
import { serveApi } from '../src/http/api-server.ts';

try {
  // Checks every setting first (src/server/config.ts): a typo stops the start in one line naming it.
  await serveApi(readServerSettings());
} catch (error) {
  console.error(`[kirana-api] could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
