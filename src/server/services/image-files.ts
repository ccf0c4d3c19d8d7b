// Picture originals stored in the database by the SHA-256 of their bytes (table image_files): one copy however many
// products show it, and saving the same picture again changes nothing (a re-run import, a re-seed).
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import sharp, { type Metadata, type Sharp } from 'sharp';
import { PICTURE_WIDTHS, type PictureWidth } from '../../lib/picture.ts';
import type { Database } from '../db/client.ts';
import { imageFiles } from '../db/schema.ts';
import { ApiError } from '../errors.ts';

/** The originals a grocer may supply, and the seed's drawn pictures, by content type → the URL's extension. */
export const ORIGINAL_TYPES = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/svg+xml': 'svg',
} as const;
export type OriginalType = keyof typeof ORIGINAL_TYPES;

const SHARP_FORMATS: Record<string, OriginalType> = { jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp', svg: 'image/svg+xml' };

/** The URL of an original: what product_images.image_url holds and what the API's image DTOs carry. */
export function imageFileUrl(sha256: string, contentType: OriginalType): string {
  return `/api/images/files/${sha256}.${ORIGINAL_TYPES[contentType]}`;
}

export interface SavedImage {
  url: string;
  sha256: string;
  width: number;
  height: number;
}

/**
 * Stores a picture (JPEG, PNG, WebP or SVG, told by its bytes, not its name) and returns its URL. A file that is not
 * one of them is refused with a 400 naming `label` (e.g. the file's name), so an import can list it.
 */
export async function saveImageFile(db: Database, bytes: Uint8Array, label = 'the picture'): Promise<SavedImage> {
  let meta: Metadata;
  try {
    meta = await sharp(bytes).metadata();
  } catch {
    throw new ApiError(400, 'bad_request', `${label} is not a JPEG, PNG, WebP or SVG picture`);
  }
  const contentType = meta.format ? SHARP_FORMATS[meta.format] : undefined;
  if (!contentType || !meta.width || !meta.height) {
    throw new ApiError(400, 'bad_request', `${label} is not a JPEG, PNG, WebP or SVG picture`);
  }
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  await db
    .insert(imageFiles)
    .values({ sha256, contentType, bytes, width: meta.width, height: meta.height })
    .onConflictDoNothing();
  return { url: imageFileUrl(sha256, contentType), sha256, width: meta.width, height: meta.height };
}

export type OriginalExtension = (typeof ORIGINAL_TYPES)[OriginalType];

/** An original as stored, for serving it as it is. */
export async function readImageFile(db: Database, sha256: string, extension: string) {
  const [row] = await db
    .select({ contentType: imageFiles.contentType, bytes: imageFiles.bytes, width: imageFiles.width, height: imageFiles.height })
    .from(imageFiles)
    .where(eq(imageFiles.sha256, sha256));
  // The extension is part of the URL the API handed out: another one names no picture.
  if (!row || ORIGINAL_TYPES[row.contentType as OriginalType] !== extension) return undefined;
  return { ...row, contentType: row.contentType as OriginalType };
}

/** The formats sizes are made in, best first; JPEG for the rare browser that takes neither AVIF nor WebP. */
export const SIZED_FORMATS = { avif: 'image/avif', webp: 'image/webp', jpeg: 'image/jpeg' } as const;
export type SizedFormat = keyof typeof SIZED_FORMATS;

/** The best format the browser's Accept header takes (a type with q=0 is refused). */
export function chooseSizedFormat(accept: string | undefined): SizedFormat {
  const taken = new Set<string>();
  for (const part of (accept ?? '').toLowerCase().split(',')) {
    const [type, ...params] = part.split(';').map((p) => p.trim());
    const q = params.find((p) => p.startsWith('q='));
    if (type && !(q && Number(q.slice(2)) === 0)) taken.add(type);
  }
  if (taken.has('image/avif')) return 'avif';
  if (taken.has('image/webp')) return 'webp';
  return 'jpeg';
}

/** Effective connection types (the ECT client hint, `navigator.connection.effectiveType`) slow enough to save data on. */
const SLOW_CONNECTIONS = new Set(['2g', 'slow-2g']);

/**
 * Save-Data: on (the browser's data saver), or a 2G connection (the ECT client hint the shop's pages ask for with
 * Accept-CH, issue 26), gets the smallest width whatever width was asked for.
 */
export function widthFor(asked: PictureWidth, saveData: string | undefined, ect?: string): PictureWidth {
  const saving = saveData?.trim().toLowerCase() === 'on' || SLOW_CONNECTIONS.has(ect?.trim().toLowerCase() ?? '');
  return saving ? PICTURE_WIDTHS[0] : asked;
}

// Part of every cached file's name: change it when the recipe below changes, and the old files are no longer used.
const RECIPE = 'v1';
const WHITE = { r: 255, g: 255, b: 255, alpha: 1 };
// Quality per format, chosen by eye on photos and drawn packs: AVIF 50 looks like WebP 75 at about three quarters of
// its bytes (a 320 px photo: 1.9 KB against 2.4 KB).
// AVIF effort 1, not the default 4: measured at 320 px, 27 ms and 1.9 KB against 470 ms and 1.7 KB (960 px: 0.6 s against
// 2.5 s) on this 2-core machine under load; a shopper who opens a listing first waits for its sizes to be made.
const ENCODE: Record<SizedFormat, (image: Sharp) => Sharp> = {
  avif: (image) => image.avif({ quality: 50, effort: 1 }),
  webp: (image) => image.webp({ quality: 75 }),
  jpeg: (image) => image.jpeg({ quality: 80, mozjpeg: true }),
};

/** A square `width` wide with the original contained on white, so cards line up whatever the photo's shape. */
export async function makeSizedImage(
  original: { contentType: OriginalType; bytes: Uint8Array; width: number; height: number },
  width: PictureWidth,
  format: SizedFormat,
): Promise<Buffer> {
  const longest = Math.max(original.width, original.height);
  const vector = original.contentType === 'image/svg+xml';
  // A photo is never enlarged (the browser does that as well, for no bytes); a drawing is rendered at the size asked.
  const side = vector ? width : Math.min(width, longest);
  const image = sharp(original.bytes, vector ? { density: Math.max(1, (72 * side) / longest) } : {})
    .rotate() // a phone photo's EXIF orientation, applied before the EXIF is dropped
    .resize(side, side, { fit: 'contain', background: WHITE })
    .flatten({ background: WHITE });
  return ENCODE[format](image).toBuffer();
}

export interface SizedImage {
  body: Buffer;
  contentType: (typeof SIZED_FORMATS)[SizedFormat];
  /** Names this width and format of this original; the URL alone does not (the format follows Accept). */
  etag: string;
}

/**
 * The sizes of the originals, made once each and kept in `cacheDir` (written to a temporary file, then renamed: a
 * reader never sees half a file, and two processes making the same file both leave a whole one). Concurrent requests
 * for a size being made wait for that one making rather than start their own.
 */
export function createImageSizer(
  db: Database,
  cacheDir: string,
  { make = makeSizedImage, logCacheError = (error: unknown) => console.error('[kirana] the image cache could not keep a picture', error) } = {},
) {
  const making = new Map<string, Promise<Buffer | undefined>>();
  let written = 0;

  async function makeFile(file: string, sha256: string, extension: string, width: PictureWidth, format: SizedFormat) {
    const original = await readImageFile(db, sha256, extension);
    if (!original) return undefined;
    const body = await make(original, width, format);
    const temporary = `${file}.${process.pid}-${++written}.tmp`;
    try {
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.writeFile(temporary, body);
      await fs.rename(temporary, file);
    } catch (error) {
      // A full or read-only disk costs the next shopper a making again, not this one the picture.
      await fs.rm(temporary, { force: true }).catch(() => {});
      logCacheError(error);
    }
    return body;
  }

  return async function sizedImage(
    sha256: string,
    extension: string,
    width: PictureWidth,
    format: SizedFormat,
  ): Promise<SizedImage | undefined> {
    const name = `${sha256}.${extension}-${width}.${format}`;
    const file = path.join(cacheDir, RECIPE, sha256.slice(0, 2), name);
    const etag = `"${RECIPE}-${sha256.slice(0, 20)}-${width}-${format}"`;
    const contentType = SIZED_FORMATS[format];
    // Not there (or a folder that cannot be read): made again, and the making says what is wrong with the folder.
    const cached = await fs.readFile(file).catch(() => undefined);
    if (cached) return { body: cached, contentType, etag };
    let pending = making.get(file);
    if (!pending) {
      pending = makeFile(file, sha256, extension, width, format).finally(() => making.delete(file));
      making.set(file, pending);
    }
    const body = await pending;
    return body && { body, contentType, etag };
  };
}
