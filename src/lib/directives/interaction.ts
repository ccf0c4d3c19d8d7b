// `client:interaction`: hydrate an island on the first sign that someone is about to use it.
// Until then the island is only its server-rendered HTML and no framework code is downloaded.
// Bundled by Astro into a tiny inline script (see src/integrations/interaction-directive.ts).
import type { ClientDirective } from 'astro';

/** Pointer hover or press, touch, focus (Tab), a key, or a changed field (e.g. a select changed by assistive tech): whichever comes first. */
export const INTERACTION_EVENTS = ['pointerover', 'pointerdown', 'touchstart', 'focusin', 'keydown', 'change'] as const;

/**
 * Calls `run` once, on the first interaction event inside `el`, then removes all its listeners.
 * Listens in the capture phase (so an inner stopPropagation cannot hide the event) and passively
 * (so scrolling and touches are never delayed). Returns a function that cancels the wait.
 */
export function onFirstInteraction(el: EventTarget, run: () => void): () => void {
  const options: AddEventListenerOptions = { capture: true, passive: true };
  let done = false;
  const stop = () => {
    for (const type of INTERACTION_EVENTS) el.removeEventListener(type, fire, options);
  };
  function fire() {
    if (done) return;
    done = true;
    stop();
    run();
  }
  for (const type of INTERACTION_EVENTS) el.addEventListener(type, fire, options);
  // Focus may already be inside (autofocus, or a fast Tab before this script ran).
  if (typeof document !== 'undefined' && (el as Node).contains?.(document.activeElement)) fire();
  return () => {
    done = true;
    stop();
  };
}

const interactionDirective: ClientDirective = (load, _options, el) => {
  onFirstInteraction(el, () => {
    void (async () => {
      const hydrate = await load();
      await hydrate();
    })();
  });
};

export default interactionDirective;
