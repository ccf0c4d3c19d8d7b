// Generated product and category pictures: an SVG with the name on the category's colour.
import { escapeXml } from '../../lib/xml.ts';

/** Splits a name into at most `maxLines` lines of about `width` characters. */
export function wrapWords(text: string, width: number, maxLines: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  if (lines.length > maxLines) {
    const kept = lines.slice(0, maxLines);
    kept[maxLines - 1] = `${kept[maxLines - 1]}…`;
    return kept;
  }
  return lines;
}

export function pictureSvg(opts: { title: string; subtitle: string; colour: string; variant?: number }): string {
  const lines = wrapWords(opts.title, 16, 4);
  const shade = opts.variant && opts.variant > 1 ? 0.12 * (opts.variant - 1) : 0;
  const firstY = 200 - (lines.length - 1) * 22;
  const text = lines
    .map((l, i) => `<text x="200" y="${firstY + i * 44}" font-size="34" font-weight="700">${escapeXml(l)}</text>`)
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 400" width="400" height="400" role="img" aria-label="${escapeXml(opts.title)}">` +
    `<rect width="400" height="400" fill="${escapeXml(opts.colour)}"/>` +
    `<rect width="400" height="400" fill="#000" opacity="${shade}"/>` +
    `<circle cx="330" cy="70" r="120" fill="#fff" opacity="0.08"/>` +
    `<g fill="#fff" font-family="system-ui,-apple-system,Segoe UI,Roboto,sans-serif" text-anchor="middle">${text}` +
    `<text x="200" y="360" font-size="20" opacity="0.9">${escapeXml(opts.subtitle)}</text></g></svg>`;
}
