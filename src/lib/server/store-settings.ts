// The shop's promises (offers, delivery slots, support hours, phone, email, address), from
// src/content/settings/store.yaml, as checked by the content build.
import { getEntry } from 'astro:content';
import type { StoreSettingsData } from '../store-settings-schema.ts';

export async function storeSettings(): Promise<StoreSettingsData> {
  const entry = await getEntry('settings', 'store');
  if (!entry) throw new Error('src/content/settings/store.yaml is missing');
  return entry.data;
}

export type StoreSettings = StoreSettingsData;
