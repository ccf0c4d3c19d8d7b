// With `security.csp`, Astro hashes every stylesheet and script of a page's head on every request (SHA-256 through
// WebCrypto, about 5 % of a product page's CPU under load, profiled). They are the build's own, the same on every
// request, so the server entry's digest function is made to remember its answers. If Astro's output changes shape,
// the pattern does not match and nothing changes.
import type { AstroIntegration } from 'astro';
import { serverOutputEdit } from './server-output-edit.ts';

const MAX_REMEMBERED = 256;
const DIGEST_FUNCTION = /^async function generateCspDigest\((\w+), (\w+)\) \{$/m;

export function digestOnce(code: string): string {
  if (!DIGEST_FUNCTION.test(code)) return code;
  return code.replace(DIGEST_FUNCTION, (_line, data: string, algorithm: string) =>
    [
      // The head elements are a few per route; anything else hashed (a server island's content) may vary, so the
      // memo stops growing at a bound rather than keep every answer.
      'const cspDigests = new Map();',
      `function generateCspDigest(${data}, ${algorithm}) {`,
      // Keyed by the text itself: the same string each request, whose hash V8 keeps.
      `\tlet known = cspDigests.get(${algorithm});`,
      `\tif (!known) cspDigests.set(${algorithm}, known = new Map());`,
      `\tlet digest = known.get(${data});`,
      '\tif (digest) return digest;',
      `\tdigest = computeCspDigest(${data}, ${algorithm});`,
      `\tif (known.size < ${MAX_REMEMBERED}) known.set(${data}, digest);`,
      '\treturn digest;',
      '}',
      `async function computeCspDigest(${data}, ${algorithm}) {`,
    ].join('\n'),
  );
}

export default function cspDigestsOnce(): AstroIntegration {
  return serverOutputEdit('kirana:csp-digests-once', 'async function generateCspDigest(', digestOnce);
}
