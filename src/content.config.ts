// Content that editors change without touching code: Markdown pages and the shop's settings.
// A mistake in a file's front matter fails the build with the file's name and the field (docs/editing-content.md).
import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { z } from 'astro/zod';
import { storeSettingsSchema } from './lib/store-settings-schema.ts';
import { synonymsSchema } from './lib/synonyms-schema.ts';

/** A calendar date written 2026-11-01. YAML reads an unquoted one as a date already (rolling 2026-13-01 over to
 * 2027-01-01, which no schema can see); a quoted impossible date is refused. */
const calendarDate = (field: string) =>
  z.preprocess(
    (value) => (value instanceof Date && !Number.isNaN(value.getTime()) ? value.toISOString().slice(0, 10) : value),
    z
      .string({ error: `${field} is required: a date written like 2026-11-01` })
      .regex(/^\d{4}-\d{2}-\d{2}$/, `${field} must be a date written like 2026-11-01`)
      .refine((s) => {
        const date = new Date(`${s}T00:00:00Z`);
        return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(s);
      }, `${field} is not a real date`)
      .transform((s) => new Date(`${s}T00:00:00Z`)),
  );

const pages = defineCollection({
  loader: glob({ pattern: '*.md', base: './src/content/pages' }),
  schema: z.object({
    title: z.string().min(2).max(70),
    description: z.string().min(50).max(160),
    lastUpdated: calendarDate('lastUpdated'),
    /** Show a table of contents built from the page's headings (long pages). */
    toc: z.boolean().default(false),
  }),
});

const settings = defineCollection({
  loader: glob({ pattern: 'store.yaml', base: './src/content/settings' }),
  schema: storeSettingsSchema,
});

/** Checked here so a mistake stops the build; the API reads the file itself (src/server/services/search.ts). */
const synonyms = defineCollection({
  loader: glob({ pattern: 'synonyms.yaml', base: './src/content/settings' }),
  schema: synonymsSchema,
});

export const collections = { pages, settings, synonyms };
