import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { eq } from 'drizzle-orm';
import { imageFiles } from '../../src/server/db/schema.ts';
import { saveImageFile } from '../../src/server/services/image-files.ts';
import { ApiError } from '../../src/server/errors.ts';
import { startTestApi, type TestApi } from './harness.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

describe('picture originals (image_files)', () => {
  it('stores a picture once by its bytes and tells its size and URL', async () => {
    const { db } = api;
    const png = await sharp({ create: { width: 30, height: 20, channels: 3, background: '#2a7' } }).png().toBuffer();
    const first = await saveImageFile(db, png, 'a.png');
    const again = await saveImageFile(db, png, 'copy-of-a.png');
    expect(first).toEqual(again);
    expect(first.url).toMatch(/^\/api\/images\/files\/[0-9a-f]{64}\.png$/);
    expect([first.width, first.height]).toEqual([30, 20]);
    const rows = await db.select({ width: imageFiles.width }).from(imageFiles).where(eq(imageFiles.sha256, first.sha256));
    expect(rows).toEqual([{ width: 30 }]);
  });

  it('refuses bytes that are not a picture, naming the file', async () => {
    const { db } = api;
    const error = await saveImageFile(db, new TextEncoder().encode('hello'), 'notes.txt').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('notes.txt is not a JPEG, PNG, WebP or SVG picture');
  });
});
