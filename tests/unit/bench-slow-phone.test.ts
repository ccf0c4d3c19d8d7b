// The bench's slow-phone section (issue 26): its options, its table with the previous run as "before", and the file
// that keeps one run for the next.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseOptions } from '../../scripts/bench/format.ts';
import { readPreviousSlowPhone, renderSlowPhone, writeLatestSlowPhone, type SlowPhoneResult } from '../../scripts/bench/slow-phone.ts';

const run = (figures: SlowPhoneResult['figures'], previous: SlowPhoneResult['previous'] = null): SlowPhoneResult => ({
  measuredAt: '2026-11-26T01:20:00.000Z',
  runs: 3,
  figures,
  samples: { tapToCountMs: [figures.firstTapToCountMs], tapToAnswerMs: [figures.firstTapToAnswerMs], suggestionMs: [figures.firstSuggestionMs] },
  previous,
  notes: [],
});

describe('slow-phone bench', () => {
  it('is its own option, and not one by default', () => {
    expect(parseOptions(['--slow-phone'], {}).slowPhoneOnly).toBe(true);
    expect(parseOptions([], {}).slowPhoneOnly).toBe(false);
  });

  it('shows each figure against its goal, with the previous run beside it', () => {
    const before = { firstTapToCountMs: 4200, firstTapToAnswerMs: 5100, firstSuggestionMs: 5700, threeTapsQty: 2 };
    const text = renderSlowPhone(
      run({ firstTapToCountMs: 40, firstTapToAnswerMs: 1900, firstSuggestionMs: null, threeTapsQty: 3 }, { measuredAt: '2026-11-26T01:10:00.000Z', figures: before }),
    ).join('\n');
    expect(text).toContain('"Before" is the run of 2026-11-26T01:10:00.000Z');
    expect(text).toMatch(/First tap to count[^\n]*\| 40 ms \| ✅ ≤ 100 ms \| 4200 ms \|/);
    expect(text).toMatch(/First tap to answer[^\n]*\| 1900 ms \| ❌ ≤ 1500 ms \| 5100 ms \|/);
    expect(text).toMatch(/first suggestion \| — \| — ≤ 1000 ms \| 5700 ms \|/);
    expect(text).toMatch(/Three taps[^\n]*\| 3 \| ✅ 3 \| 2 \|/);
  });

  it('says so when nothing was measured or there is no earlier run', () => {
    expect(renderSlowPhone(null).join('\n')).toContain('Not measured.');
    const none = { firstTapToCountMs: 50, firstTapToAnswerMs: 900, firstSuggestionMs: 800, threeTapsQty: 3 };
    expect(renderSlowPhone(run(none)).join('\n')).toContain('No earlier run to compare with.');
  });

  it('keeps the latest run (without its own "before") for the next run to compare with', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'slow-phone-'));
    try {
      expect(readPreviousSlowPhone(dir)).toBeNull();
      const figures = { firstTapToCountMs: 50, firstTapToAnswerMs: 900, firstSuggestionMs: 800, threeTapsQty: 3 };
      writeLatestSlowPhone(dir, run(figures, { measuredAt: 'older', figures }));
      expect(readPreviousSlowPhone(dir)).toEqual({ measuredAt: '2026-11-26T01:20:00.000Z', figures });
      expect(JSON.parse(fs.readFileSync(path.join(dir, 'slow-phone.json'), 'utf8'))).not.toHaveProperty('previous');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
