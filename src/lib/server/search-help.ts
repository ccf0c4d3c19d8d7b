// What a search that found nothing can still offer: the closest names the typo-tolerant suggestions know.
import type { Catalogue } from '../api/catalogue.ts';
import type { Suggestion } from '../api/types.ts';

/** Words shorter than this match too much to be worth a suggestion of their own. */
const MIN_WORD_LENGTH = 3;

/**
 * Suggestions for the whole text; when it has none (a long phrase rarely matches one name), the
 * suggestions for each of its words, taking turns, without repeats.
 */
export async function closestSuggestions(catalogue: Catalogue, text: string, limit = 8): Promise<Suggestion[]> {
  const whole = await catalogue.suggestions(text);
  if (whole.length > 0) return whole.slice(0, limit);
  const words = [...new Set(text.split(/\s+/).filter((w) => w.length >= MIN_WORD_LENGTH))];
  if (words.length < 2) return [];
  const perWord = await Promise.all(words.map((w) => catalogue.suggestions(w)));
  const seen = new Set<string>();
  const merged: Suggestion[] = [];
  // Take turns between the words, so every word the shopper typed gets its closest names in.
  const longest = Math.max(...perWord.map((list) => list.length));
  const interleaved = Array.from({ length: longest }, (_, i) => perWord.flatMap((list) => list[i] ?? [])).flat();
  for (const s of interleaved) {
    const key = `${s.type}:${s.id}`;
    if (seen.has(key)) continue;
    seen.add(key);
    merged.push(s);
  }
  return merged.slice(0, limit);
}
