// Repeated identical errors are written once, then as one line with a count per minute.
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { createErrorLog } from '../../src/lib/error-log.ts';
import repeatAwareDestination from '../../src/lib/server/astro-log.ts';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

function damagedTableError(): Error {
  return new Error('could not read block 7 in file "base/5/16384": read only 0 of 8192 bytes');
}

it('writes the first error in full and the repeats as one line with their count each minute', () => {
  const lines: unknown[][] = [];
  const log = createErrorLog({ write: (...parts) => lines.push(parts), windowMs: 60_000 });
  // Thrown from the same place on every request, as a damaged table does.
  const errors = Array.from({ length: 12_561 }, damagedTableError);
  for (const error of errors) log('[api]', error);
  expect(lines).toEqual([['[api]', errors[0]]]);

  vi.advanceTimersByTime(60_000);
  expect(lines).toHaveLength(2);
  expect(lines[1]![0]).toMatch(/^\[api\] … the error "Error: could not read block 7 .*" repeated 12560 times in the last 60 s$/);

  // Still failing: one more summary in the next minute, nothing in between.
  for (const error of errors.slice(0, 30)) log('[api]', error);
  expect(lines).toHaveLength(2);
  vi.advanceTimersByTime(60_000);
  expect(lines[2]![0]).toMatch(/repeated 30 times/);

  // A quiet minute ends the window; the next occurrence is written in full again.
  vi.advanceTimersByTime(60_000);
  expect(lines).toHaveLength(3);
  log('[api]', errors[0]);
  expect(lines[3]).toEqual(['[api]', errors[0]]);
});

it('keeps different errors apart', () => {
  const lines: unknown[][] = [];
  const log = createErrorLog({ write: (...parts) => lines.push(parts) });
  const damaged = (table: string) => new Error(`relation "${table}" is damaged`);
  log('[api]', damaged('products'));
  log('[api]', damaged('reviews'));
  log('[page]', damaged('products'));
  log('[api]', damaged('products'));
  expect(lines).toHaveLength(3);
  // The same message thrown from another place is another error.
  log('[api]', new Error('relation "products" is damaged'));
  expect(lines).toHaveLength(4);
});

it("collapses Astro's repeated render errors and passes its other messages through", () => {
  const written: string[] = [];
  const spy = vi.spyOn(console, 'error').mockImplementation((message: string) => void written.push(message));
  const info = vi.spyOn(console, 'info').mockImplementation((message: string) => void written.push(message));
  const destination = repeatAwareDestination();
  const stack = 'Error: could not read block 7\n    at ProductPage (file:///dist/server/chunks/ProductPage.mjs:10:5)';
  for (let i = 0; i < 500; i++) destination.write({ label: null, level: 'error', message: stack, newLine: true });
  destination.write({ label: 'router', level: 'info', message: 'ready', newLine: true });
  vi.advanceTimersByTime(60_000);
  spy.mockRestore();
  info.mockRestore();
  expect(written).toHaveLength(3);
  expect(written[0]).toContain(stack);
  expect(written[1]).toContain('ready');
  expect(written[2]).toMatch(/repeated 499 times/);
});
