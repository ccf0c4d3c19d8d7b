// The shape of src/content/settings/synonyms.yaml (a shopper's word: the catalogue word or words it means). The content
// build checks it (src/content.config.ts) and so does the API when it first reads it (src/server/services/search.ts).
import { z } from 'zod';

const meaning = z.string().trim().min(1, 'a word must mean something: write the catalogue word after the colon');

export const synonymsSchema = z.record(
  z.string().trim().min(1),
  z.union([meaning, z.array(meaning).min(1, 'a word must mean something: write the catalogue word after the colon')], {
    error: 'a word must mean something: write the catalogue word after the colon',
  }),
);
