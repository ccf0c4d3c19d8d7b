// Food and household drawings from Fluent Emoji Flat (Microsoft, MIT; see NOTICE), read from the icon set's JSON once
// and embedded into our SVGs: a picture in an <img> may not load other files, so the drawing travels inside it. The
// Indian foods the set has no picture of are our own drawings (foods.ts), placed the same way.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { DRAWING_SIZE, foodDrawing, isFoodDrawing } from './foods.ts';

interface IconSet {
  icons: Record<string, { body: string; width?: number; height?: number }>;
  width?: number;
  height?: number;
}

let iconSet: IconSet | undefined;

function loadIconSet(): IconSet {
  // Read at run time rather than imported: bundled, the 9 MB set would land in the server build.
  iconSet ??= JSON.parse(
    readFileSync(createRequire(import.meta.url).resolve('@iconify-json/fluent-emoji-flat/icons.json'), 'utf8'),
  ) as IconSet;
  return iconSet;
}

export function hasIcon(name: string): boolean {
  return isFoodDrawing(name) || name in loadIconSet().icons;
}

/**
 * The icon `name` as an SVG element at (x, y), `size` wide and high. `idPrefix` keeps the ids of an icon's gradients
 * apart when one picture holds several icons.
 */
export function iconElement(name: string, x: number, y: number, size: number, idPrefix = ''): string {
  // Ours first: they carry no ids, so no prefix is needed.
  const own = foodDrawing(name);
  if (own !== undefined) {
    return `<svg x="${fmt(x)}" y="${fmt(y)}" width="${fmt(size)}" height="${fmt(size)}" viewBox="0 0 ${DRAWING_SIZE} ${DRAWING_SIZE}">${own}</svg>`;
  }
  const set = loadIconSet();
  const icon = set.icons[name];
  if (!icon) throw new Error(`Fluent Emoji Flat has no icon ${name}`);
  const w = icon.width ?? set.width ?? 32;
  const h = icon.height ?? set.height ?? 32;
  const body = idPrefix ? icon.body.replace(/\bid="([^"]+)"/g, `id="${idPrefix}$1"`).replace(/#([A-Za-z][\w-]*)\)/g, `#${idPrefix}$1)`).replace(/href="#([^"]+)"/g, `href="#${idPrefix}$1"`) : icon.body;
  return `<svg x="${fmt(x)}" y="${fmt(y)}" width="${fmt(size)}" height="${fmt(size)}" viewBox="0 0 ${w} ${h}">${body}</svg>`;
}

/** Numbers in the SVG text: whole or one decimal, so the same picture always has the same bytes. */
export function fmt(n: number): string {
  return String(Math.round(n * 10) / 10);
}
