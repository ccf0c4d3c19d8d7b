// The shop of `astro dev` (src/middleware.ts imports this only in development): made once, as scripts/serve.ts makes
// the built shop's. Kept on the module, which Vite keeps across requests; an edit of server code restarts it.
import { shopSettings } from './server/config.ts';
import { shopFor, type Shop } from './server/runtime.ts';
import { listenOrigin } from './lib/server/site.ts';

let shop: Shop | undefined;

export async function devShop(): Promise<Shop> {
  const settings = shopSettings();
  const origin = settings.siteUrl ? new URL(settings.siteUrl) : listenOrigin({ HOST: settings.host, PORT: String(settings.port) });
  return (shop ??= shopFor(settings, (m) => console.log(`[kirana] ${m}`), () => origin));
}
