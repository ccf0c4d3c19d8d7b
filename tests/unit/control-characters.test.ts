// What `npm run orders` prints of text from shoppers and imports: every control character written out, never sent to
// the terminal as it is (issue 22).
import { describe, expect, it } from 'vitest';
import { CONTROL_CHARACTER, NO_CONTROL_CHARACTERS, showControlCharacters } from '../../src/lib/control-characters.ts';

describe('showControlCharacters', () => {
  it('writes out C0 controls, DEL and C1 controls as \\xNN', () => {
    expect(showControlCharacters('\x1b]0;pwned\x07Meera')).toBe('\\x1b]0;pwned\\x07Meera');
    expect(showControlCharacters('a\nb\rc\td\0')).toBe('a\\x0ab\\x0dc\\x09d\\x00');
    expect(showControlCharacters('x\x7fy')).toBe('x\\x7fy');
    expect(showControlCharacters('\u0080\u009b2J\u009f')).toBe('\\x80\\x9b2J\\x9f');
  });

  it('writes out the bidirectional controls as U+XXXX', () => {
    expect(showControlCharacters('Meera\u202Etxt.exe')).toBe('MeeraU+202Etxt.exe');
    const bidi = ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069', '\u200E', '\u200F', '\u061C'];
    expect(bidi.map(showControlCharacters)).toEqual([
      'U+202A', 'U+202B', 'U+202C', 'U+202D', 'U+202E', 'U+2066', 'U+2067', 'U+2068', 'U+2069', 'U+200E', 'U+200F', 'U+061C',
    ]);
  });

  it('leaves text alone: Indian scripts, accents, the rupee sign, emoji, joiners', () => {
    for (const text of ['मीरा अय्यर', 'கவ்யா நாயர்', 'Café ₹285 ✓', 'Kavya 👩🏽‍🍳', 'क्‍ष', '']) {
      expect(showControlCharacters(text)).toBe(text);
    }
  });

  it('shares its character class with the checks', () => {
    expect(CONTROL_CHARACTER.test('a\u202Eb')).toBe(true);
    expect(CONTROL_CHARACTER.test('a\u009bb')).toBe(true);
    expect(CONTROL_CHARACTER.test('a\u00a0b')).toBe(false);
    expect(NO_CONTROL_CHARACTERS.test('Out of paneer today')).toBe(true);
    expect(NO_CONTROL_CHARACTERS.test('Out of\npaneer')).toBe(false);
    expect(NO_CONTROL_CHARACTERS.test('\u2066Out\u2069')).toBe(false);
  });
});
