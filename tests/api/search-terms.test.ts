// How a search text becomes terms: pack sizes written any way, and the grocer's synonyms (with a typo).
import { describe, expect, it } from 'vitest';
import { canonicalPackSize, followSynonyms, searchTerms, synonymKeyOf } from '../../src/lib/search-text.ts';
import { readSynonyms } from '../../src/server/services/search.ts';

const synonyms = readSynonyms();
const packs = (text: string) => searchTerms(text, synonyms).flatMap((t) => (t.kind === 'pack' ? [t.size] : []));
const words = (text: string) => searchTerms(text, synonyms).flatMap((t) => (t.kind === 'word' ? [t.alternatives] : []));

describe('search terms', () => {
  it.each([
    ['toor dal 1kg', '1 kg', 'toor dal'],
    ['toor dal 1 kg', '1 kg', 'toor dal'],
    ['toor dal 1000 g', '1 kg', 'toor dal'],
    ['toor dal 1000gm', '1 kg', 'toor dal'],
    ['toor dal 1 KGS', '1 kg', 'toor dal'],
    ['amul milk 1 l', '1 l', 'amul milk'],
    ['amul milk 1 ltr', '1 l', 'amul milk'],
    ['amul milk 1000ml', '1 l', 'amul milk'],
    ['amul milk 0.5 litre', '500 ml', 'amul milk'],
    ['ghee 1.5kg', '1.5 kg', 'ghee'],
    ['ghee 500 grams', '500 g', 'ghee'],
  ])('reads the pack size in %s as %s, and the rest as words', (text, size, rest) => {
    expect(packs(text)).toEqual([size]);
    expect(words(text).map((w) => w[0])).toEqual(rest.split(' '));
  });

  it('writes pack sizes the way the catalogue does', () => {
    expect(canonicalPackSize(2000, 'gms')).toBe('2 kg');
    expect(canonicalPackSize(250, 'ml')).toBe('250 ml');
    expect(canonicalPackSize(0, 'kg')).toBeUndefined();
  });

  it('leaves numbers without a unit as words', () => {
    expect(packs('cashew w320')).toEqual([]);
    expect(words('cashew w320')).toEqual([['cashew'], ['w320']]);
  });

  it('adds what a synonym means and keeps the word itself', () => {
    expect(words('chawal')).toEqual([['chawal', 'rice']]);
    expect(words('atta')).toEqual([['atta', 'wheat flour']]);
  });

  it('takes a several-word synonym before its single words', () => {
    expect(words('kali mirch')).toEqual([['kali mirch', 'black pepper']]);
    expect(words('sarson ka tel 1 l')).toEqual([['sarson ka tel', 'mustard oil']]);
  });

  it('forgives one wrong letter in a synonym', () => {
    expect(words('chawl')).toEqual([['chawl', 'rice']]);
    expect(words('tamater')).toEqual([['tamater', 'tomato']]);
  });

  it("keeps a typo's first two letters: दिल्ली (Delhi) is not बिल्ली (cat), nor 'xhawal' chawal", () => {
    expect(words('दिल्ली')).toEqual([['दिल्ली']]);
    expect(words('xhawal')).toEqual([['xhawal']]);
    expect(words('बिल्लि')[0]).toContain('cat');
  });

  it('refuses a synonyms file with a word that means nothing', async () => {
    const fs = await import('node:fs');
    const os = await import('node:os');
    const path = await import('node:path');
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kirana-synonyms-')), 'synonyms.yaml');
    fs.writeFileSync(file, 'chawal: rice\natta:\n');
    expect(() => readSynonyms(file)).toThrow(/synonyms\.yaml: atta: /);
  });
});

describe('Devanagari (issue 24)', () => {
  it('keeps a Devanagari word whole, with its vowel marks and virama', () => {
    expect(words('दाल')).toEqual([['दाल', 'dal']]);
    expect(words('हरी मिर्च')).toEqual([['हरी मिर्च', 'hari mirch', 'green chilli']]);
    expect(words('बासमती चावल 5 kg')).toEqual([['बासमती', 'basmati'], ['चावल', 'chawal', 'rice']]);
    expect(packs('बासमती चावल 5 kg')).toEqual(['5 kg']);
  });

  it('means by a Hindi word what its Latin spelling means', () => {
    expect(words('चावल')).toEqual([['चावल', 'chawal', 'rice']]);
    expect(words('दूध')).toEqual([['दूध', 'doodh', 'milk']]);
    expect(words('सब्ज़ी')[0]!.slice(1)).toEqual(['sabzi', 'vegetables']);
  });

  it('reads a word the same with or without its nukta or a joiner, composed or not', () => {
    const meaning = words('\u0938\u092c\u094d\u091c\u0940')[0]!.slice(1); // सब्जी
    expect(meaning).toEqual(['sabzi', 'vegetables']);
    expect(words('\u0938\u092c\u094d\u095b\u0940')[0]!.slice(1)).toEqual(meaning); // ज़ as one character
    expect(words('\u0938\u092c\u094d\u091c\u093c\u0940')[0]!.slice(1)).toEqual(meaning); // ज and the nukta
    expect(synonymKeyOf('\u0915\u094d\u200d\u0937')).toBe('\u0915\u094d\u0937');
    expect(words('\u0915\u094d\u200d\u0937')).toHaveLength(1);
  });
});

describe('the list followed through', () => {
  it('follows a meaning that is itself a word of the list, each word once, through cycles', () => {
    const list = followSynonyms([
      ['चावल', ['chawal']],
      ['chawal', ['rice']],
      ['achar', ['achaar']],
      ['achaar', ['achaar', 'pickle']],
      ['dahi', ['dahi', 'curd']],
      ['curd', ['dahi']],
      ['ghee', ['ghee']],
    ]);
    expect(list.get('चावल')).toEqual(['chawal', 'rice']);
    expect(list.get('achar')).toEqual(['achaar', 'pickle']);
    expect(list.get('dahi')).toEqual(['curd']);
    expect(list.get('curd')).toEqual(['dahi']);
    expect(list.get('ghee')).toEqual(['ghee']);
  });

  it('marks a synonym taken from a word of the list one letter away, which the search drops for a word of the catalogue', () => {
    expect(searchTerms('chawl', synonyms)).toEqual([{ kind: 'word', alternatives: ['chawl', 'rice'], typos: false, nearSynonym: true }]);
    expect(searchTerms('masoori', synonyms)[0]).toMatchObject({ alternatives: ['masoori', 'red lentil'], nearSynonym: true });
    expect(searchTerms('chawal', synonyms)[0]).not.toHaveProperty('nearSynonym');
  });
});
