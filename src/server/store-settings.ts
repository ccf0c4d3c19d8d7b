// The API reads the offers and delivery rules from the same file the pages show them from
// (src/content/settings/store.yaml), with the same schema, once when it starts: one place for a grocer to change them.
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { storeSettingsSchema, type StoreSettingsData } from '../lib/store-settings-schema.ts';

export const STORE_SETTINGS_FILE = 'src/content/settings/store.yaml';

export function readStoreSettings(file = path.resolve(STORE_SETTINGS_FILE)): StoreSettingsData {
  const parsed = storeSettingsSchema.safeParse(parse(fs.readFileSync(file, 'utf8')));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`${file}: ${problems}`);
  }
  return parsed.data;
}
