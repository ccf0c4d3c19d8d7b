// The URLs the <head> script builds (src/client/cart-controller.ts, early-suggestions.ts), and where signing in returns,
// in a module of their own: urls.ts builds every other URL from these, and the head's file takes these alone, not every
// URL of the shop with the listings' refinements and their food types.
import type { Suggestion } from './api/types.ts';

export const productPath = (id: number) => `/product-detail?id=${id}`;
export const brandPath = (id: number) => `/shop?type=brand&id=${id}`;
export const categoryPath = (id: string) => `/shop?type=category&id=${encodeURIComponent(id)}`;

/** Sign in, then come back to `next` (a same-origin path; see safeNextPath). */
export const loginUrl = (next?: string) => withNext('/login', next);

/** The page a search suggestion opens: a product, or the shop listing of a brand or a category. */
export function suggestionUrl(s: Pick<Suggestion, 'id' | 'type'>): string {
  switch (s.type) {
    case 'products':
      return productPath(Number(s.id));
    case 'Brand':
      return brandPath(Number(s.id));
    case 'Category':
      return categoryPath(String(s.id));
  }
}

export function withNext(path: string, next?: string): string {
  const safe = safeNextPath(next);
  return safe && safe !== '/' ? `${path}?next=${encodeURIComponent(safe)}` : path;
}

/**
 * Where to go after signing in: `next` when it is a path on this site, else home. Never another origin (no open
 * redirect). The check is on the URL as the parser normalises it, and on the path it gives back, since that is
 * what a browser reads next: '/.//evil.example' resolves to '//evil.example', which names another host; so do
 * '/../..//x', '/./\\x' and '/\t/x' (tabs and newlines are dropped). '//x', '/\\x', 'https://…', 'javascript:' and
 * a path whose first segment is an encoded slash ('/%2F%2Fx', which a server that decodes it might redirect to
 * '//x') all give '/'.
 */
export function safeNextPath(next: string | null | undefined): string {
  if (!next?.startsWith('/')) return '/';
  try {
    const base = 'http://kirana.invalid';
    const url = new URL(next, base);
    const path = `${url.pathname}${url.search}${url.hash}`;
    const again = new URL(path, base);
    if (url.origin !== base || again.origin !== base || `${again.pathname}${again.search}${again.hash}` !== path) return '/';
    if (/^[/\\]{2}/.test(decodeURIComponent(url.pathname))) return '/';
    // Not back to a sign-in form either (a loop).
    if (['/login', '/register'].includes(url.pathname.replace(/(?<=.)\/+$/, ''))) return '/';
    return path;
  } catch {
    return '/';
  }
}
