// The shop's promises (offers, support hours, phone, email, address), from src/content/settings/store.yaml.
import { getEntry } from 'astro:content';

export async function storeSettings() {
  const entry = await getEntry('settings', 'store');
  if (!entry) throw new Error('src/content/settings/store.yaml is missing');
  return entry.data;
}

export type StoreSettings = Awaited<ReturnType<typeof storeSettings>>;
