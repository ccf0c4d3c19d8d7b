// Lets `client:interaction` type-check in .astro templates (astro check).
import 'astro';

declare module 'astro' {
  interface AstroClientDirectives {
    /** Hydrate on the first pointerover, pointerdown, touchstart, focusin or keydown inside the island. */
    'client:interaction'?: boolean;
  }
}
