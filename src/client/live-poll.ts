// Polling for the live status (issue 25): asks `poll` after a wait that starts at 5 s and grows to a minute while nothing
// changes (src/lib/poll-backoff.ts), stops while the tab is hidden and asks at once when it is shown again, and stops
// for good when `settled` says the news is over (delivered, cancelled). A failed poll waits as an unchanged one did.
import { nextPollDelay, POLL_FIRST_MS } from '../lib/poll-backoff.ts';

export interface LivePoll<T> {
  /** What the page shows now. */
  current(): T;
  /** Asks for news with the tag last seen: 'same', or the new body and its tag. */
  poll(etag: string | null): Promise<{ body: T; etag: string | null } | 'same'>;
  /** A new body arrived. */
  onChange(body: T): void;
  /** Nothing more will change (no more polls). */
  settled(body: T): boolean;
}

/** Starts polling; returns the stop (for the island's unmount). */
export function startLivePoll<T>({ current, poll, onChange, settled }: LivePoll<T>): () => void {
  let etag: string | null = null;
  let delay = POLL_FIRST_MS;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = settled(current());
  let asking = false;

  const schedule = (ms: number) => {
    clearTimeout(timer);
    if (!stopped && document.visibilityState === 'visible') timer = setTimeout(() => void ask(), ms);
  };
  const ask = async () => {
    if (stopped || asking) return;
    asking = true;
    let changed = false;
    try {
      const answer = await poll(etag);
      if (answer !== 'same') {
        // A new tag with the same words (the page's own change, e.g. its cancel) is no news.
        changed = JSON.stringify(answer.body) !== JSON.stringify(current());
        etag = answer.etag;
        if (changed) onChange(answer.body);
        if (settled(answer.body)) stopped = true;
      }
    } catch (error) {
      console.error('Cannot check the order for news', error);
    } finally {
      asking = false;
    }
    delay = nextPollDelay(delay, changed);
    schedule(delay);
  };
  // Hidden: no polls (no battery, no server time for a tab nobody looks at); shown again: ask at once, then 5 s.
  const onVisibility = () => {
    if (document.visibilityState === 'visible') {
      delay = POLL_FIRST_MS;
      void ask();
    } else {
      clearTimeout(timer);
    }
  };
  document.addEventListener('visibilitychange', onVisibility);
  schedule(delay);
  return () => {
    stopped = true;
    clearTimeout(timer);
    document.removeEventListener('visibilitychange', onVisibility);
  };
}
