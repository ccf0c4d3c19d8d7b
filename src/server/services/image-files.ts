// Picture originals stored in the database by the SHA-256 of their bytes (table image_files): one copy however many
// products show it, and saving the same picture again changes nothing (a re-run import, a re-seed).
import { createHash } from 'node:crypto';
import sharp, { type Metadata } from 'sharp';
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
