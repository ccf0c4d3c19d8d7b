// The demo catalogue's pictures, drawn as 640 x 640 SVG: a product's pack (front), its back with a nutrition panel,
// the food itself, and a category's tile. Pure functions of their inputs, so the same product always gets the same
// bytes and content addressing stores each picture once. Text is set in DejaVu Sans (the font sharp finds on the
// server when it makes the AVIF and WebP sizes; Verdana has near the same widths in browsers).
import { fmt, iconElement } from './icons.ts';
import type { PackKind } from './kinds.ts';

export const PICTURE_SIZE = 640;

const FONT = 'DejaVu Sans, Verdana, sans-serif';
/** Average advance of a character of DejaVu Sans Bold in em, a little generous so text never leaves its box. */
const BOLD_ADVANCE = 0.7;
const REGULAR_ADVANCE = 0.62;
const INK = '#1f2328';

export interface BrandColours {
  /** The pack's colour; white text on it is readable. */
  main: string;
  /** Darker: caps, lids, the pack-size badge. */
  dark: string;
  /** Pale: the label and the background. */
  light: string;
  /** A second hue for a stripe. */
  accent: string;
}

/** FNV-1a: a stable small hash of a name, for colours and numbers that must not change between runs. */
export function hashOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function hslHex(h: number, s: number, l: number): string {
  const a = (s / 100) * Math.min(l / 100, 1 - l / 100);
  const channel = (n: number) => {
    const k = (n + h / 30) % 12;
    const v = l / 100 - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(v * 255)
      .toString(16)
      .padStart(2, '0');
  };
  return `#${channel(0)}${channel(8)}${channel(4)}`;
}

function luminance(hex: string): number {
  const n = parseInt(hex.slice(1), 16);
  const [r, g, b] = [n >> 16, (n >> 8) & 255, n & 255].map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** A brand's colours, from its name: every pack of a brand looks alike, brands look different. */
export function brandColours(brand: string): BrandColours {
  const h = hashOf(brand);
  const hue = h % 360;
  const saturation = 55 + ((h >>> 9) % 25);
  // Yellows and greens are light at the same lightness: darker until white text on the pack reads (5:1, not 4.5:1,
  // so the brand's name on the pale label reads too).
  let lightness = 32;
  while (lightness > 12 && 1.05 / (luminance(hslHex(hue, saturation, lightness)) + 0.05) < 5) lightness -= 2;
  return {
    main: hslHex(hue, saturation, lightness),
    dark: hslHex(hue, saturation, Math.min(18, lightness - 8)),
    light: hslHex(hue, 70, 95),
    accent: hslHex((hue + 40 + ((h >>> 17) % 60)) % 360, 80, 55),
  };
}

/** `colour` mixed with white; `white` 0..1 is how much white. */
export function tint(colour: string, white: number): string {
  const n = parseInt(colour.slice(1), 16);
  const mix = (c: number) =>
    Math.round(c + (255 - c) * white)
      .toString(16)
      .padStart(2, '0');
  return `#${mix(n >> 16)}${mix((n >> 8) & 255)}${mix(n & 255)}`;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** The largest font size up to `max` at which `text` fits `width`. */
function fitSize(text: string, width: number, max: number, bold = true): number {
  return Math.min(max, Math.floor(width / (Math.max(1, text.length) * (bold ? BOLD_ADVANCE : REGULAR_ADVANCE))));
}

/** Splits a name into at most two lines, breaking at the space nearest the middle. */
function twoLines(text: string): string[] {
  const words = text.split(' ');
  if (words.length < 2) return [text];
  let best: string[] = [text];
  let bestLongest = Infinity;
  for (let i = 1; i < words.length; i++) {
    const lines = [words.slice(0, i).join(' '), words.slice(i).join(' ')];
    const longest = Math.max(...lines.map((l) => l.length));
    if (longest < bestLongest) {
      best = lines;
      bestLongest = longest;
    }
  }
  return best;
}

/**
 * Text centred at x in a box `width` wide whose first baseline is at y: one line when it fits at `minOneLine` px or
 * more, else two. Returns the SVG and the height used.
 */
function textBlock(
  text: string,
  x: number,
  y: number,
  width: number,
  max: number,
  fill: string,
  options: { bold?: boolean; minOneLine?: number } = {},
): { svg: string; height: number } {
  const bold = options.bold ?? true;
  const one = fitSize(text, width, max, bold);
  const lines = one >= (options.minOneLine ?? max * 0.75) ? [text] : twoLines(text);
  const size = Math.min(...lines.map((l) => fitSize(l, width, max, bold)));
  const svg = lines
    .map(
      (line, i) =>
        `<text x="${fmt(x)}" y="${fmt(y + size * 0.8 + i * size * 1.1)}" font-family="${FONT}" font-size="${size}"${bold ? ' font-weight="bold"' : ''} fill="${fill}" text-anchor="middle">${escapeXml(line)}</text>`,
    )
    .join('');
  return { svg, height: size * (0.95 + (lines.length - 1) * 1.1) };
}

function svgDocument(background: string, content: string): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${PICTURE_SIZE}" height="${PICTURE_SIZE}" viewBox="0 0 ${PICTURE_SIZE} ${PICTURE_SIZE}">` +
    `<rect width="${PICTURE_SIZE}" height="${PICTURE_SIZE}" fill="${background}"/>${content}</svg>`
  );
}

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface FrontArt {
  brand: string;
  /** The product's name without its brand, as the pack says it. */
  name: string;
  /** Pack size printed in the badge ('500 g', '6 pcs'); undefined: none. */
  pack: string | undefined;
  icon: string;
  kind: PackKind;
  /** How big the pack is drawn, at most 1: a product's larger pack sizes stand taller than its smaller ones. */
  scale?: number;
}

/** Brand, food, name and pack size on a pack's label. */
function label(box: Box, art: FrontArt, c: BrandColours): string {
  const cx = box.x + box.w / 2;
  const pad = box.w * 0.06;
  const inner = box.w - 2 * pad;
  let out = `<rect x="${fmt(box.x)}" y="${fmt(box.y)}" width="${fmt(box.w)}" height="${fmt(box.h)}" rx="18" fill="${c.light}"/>`;
  const brand = textBlock(art.brand, cx, box.y + box.h * 0.04, inner, Math.min(46, box.h * 0.11), c.main, { minOneLine: 32 });
  out += brand.svg;
  const badgeH = art.pack ? Math.min(64, box.h * 0.15) : 0;
  const name = art.name;
  const nameMax = Math.min(34, box.h * 0.08);
  const nameBlock = textBlock(name, cx, 0, inner, nameMax, INK, { minOneLine: 26 });
  const top = box.y + box.h * 0.04 + brand.height + box.h * 0.03;
  const bottom = box.y + box.h - badgeH - box.h * 0.05 - nameBlock.height - box.h * 0.03;
  const iconSize = Math.max(60, Math.min(bottom - top, inner));
  out += `<circle cx="${fmt(cx)}" cy="${fmt(top + iconSize / 2)}" r="${fmt(iconSize / 2)}" fill="#ffffff"/>`;
  out += iconElement(art.icon, cx - iconSize * 0.4, top + iconSize * 0.1, iconSize * 0.8);
  out += textBlock(name, cx, top + iconSize + box.h * 0.02, inner, nameMax, INK, { minOneLine: 26 }).svg;
  if (art.pack) {
    const size = fitSize(art.pack, inner * 0.7, badgeH * 0.62);
    const badgeW = Math.min(inner, art.pack.length * size * BOLD_ADVANCE + size * 1.4);
    const by = box.y + box.h - badgeH - box.h * 0.04;
    out += `<rect x="${fmt(cx - badgeW / 2)}" y="${fmt(by)}" width="${fmt(badgeW)}" height="${fmt(badgeH)}" rx="${fmt(badgeH / 2)}" fill="${c.dark}"/>`;
    out += `<text x="${fmt(cx)}" y="${fmt(by + badgeH / 2 + size * 0.36)}" font-family="${FONT}" font-size="${size}" font-weight="bold" fill="#ffffff" text-anchor="middle">${escapeXml(art.pack)}</text>`;
  }
  return out;
}

const SHADOW = `<ellipse cx="320" cy="618" rx="210" ry="16" fill="#000000" opacity="0.12"/>`;

function packShape(kind: Exclude<PackKind, 'loose' | 'tray'>, c: BrandColours): { shape: string; label: Box } {
  switch (kind) {
    case 'bag':
      return {
        shape:
          `<path d="M150 112 L490 112 L508 588 Q510 612 486 612 L154 612 Q130 612 132 588 Z" fill="${c.main}"/>` +
          `<rect x="146" y="74" width="348" height="44" rx="6" fill="${c.dark}"/>` +
          `<path d="M146 96 h348" stroke="${c.accent}" stroke-width="4" stroke-dasharray="10 8"/>` +
          `<path d="M140 560 L500 560" stroke="${c.accent}" stroke-width="12"/>`,
        label: { x: 178, y: 146, w: 284, h: 400 },
      };
    case 'bottle':
      return {
        shape:
          `<rect x="274" y="26" width="92" height="54" rx="10" fill="${c.dark}"/>` +
          `<path d="M290 78 L350 78 L350 130 C350 170 444 180 444 240 L444 588 Q444 614 418 614 L222 614 Q196 614 196 588 L196 240 C196 180 290 170 290 130 Z" fill="${c.main}"/>` +
          `<path d="M196 572 L444 572" stroke="${c.accent}" stroke-width="10"/>`,
        label: { x: 204, y: 236, w: 232, h: 324 },
      };
    case 'jar':
      return {
        shape:
          `<rect x="170" y="92" width="300" height="76" rx="16" fill="${c.dark}"/>` +
          `<path d="M184 112 h272 M184 130 h272 M184 148 h272" stroke="${c.accent}" stroke-width="4" opacity="0.7"/>` +
          `<rect x="156" y="160" width="328" height="454" rx="54" fill="${c.main}"/>`,
        label: { x: 174, y: 206, w: 292, h: 370 },
      };
    case 'box':
      return {
        shape:
          `<path d="M150 134 L190 96 L512 96 L472 134 Z" fill="${tint(c.main, 0.25)}"/>` +
          `<path d="M472 134 L512 96 L512 574 L472 612 Z" fill="${c.dark}"/>` +
          `<rect x="150" y="134" width="322" height="478" fill="${c.main}"/>` +
          `<path d="M150 590 h322" stroke="${c.accent}" stroke-width="12"/>`,
        label: { x: 168, y: 156, w: 286, h: 416 },
      };
    case 'tin':
      return {
        shape:
          `<rect x="170" y="130" width="300" height="460" fill="${c.main}"/>` +
          `<ellipse cx="320" cy="590" rx="150" ry="26" fill="${c.main}"/>` +
          `<ellipse cx="320" cy="130" rx="150" ry="26" fill="#cfd8dc" stroke="${c.dark}" stroke-width="6"/>` +
          `<path d="M170 170 h300 M170 552 h300" stroke="${c.accent}" stroke-width="8"/>`,
        label: { x: 180, y: 184, w: 280, h: 356 },
      };
    case 'packet':
      return {
        shape:
          `<path d="M132 108 Q320 92 508 108 L512 584 Q320 600 128 584 Z" fill="${c.main}"/>` +
          `<path d="M132 70 ${zigzag(132, 508, 70, 108)} L508 70 Z" fill="${c.dark}"/>` +
          `<path d="M128 584 ${zigzag(128, 512, 622, 584)} L512 622 Z" fill="${c.dark}"/>`,
        label: { x: 162, y: 130, w: 316, h: 430 },
      };
  }
}

/** A crimped seal's edge from x0 to x1 between the heights y0 and y1. */
function zigzag(x0: number, x1: number, yOuter: number, yInner: number): string {
  const teeth = 16;
  const step = (x1 - x0) / teeth;
  const points: string[] = [];
  for (let i = 0; i <= teeth; i++) points.push(`L${fmt(x0 + i * step)} ${i % 2 === 0 ? yInner : yInner + (yOuter > yInner ? 8 : -8)}`);
  return points.join(' ');
}

/** The product's pack seen from the front: brand, food, name and pack size in the brand's colours. */
export function drawFront(art: FrontArt): string {
  const c = brandColours(art.brand);
  if (art.kind === 'loose') return drawLoose(art, c);
  if (art.kind === 'tray') return drawTray(art, c);
  const { shape, label: box } = packShape(art.kind, c);
  return svgDocument(tint(c.light, 0.5), scaled(art.scale, SHADOW + shape + label(box, art, c)));
}

/** Content drawn smaller about the middle of the picture's foot, where the pack stands; unchanged at full size. */
function scaled(scale: number | undefined, content: string): string {
  if (scale === undefined || scale >= 1) return content;
  const s = Math.round(scale * 1000) / 1000;
  const foot = PICTURE_SIZE - 10;
  return `<g transform="translate(${fmt((PICTURE_SIZE / 2) * (1 - s))} ${fmt(foot * (1 - s))}) scale(${s})">${content}</g>`;
}

/** A tag with the brand and the pack size, hung on loose produce or stuck on a tray. */
function tag(box: Box, art: FrontArt, c: BrandColours): string {
  const cx = box.x + box.w / 2;
  const inner = box.w * 0.86;
  let out = `<rect x="${fmt(box.x)}" y="${fmt(box.y)}" width="${fmt(box.w)}" height="${fmt(box.h)}" rx="22" fill="${c.main}" stroke="#ffffff" stroke-width="6"/>`;
  const brand = textBlock(art.brand, cx, box.y + 16, inner, 40, '#ffffff', { minOneLine: 30 });
  out += brand.svg;
  if (art.pack) {
    const size = fitSize(art.pack, inner, 52);
    out += `<text x="${fmt(cx)}" y="${fmt(box.y + box.h - 22)}" font-family="${FONT}" font-size="${size}" font-weight="bold" fill="#ffffff" text-anchor="middle">${escapeXml(art.pack)}</text>`;
  }
  return out;
}

function drawLoose(art: FrontArt, c: BrandColours): string {
  const content =
    `<ellipse cx="300" cy="560" rx="250" ry="40" fill="#000000" opacity="0.1"/>` +
    iconElement(art.icon, 40, 230, 280, 'b') +
    iconElement(art.icon, 150, 40, 400, 'a') +
    tag({ x: 330, y: 410, w: 290, h: 200 }, art, c);
  return svgDocument(tint(c.light, 0.5), scaled(art.scale, content));
}

function drawTray(art: FrontArt, c: BrandColours): string {
  const content =
    `<rect x="50" y="120" width="540" height="380" rx="44" fill="#eceff1" stroke="${c.main}" stroke-width="10"/>` +
    `<rect x="80" y="150" width="480" height="320" rx="30" fill="#ffffff" opacity="0.8"/>` +
    iconElement(art.icon, 90, 150, 300, 'a') +
    iconElement(art.icon, 300, 170, 220, 'b') +
    `<path d="M80 180 L560 430" stroke="#ffffff" stroke-width="14" opacity="0.6"/>` +
    tag({ x: 300, y: 400, w: 300, h: 210 }, { ...art }, c) +
    textBlock(art.name, 170, 540, 230, 30, INK, { minOneLine: 24 }).svg;
  return svgDocument(tint(c.light, 0.5), scaled(art.scale, content));
}

/** Typical values per 100 g or ml by category: energy kcal, protein, carbohydrate, sugars, fat (g), sodium (mg). */
const NUTRITION: Record<string, readonly [number, number, number, number, number, number]> = {
  'fruits-vegetables': [40, 1.5, 8, 5, 0.3, 10],
  'dairy-eggs': [120, 8, 6, 5, 7, 60],
  bakery: [270, 9, 50, 6, 4, 450],
  'atta-flours': [345, 12, 70, 1.5, 2, 5],
  'rice-grains': [350, 8, 78, 0.5, 1, 5],
  'dals-pulses': [340, 23, 58, 3, 1.5, 15],
  'spices-masalas': [330, 12, 50, 4, 10, 80],
  'edible-oils': [880, 0, 0, 0, 99.5, 0],
  'salt-sugar-jaggery': [380, 0.2, 95, 90, 0.1, 30],
  'dry-fruits-nuts': [560, 18, 25, 10, 45, 10],
  'snacks-namkeen': [530, 12, 48, 4, 33, 800],
  biscuits: [470, 7, 70, 22, 18, 320],
  'chocolates-sweets': [450, 6, 62, 48, 20, 60],
  'tea-coffee': [5, 0.3, 1, 0, 0, 5],
  beverages: [50, 0.2, 12, 11, 0, 15],
  'breakfast-cereals': [380, 11, 70, 12, 6, 250],
  'noodles-pasta': [380, 11, 70, 3, 8, 900],
  'ready-to-cook': [180, 6, 20, 4, 8, 500],
  'sauces-spreads': [260, 4, 40, 28, 10, 600],
  'pickles-chutneys': [190, 2, 12, 6, 15, 1800],
  'frozen-foods': [190, 6, 26, 4, 7, 380],
  'meat-fish': [150, 21, 0, 0, 7, 80],
  'health-wellness': [300, 3, 70, 55, 1, 40],
};

const NON_VEG = /chicken|mutton|fish|prawn|keema|pomfret|surmai|rohu|eggs/i;

export interface BackArt {
  categoryId: string;
  /** The base product's name, for the ingredients line. */
  name: string;
  /** 'g' or 'ml': nutrition per 100 of them. */
  unit: 'g' | 'ml';
  icon: string;
  /** The category's colour: a back is shared by every brand's pack of the product. */
  colour: string;
}

/** Varies a typical value by up to +-15 % for this product, keeping the same number for the same product. */
function vary(value: number, seed: number): number {
  const f = 0.85 + ((seed % 1000) / 1000) * 0.3;
  return value * f;
}

const one = (n: number) => (n >= 100 ? String(Math.round(n)) : n.toFixed(1));

/** The back of the pack: a nutrition panel for food, directions and a caution for household goods. */
export function drawBack(art: BackArt): string {
  const typical = NUTRITION[art.categoryId];
  const h = hashOf(`${art.categoryId}|${art.name}`);
  let rows: [string, string][];
  let title: string;
  let subtitle: string;
  let footer: string;
  if (typical) {
    const [kcal, protein, carbs, sugars, fat, sodium] = typical.map((v, i) => vary(v, h >>> (i * 3))) as [number, number, number, number, number, number];
    title = 'Nutrition information';
    subtitle = `Approx. values per 100 ${art.unit}`;
    rows = [
      ['Energy', `${Math.round(kcal)} kcal`],
      ['Protein', `${one(protein)} g`],
      ['Carbohydrate', `${one(carbs)} g`],
      ['  of which sugars', `${one(Math.min(sugars, carbs))} g`],
      ['Total fat', `${one(fat)} g`],
      ['Sodium', `${Math.round(sodium)} mg`],
    ];
    footer = `Ingredients: ${art.name}`;
  } else {
    title = 'Directions for use';
    subtitle = 'Read the label before use';
    rows = [
      ['Use', 'as directed'],
      ['Store', 'cool and dry'],
      ['Keep away', 'from children'],
      ['Eyes', 'rinse with water'],
      ['Made in', 'India'],
    ];
    footer = art.name;
  }
  const border = art.colour;
  let out =
    `<rect x="48" y="36" width="544" height="568" rx="28" fill="#ffffff" stroke="${border}" stroke-width="8"/>` +
    `<rect x="48" y="36" width="544" height="96" rx="28" fill="${border}"/><rect x="48" y="104" width="544" height="28" fill="${border}"/>` +
    `<text x="80" y="98" font-family="${FONT}" font-size="${fitSize(title, 400, 38)}" font-weight="bold" fill="#ffffff">${escapeXml(title)}</text>` +
    `<text x="80" y="176" font-family="${FONT}" font-size="26" fill="${INK}">${escapeXml(subtitle)}</text>`;
  if (typical) {
    const veg = !NON_VEG.test(art.name);
    const mark = veg ? '#2e7d32' : '#8d3b12';
    out += `<rect x="518" y="146" width="44" height="44" fill="#ffffff" stroke="${mark}" stroke-width="4"/><circle cx="540" cy="168" r="12" fill="${mark}"/>`;
  }
  rows.forEach(([what, amount], i) => {
    const y = 240 + i * 50;
    out +=
      `<path d="M80 ${y - 38} h480" stroke="${tint(border, 0.6)}" stroke-width="2"/>` +
      `<text x="80" y="${y}" font-family="${FONT}" font-size="28"${i === 0 ? ' font-weight="bold"' : ''} fill="${INK}" xml:space="preserve">${escapeXml(what)}</text>` +
      `<text x="560" y="${y}" font-family="${FONT}" font-size="28" font-weight="bold" fill="${INK}" text-anchor="end">${escapeXml(amount)}</text>`;
  });
  const footerY = 240 + rows.length * 50 - 10;
  out += `<path d="M80 ${footerY - 28} h480" stroke="${border}" stroke-width="4"/>`;
  out += textBlock(footer, 250, footerY, 360, 26, INK, { bold: false, minOneLine: 20 }).svg;
  out += iconElement(art.icon, 476, footerY - 34, 76);
  return svgDocument(tint(border, 0.9), out);
}

/** The food itself on a plate. */
export function drawFood(icon: string, colour: string): string {
  const content =
    `<circle cx="320" cy="320" r="270" fill="${tint(colour, 0.75)}"/>` +
    `<ellipse cx="320" cy="540" rx="200" ry="26" fill="#000000" opacity="0.12"/>` +
    `<circle cx="320" cy="320" r="228" fill="#ffffff"/>` +
    iconElement(icon, 140, 130, 360);
  return svgDocument(tint(colour, 0.9), content);
}

/** A category's tile: up to three of its foods, no words (the name is printed under the tile). */
export function drawCategoryTile(icons: readonly string[], colour: string): string {
  const [first, second, third] = icons;
  let content = `<circle cx="320" cy="330" r="280" fill="${tint(colour, 0.78)}"/>`;
  if (first && second && third) {
    content += iconElement(first, 160, 50, 320, 'a') + iconElement(second, 50, 300, 270, 'b') + iconElement(third, 320, 300, 270, 'c');
  } else if (first) {
    content += iconElement(first, 120, 120, 400, 'a');
  }
  return svgDocument(tint(colour, 0.92), content);
}
