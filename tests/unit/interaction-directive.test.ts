import { describe, expect, it, vi } from 'vitest';
import { resolveApiBaseUrl } from '../../src/lib/api/base-url.ts';
import interactionDirective, { INTERACTION_EVENTS, onFirstInteraction } from '../../src/lib/directives/interaction.ts';

/** An EventTarget that counts its listeners (node has EventTarget but no DOM). */
class FakeElement extends EventTarget {
  listeners = 0;
  override addEventListener(...args: Parameters<EventTarget['addEventListener']>) {
    this.listeners++;
    super.addEventListener(...args);
  }
  override removeEventListener(...args: Parameters<EventTarget['removeEventListener']>) {
    this.listeners--;
    super.removeEventListener(...args);
  }
}

describe('onFirstInteraction', () => {
  it('listens for pointerover, pointerdown, touchstart, focusin and keydown', () => {
    expect([...INTERACTION_EVENTS].sort()).toEqual(['change', 'focusin', 'keydown', 'pointerdown', 'pointerover', 'touchstart']);
  });

  it.each(INTERACTION_EVENTS)('runs once on the first %s, then removes every listener', (type) => {
    const el = new FakeElement();
    const run = vi.fn();
    onFirstInteraction(el, run);
    expect(el.listeners).toBe(INTERACTION_EVENTS.length);
    el.dispatchEvent(new Event(type));
    for (const other of INTERACTION_EVENTS) el.dispatchEvent(new Event(other));
    expect(run).toHaveBeenCalledOnce();
    expect(el.listeners).toBe(0);
  });

  it('ignores events that are not interactions', () => {
    const el = new FakeElement();
    const run = vi.fn();
    onFirstInteraction(el, run);
    el.dispatchEvent(new Event('scroll'));
    el.dispatchEvent(new Event('mouseleave'));
    expect(run).not.toHaveBeenCalled();
  });

  it('can be cancelled', () => {
    const el = new FakeElement();
    const run = vi.fn();
    const cancel = onFirstInteraction(el, run);
    cancel();
    el.dispatchEvent(new Event('focusin'));
    expect(run).not.toHaveBeenCalled();
    expect(el.listeners).toBe(0);
  });
});

describe('the client:interaction directive', () => {
  it('loads and hydrates the island only after an interaction', async () => {
    const el = new FakeElement();
    const hydrate = vi.fn(async () => {});
    const load = vi.fn(async () => hydrate);
    interactionDirective(load, { name: 'SearchBox', value: '' }, el as unknown as HTMLElement);
    await Promise.resolve();
    expect(load).not.toHaveBeenCalled();
    el.dispatchEvent(new Event('pointerover'));
    await vi.waitFor(() => expect(hydrate).toHaveBeenCalledOnce());
    expect(load).toHaveBeenCalledOnce();
  });
});

describe('browser API base URL', () => {
  it('defaults to same-origin /api/ and resolves relative settings against the origin', () => {
    expect(resolveApiBaseUrl(undefined, 'https://kirana.example')).toBe('https://kirana.example/api/');
    expect(resolveApiBaseUrl('', 'https://kirana.example')).toBe('https://kirana.example/api/');
    expect(resolveApiBaseUrl('/api', 'https://kirana.example')).toBe('https://kirana.example/api/');
    expect(resolveApiBaseUrl('https://api.kirana.example/api', 'https://kirana.example')).toBe('https://api.kirana.example/api/');
  });
});
