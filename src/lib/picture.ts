// The <img> attributes of a product or category picture: for an original stored by its SHA-256
// (/api/images/files/<sha>.<ext>), a srcset of the sizes the API makes from it (src/server/services/image-files.ts);
// the format (AVIF, WebP, else JPEG) is chosen by the API from the browser's Accept, so one URL per width keeps a
// listing's HTML small. Other pictures (the generated /api/images/products/*.svg, the default image) stay as they are.

/** The widths the API makes of an original, each a square with the picture contained on white. */
export const PICTURE_WIDTHS = [160, 320, 480, 640, 960] as const;
export type PictureWidth = (typeof PICTURE_WIDTHS)[number];

/** The widest a picture is drawn, in CSS pixels, and the matching `sizes`: one entry per place pictures are shown. */
export const PICTURE_SLOTS = {
  /** Product cards in listings (2 per row on a phone; about 240 px from 720 px up). */
  card: { shownAt: 240, sizes: '(min-width: 720px) 240px, 50vw' },
  /** Product cards in a row that swipes on a phone (global.css `.grid.rail`: 42% of the row); a grid from 720 px. */
  railCard: { shownAt: 240, sizes: '(min-width: 720px) 240px, 42vw' },
  /** Category tiles (4 per row on a phone, 3 under 360 px; at most 160 px wide from 720 px up). */
  category: { shownAt: 160, sizes: '(min-width: 720px) 160px, (min-width: 360px) 22vw, 30vw' },
  /** The product page's main picture (at most 260 px wide on a phone, so price and Add to cart show too). */
  gallery: { shownAt: 480, sizes: '(min-width: 800px) 480px, 260px' },
  /** The gallery's thumbnails. */
  thumbnail: { shownAt: 72, sizes: '72px' },
  /** A line of the cart or an order. */
  line: { shownAt: 80, sizes: '80px' },
  /** A product among the search box's suggestions. */
  suggestion: { shownAt: 40, sizes: '40px' },
} as const satisfies Record<string, { shownAt: number; sizes: string }>;
export type PictureSlot = keyof typeof PICTURE_SLOTS;

const ORIGINAL_URL = /^(.*\/api\/images\/)files\/([0-9a-f]{64}\.(?:jpg|png|webp|svg))$/;

/** The URL of `width` made from an original's URL; undefined for a picture the API does not size. */
export function sizedImageUrl(imageUrl: string, width: PictureWidth): string | undefined {
  const match = ORIGINAL_URL.exec(imageUrl);
  return match ? `${match[1]}${width}/${match[2]}` : undefined;
}

/**
 * The picture to hand to crawlers and link previews (og:image, JSON-LD): the largest size, which is JPEG for a client
 * that asks for no particular format (some previewers read no SVG, AVIF or WebP).
 */
export function shareableImageUrl(imageUrl: string): string {
  return sizedImageUrl(imageUrl, PICTURE_WIDTHS.at(-1)!) ?? imageUrl;
}

export interface PictureAttributes {
  src: string;
  srcset?: string;
  sizes?: string;
}

/**
 * src, srcset and sizes for a picture shown in `slot`. The srcset stops at the first width that covers the slot on a
 * 2x screen (more would cost HTML and bytes for little gain); src is the width for a 1x screen.
 */
export function pictureAttributes(imageUrl: string, slot: PictureSlot): PictureAttributes {
  const match = ORIGINAL_URL.exec(imageUrl);
  if (!match) return { src: imageUrl };
  const { shownAt, sizes } = PICTURE_SLOTS[slot];
  const url = (width: PictureWidth) => `${match[1]}${width}/${match[2]}`;
  const lastIndex = PICTURE_WIDTHS.findIndex((w) => w >= 2 * shownAt);
  const widths = PICTURE_WIDTHS.slice(0, lastIndex < 0 ? undefined : lastIndex + 1);
  const src = widths.find((w) => w >= shownAt) ?? widths.at(-1)!;
  return { src: url(src), srcset: widths.map((w) => `${url(w)} ${w}w`).join(', '), sizes };
}

/** pictureAttributes with React's names, for the islands. */
export function pictureProps(imageUrl: string, slot: PictureSlot): { src: string; srcSet?: string; sizes?: string } {
  const { srcset, ...rest } = pictureAttributes(imageUrl, slot);
  return { ...rest, srcSet: srcset };
}
