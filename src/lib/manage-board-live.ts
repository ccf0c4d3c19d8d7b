// The orders board's live refresh (issue 34), the board's only script: every 2 s while the tab is seen it asks
// /api/grocer/Orders for the board's days (the staff cookie goes along: same origin) and compares their signature
// with the one the page was rendered with. Only when it differs does it fetch the page again and swap the board in,
// saying so to screen readers. No framework: a page of the back office costs no React.
import type { GrocerDayDto } from '../server/grocer-schemas.ts';
import { boardSignature } from './manage-board.ts';

const EVERY_MS = 2000;

async function daysNow(dates: string[]): Promise<GrocerDayDto[] | null> {
  const answers = await Promise.all(dates.map((date) => fetch(`/api/grocer/Orders?date=${date}`, { credentials: 'same-origin', cache: 'no-store' })));
  // Signed out meanwhile, or the shop is busy: leave the board as it is; a reload will say why.
  if (answers.some((res) => !res.ok)) return null;
  return Promise.all(answers.map((res) => res.json() as Promise<GrocerDayDto>));
}

async function refresh(board: HTMLElement) {
  const days = await daysNow((board.dataset.dates ?? '').split(',').filter(Boolean));
  if (!days || boardSignature(days) === board.dataset.signature) return;
  const page = await fetch(location.href, { credentials: 'same-origin', cache: 'no-store' });
  if (!page.ok || page.redirected) return;
  const fresh = new DOMParser().parseFromString(await page.text(), 'text/html').querySelector<HTMLElement>('[data-board]');
  if (!fresh) return;
  const before = new Set([...board.querySelectorAll<HTMLElement>('[data-order]')].map((row) => row.dataset.order));
  const added = [...fresh.querySelectorAll<HTMLElement>('[data-order]')].filter((row) => !before.has(row.dataset.order)).length;
  board.replaceChildren(...fresh.childNodes);
  board.dataset.signature = fresh.dataset.signature ?? '';
  board.dataset.dates = fresh.dataset.dates ?? '';
  const news = document.querySelector('[data-board-news]');
  if (news) news.textContent = added ? `${added} new ${added === 1 ? 'order' : 'orders'} on the board.` : 'The board was updated.';
}

export function watchBoard() {
  const board = document.querySelector<HTMLElement>('[data-board]');
  if (!board) return;
  let busy = false;
  setInterval(() => {
    if (busy || document.hidden) return;
    busy = true;
    refresh(board)
      .catch(() => undefined)
      .finally(() => (busy = false));
  }, EVERY_MS);
}
