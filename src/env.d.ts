declare namespace App {
  interface Locals {
    /** The shop, as the server that renders the page gives it (src/server/runtime.ts); absent while pre-rendering. */
    shop?: import('./server/storefront.ts').Storefront;
    /** The server's shaping of the page's answer (src/http/answers.ts: CSP framing, page cache, compression),
     * which src/middleware.ts hands Astro's Response to; absent in `astro dev`. */
    answer?: (response: Response) => Promise<Response>;
  }
}
