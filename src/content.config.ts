// Content that editors change without touching code: Markdown pages and the shop's settings.
// A mistake in a file's front matter fails the build with the file's name and the field (docs/editing-content.md).
import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { z } from 'astro/zod';

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

const hours = z.object({ label: z.string().min(2), hours: z.string().min(2) });

const settings = defineCollection({
  loader: glob({ pattern: '*.yaml', base: './src/content/settings' }),
  schema: z.object({
    shopName: z.string().min(2),
    offers: z.object({
      /** Shown in the strip above the header, one after another. */
      headline: z.array(z.string().min(3)).min(1),
      allProductsDiscountPercent: z.number().int().min(0).max(90),
      firstOrderDiscountPercent: z.number().int().min(0).max(90),
      bestPriceThresholdRupees: z.number().int().positive(),
      freeDelivery: z.boolean(),
      returnDays: z.number().int().positive(),
    }),
    support: z.object({
      hours: z.array(hours).min(1),
      phone: z.string().regex(/^\+?[0-9 -]{8,20}$/, 'phone must be digits, spaces or dashes, e.g. +91 80 4567 8900'),
      email: z.email(),
      whatsapp: z.string().optional(),
    }),
    address: z.object({
      lines: z.array(z.string().min(2)).min(1),
      city: z.string().min(2),
      pincode: z.string().regex(/^\d{6}$/, 'pincode must be 6 digits'),
      state: z.string().min(2),
    }),
  }),
});

export const collections = { pages, settings };
