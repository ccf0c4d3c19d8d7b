// Shoppers' photos for issue reports (issue 32), apart from the public product pictures. What is kept is a JPEG
// re-made from the upload by sharp (on its own threads, before any transaction): turned upright, at most
// ISSUE_PHOTO_MAX_SIDE px, without EXIF, GPS or other metadata, with a small thumbnail. The upload itself (up to 10 MB)
// never reaches the database. Kept in the database, like the product pictures, so that every instance on one
// PostgreSQL serves it; its bytes travel as base64 text, which the embedded database takes 5 to 10 times faster than
// a bytea parameter (measured: 1 MB in 91 ms against 430 ms). Each account has a daily count and a kept total, and an
// upload that no report names within a day is deleted by the sweep every shop process runs.
import { and, count, eq, gt, lt, notExists, sql, sum } from 'drizzle-orm';
import sharp from 'sharp';
import type { Database } from '../db/client.ts';
import { issuePhotos, orderIssues, users } from '../db/schema.ts';
import { ApiError, badRequest } from '../errors.ts';
import { waitText } from '../rate-limit.ts';
import { isPhoto } from './import.ts';
import { startRepeatingTask } from '../repeating-task.ts';

/** The longest side of a kept photo: plenty to see a torn packet, and a few hundred KB at most (noise: 450 KB). */
export const ISSUE_PHOTO_MAX_SIDE = 1600;
/** The square thumbnail the order page shows at 72 px (twice that for sharp screens, and some). */
export const ISSUE_PHOTO_THUMBNAIL_SIDE = 160;
/** Pixels a photo may have to be decoded at all: a 50 MP phone's full size; a "PNG bomb" is refused before it fills memory. */
export const ISSUE_PHOTO_MAX_PIXELS = 50_000_000;
/** Photos one account may upload in 24 hours: a few per report, far below a script's. */
export const ISSUE_PHOTOS_PER_DAY = 20;
/** What one account's photos may take, kept ones and fresh uploads together (about 80 photos). */
export const ISSUE_PHOTO_BYTES_PER_ACCOUNT = 20 * 1024 * 1024;
/** An upload no report names within this long is deleted. */
export const UNREFERENCED_PHOTO_MS = 24 * 60 * 60 * 1000;
/** How often each shop process sweeps away the unreferenced uploads. */
export const PHOTO_SWEEP_INTERVAL_MS = 15 * 60 * 1000;

const DAY_MS = 24 * 60 * 60 * 1000;
const WHITE = { r: 255, g: 255, b: 255 };

export const PHOTO_NOT_A_PHOTO = 'The photo must be a JPEG, PNG or WebP picture.';
export const PHOTO_TOO_MANY_PIXELS = `The photo has more than ${ISSUE_PHOTO_MAX_PIXELS / 1_000_000} megapixels: please send a smaller one.`;
export const PHOTO_NOT_YOURS = 'That photo is not one you uploaded (or it was removed, a day after its upload): upload it again with /api/app/IssuePhotos.';
export const photosPerDayText = (seconds: number) =>
  `You can upload ${ISSUE_PHOTOS_PER_DAY} photos a day. Please try again in ${waitText(seconds)}.`;
export const PHOTOS_KEPT_TEXT = `Your photos already take ${ISSUE_PHOTO_BYTES_PER_ACCOUNT / 1024 / 1024} MB, all this shop keeps for one account.`;

/** A refusal of the account's quota; `retryAfterSeconds` when waiting helps (the daily count). */
export class PhotoQuotaError extends ApiError {
  readonly retryAfterSeconds: number | undefined;
  constructor(status: 413 | 429, message: string, retryAfterSeconds?: number) {
    super(status, status === 429 ? 'too_many_requests' : 'payload_too_large', message);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export interface MadePhoto {
  bytes: Buffer;
  thumbnail: Buffer;
}

/** The photo to keep and its thumbnail, re-made from what was sent: upright, bounded, flattened on white, no metadata. */
export async function makeIssuePhoto(sent: Uint8Array): Promise<MadePhoto> {
  if (sent.length === 0) throw badRequest('The body is empty: send the photo’s bytes');
  if (!isPhoto(sent)) throw badRequest(PHOTO_NOT_A_PHOTO);
  // sharp writes no metadata unless asked (withMetadata, keepExif): EXIF, GPS and XMP go; rotate() applies the EXIF
  // orientation first, so the photo stays upright without it.
  const upright = () => sharp(sent, { limitInputPixels: ISSUE_PHOTO_MAX_PIXELS }).rotate().flatten({ background: WHITE });
  try {
    const [bytes, thumbnail] = await Promise.all([
      upright()
        .resize(ISSUE_PHOTO_MAX_SIDE, ISSUE_PHOTO_MAX_SIDE, { fit: 'inside', withoutEnlargement: true })
        .jpeg({ quality: 75, mozjpeg: true })
        .toBuffer(),
      upright().resize(ISSUE_PHOTO_THUMBNAIL_SIDE, ISSUE_PHOTO_THUMBNAIL_SIDE, { fit: 'cover' }).jpeg({ quality: 70 }).toBuffer(),
    ]);
    return { bytes, thumbnail };
  } catch (error) {
    if (error instanceof Error && /pixel limit/i.test(error.message)) throw badRequest(PHOTO_TOO_MANY_PIXELS);
    throw badRequest(PHOTO_NOT_A_PHOTO);
  }
}

type Reader = Pick<Database, 'select'>;

/** Refuses past the account's quota at `now`: the daily count (429, with when to try again), then the kept total (413). */
async function checkQuota(db: Reader, userId: number, now: Date, adding: number): Promise<void> {
  const since = new Date(now.getTime() - DAY_MS);
  const [today] = await db
    .select({ n: count(), oldest: sql<string | Date | null>`min(${issuePhotos.createdAt})` })
    .from(issuePhotos)
    .where(and(eq(issuePhotos.userId, userId), gt(issuePhotos.createdAt, since)));
  if ((today?.n ?? 0) >= ISSUE_PHOTOS_PER_DAY) {
    const oldest = today?.oldest ? new Date(today.oldest).getTime() : now.getTime();
    const seconds = Math.max(1, Math.ceil((oldest + DAY_MS - now.getTime()) / 1000));
    throw new PhotoQuotaError(429, photosPerDayText(seconds), seconds);
  }
  const [kept] = await db.select({ bytes: sum(issuePhotos.byteSize) }).from(issuePhotos).where(eq(issuePhotos.userId, userId));
  if (Number(kept?.bytes ?? 0) + adding > ISSUE_PHOTO_BYTES_PER_ACCOUNT) throw new PhotoQuotaError(413, PHOTOS_KEPT_TEXT);
}

/**
 * Keeps a shopper's photo and answers its id. The quota is checked before the photo is made (no work for a refused
 * one) and again in the short transaction that stores it, under a lock on the account, so that uploads at once
 * cannot pass it together.
 */
export async function saveIssuePhoto(db: Database, userId: number, sent: Uint8Array, now: Date = new Date()): Promise<number> {
  await checkQuota(db, userId, now, 0);
  const made = await makeIssuePhoto(sent);
  const byteSize = made.bytes.length + made.thumbnail.length;
  return db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
    await checkQuota(tx, userId, now, byteSize);
    const [row] = await tx
      .insert(issuePhotos)
      .values({
        userId,
        bytes: sql`decode(${made.bytes.toString('base64')}, 'base64')`,
        thumbnail: sql`decode(${made.thumbnail.toString('base64')}, 'base64')`,
        byteSize,
        createdAt: now,
      })
      .returning({ id: issuePhotos.id });
    return row!.id;
  });
}

/** Whether the photo `photoId` is one `userId` uploaded (and still kept): a report names only its shopper's photos. */
export async function isOwnPhoto(db: Reader, userId: number, photoId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: issuePhotos.id })
    .from(issuePhotos)
    .where(and(eq(issuePhotos.id, photoId), eq(issuePhotos.userId, userId)));
  return row !== undefined;
}

/**
 * A kept photo (or its thumbnail) for its shopper (`owner`), or for the grocer (`owner` left out); undefined for
 * anyone else and for a photo not yet re-made (moved from image_files, the sweep's next run makes it).
 */
export async function readIssuePhoto(db: Reader, photoId: number, size: 'photo' | 'thumbnail', owner?: number): Promise<Buffer | undefined> {
  const column = size === 'photo' ? issuePhotos.bytes : issuePhotos.thumbnail;
  const [row] = await db
    .select({ base64: sql<string | null>`encode(${column}, 'base64')` })
    .from(issuePhotos)
    .where(and(eq(issuePhotos.id, photoId), eq(issuePhotos.stripped, true), owner === undefined ? undefined : eq(issuePhotos.userId, owner)));
  // PostgreSQL breaks base64 into lines of 76; Node's decoder skips the line breaks.
  return row?.base64 ? Buffer.from(row.base64, 'base64') : undefined;
}

/** The URLs of a report's photo: the shopper's (with their bearer token) and the grocer's (with the grocer's token). */
export const issuePhotoUrls = (photoId: number, who: 'shopper' | 'grocer') => {
  const base = who === 'shopper' ? `/api/app/IssuePhotos/${photoId}` : `/api/grocer/IssuePhotos/${photoId}`;
  return { photoUrl: base, thumbnailUrl: `${base}/Thumbnail` };
};

/**
 * Deletes the uploads no report names a day after their upload, and re-makes the photos moved as they were sent
 * from image_files (one that cannot be made is deleted: it could not be shown either). Answers what it did.
 */
export async function sweepIssuePhotos(db: Database, now: Date = new Date()): Promise<{ deleted: number; remade: number }> {
  const deleted = await db
    .delete(issuePhotos)
    .where(
      and(
        lt(issuePhotos.createdAt, new Date(now.getTime() - UNREFERENCED_PHOTO_MS)),
        notExists(db.select({ one: sql`1` }).from(orderIssues).where(eq(orderIssues.photoId, issuePhotos.id))),
      ),
    )
    .returning({ id: issuePhotos.id });
  let remade = 0;
  const sent = await db
    .select({ id: issuePhotos.id, base64: sql<string>`encode(${issuePhotos.bytes}, 'base64')` })
    .from(issuePhotos)
    .where(eq(issuePhotos.stripped, false));
  for (const photo of sent) {
    const made = await makeIssuePhoto(Buffer.from(photo.base64, 'base64')).catch(() => undefined);
    if (!made) {
      await db.delete(issuePhotos).where(eq(issuePhotos.id, photo.id));
      continue;
    }
    await db
      .update(issuePhotos)
      .set({
        bytes: sql`decode(${made.bytes.toString('base64')}, 'base64')`,
        thumbnail: sql`decode(${made.thumbnail.toString('base64')}, 'base64')`,
        byteSize: made.bytes.length + made.thumbnail.length,
        stripped: true,
      })
      .where(eq(issuePhotos.id, photo.id));
    remade += 1;
  }
  return { deleted: deleted.length, remade };
}

/**
 * Sweeps now and then every `intervalMs` in each shop process, one run at a time (as the payment expiry runs,
 * payments/expiry.ts); a failed run is reported and the next one tries again. Returns the stop.
 */
export function startIssuePhotoSweep(
  { db, logError }: { db: Database; logError: (error: unknown) => void },
  { intervalMs = PHOTO_SWEEP_INTERVAL_MS, now = () => new Date() }: { intervalMs?: number; now?: () => Date } = {},
): () => Promise<void> {
  return startRepeatingTask(() => sweepIssuePhotos(db, now()), intervalMs, logError);
}
