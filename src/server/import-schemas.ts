// zod schemas of the grocer's import routes (`npm run import` talks to the running shop through them): a picture
// stored by its bytes, and a catalogue CSV applied with the pictures its images column names.
import { z } from '@hono/zod-openapi';

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'each picture must be named by the SHA-256 the shop gave it (64 hex digits)');

export const ImportPictureQuery = z.object({
  name: z
    .string()
    .min(1)
    .max(255)
    .openapi({ param: { name: 'name', in: 'query' }, description: 'the file name, for the error message' })
    .optional(),
});

export const StoredPictureSchema = z
  .object({
    url: z.string(),
    sha256: z.string(),
    width: z.number().int(),
    height: z.number().int(),
  })
  .openapi('StoredPicture');

export const ImportRequestSchema = z
  .object({
    csv: z.string().min(1, 'csv is empty: send the catalogue file'),
    /** File name in the images column → the SHA-256 of the picture uploaded under it. */
    images: z.record(z.string().min(1).max(255), Sha256),
  })
  .openapi('ImportRequest');

export const ImportSummarySchema = z
  .object({
    /** Data rows read (the header not counted). */
    rows: z.number().int(),
    products: z.object({ created: z.number().int(), updated: z.number().int(), unchanged: z.number().int() }),
    packs: z.object({
      created: z.number().int(),
      updated: z.number().int(),
      /** Packs the file no longer names: kept (carts and orders name them) with no stock. */
      offShelf: z.number().int(),
    }),
    /** Distinct pictures the file's products show. */
    pictures: z.number().int(),
    brandsCreated: z.array(z.string()),
    categoriesCreated: z.array(z.string()),
    /** Whether anything was written (false for a file the shop already holds). */
    changed: z.boolean(),
  })
  .openapi('ImportSummary');

export type StoredPictureDto = z.infer<typeof StoredPictureSchema>;
export type ImportRequest = z.infer<typeof ImportRequestSchema>;
export type ImportSummaryDto = z.infer<typeof ImportSummarySchema>;
