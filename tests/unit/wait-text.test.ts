import { describe, expect, it } from 'vitest';
import { waitText } from '../../src/server/rate-limit.ts';

describe('waitText: when a rate-limited shopper may try again', () => {
  it.each([
    [1, '1 second'],
    [45, '45 seconds'],
    [59, '59 seconds'],
    [60, '1 minute'],
    [61, '2 minutes'],
    [600, '10 minutes'],
  ])('%i s is "%s", never sooner than the real wait', (seconds, text) => {
    expect(waitText(seconds)).toBe(text);
  });
});
