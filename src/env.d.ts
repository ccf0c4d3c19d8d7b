declare namespace App {
  interface Locals {
    /** The shop, as the server that renders the page gives it (src/server/runtime.ts); absent while pre-rendering. */
    shop?: import('./server/storefront.ts').Storefront;
  }
}
