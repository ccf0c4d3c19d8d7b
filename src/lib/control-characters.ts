// Characters that change how text shows rather than being text (issue 22): C0 controls (ESC starts the sequences that
// retitle or clear a terminal, a line break breaks a table's layout), DEL, C1 controls (U+009B is a one-character
// CSI), and the bidirectional controls that reorder what a reader sees (U+202E turns 'exe.txt' into 'txt.exe').
// One class for whoever must refuse them (the import's checks) or show them (`npm run orders`).

const CLASS = '\\u0000-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069';

/** One such character; test a text with it (no flags, so no lastIndex to trip over). */
export const CONTROL_CHARACTER = new RegExp(`[${CLASS}]`, 'u');

/** A text with none of them, for a schema's regex. */
export const NO_CONTROL_CHARACTERS = new RegExp(`^[^${CLASS}]*$`, 'u');

const ALL = new RegExp(`[${CLASS}]`, 'gu');

/**
 * The text with each such character written out where it stood: C0, DEL and C1 as `\x1b`, `\x7f`, `\x9b`; the
 * bidirectional ones as `U+202E`. The result is printable on one line, and says exactly what was there.
 */
export function showControlCharacters(text: string): string {
  return text.replace(ALL, (c) => {
    const code = c.codePointAt(0)!;
    return code <= 0x9f ? `\\x${code.toString(16).padStart(2, '0')}` : `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  });
}
