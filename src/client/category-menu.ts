// The Categories menus of the header and of the phone drawer (issue 24): a disclosure button and a panel that shows
// /categories' list. That page is the menu's link without JavaScript, so the list is read from it on first opening
// (the page cache's copy: no API client, no React), once per page view for both menus.

let reading: Promise<Element> | undefined;

async function readList(pageUrl: string): Promise<Element> {
  const res = await fetch(pageUrl, { headers: { Accept: 'text/html' } });
  if (!res.ok) throw new Error(`${pageUrl} answered ${res.status}`);
  const list = new DOMParser().parseFromString(await res.text(), 'text/html').querySelector('[data-category-list]');
  if (!list) throw new Error(`${pageUrl} has no list of categories`);
  return list;
}

/** A copy of the list of categories on the page at `pageUrl`; rejects when it cannot be read (a later call tries again). */
export async function categoryList(pageUrl: string): Promise<Element> {
  reading ??= readList(pageUrl);
  const asked = reading;
  try {
    return document.importNode(await asked, true);
  } catch (error) {
    if (reading === asked) reading = undefined;
    throw error;
  }
}

/**
 * Makes `root` a working menu: its button (hidden until now, so never a dead button) opens and closes the panel, whose
 * first opening fills it; the no-JavaScript link it stands for is hidden. `dismissible` (the header): Escape closes it
 * and gives focus back to the button; a press elsewhere, or focus leaving it, closes it. In the drawer the dialog
 * itself takes Escape.
 */
export function wireCategoryMenu(root: HTMLElement, { dismissible }: { dismissible: boolean }): void {
  const button = root.querySelector<HTMLButtonElement>('[data-category-toggle]');
  const panel = root.querySelector<HTMLElement>('[data-category-panel]');
  const slot = root.querySelector<HTMLElement>('[data-category-slot]');
  const status = root.querySelector<HTMLElement>('[data-category-status]');
  const pageUrl = root.dataset.categoriesUrl;
  if (!button || !panel || !slot || !status || !pageUrl) return;

  let filled = false;
  const fill = async () => {
    if (filled) return;
    filled = true;
    status.textContent = 'Loading categories…';
    panel.setAttribute('aria-busy', 'true');
    try {
      slot.replaceChildren(await categoryList(pageUrl));
      status.textContent = '';
    } catch (error) {
      filled = false;
      console.error('Cannot load the categories', error);
      status.textContent = 'The categories could not be loaded. See all categories instead.';
    } finally {
      panel.removeAttribute('aria-busy');
    }
  };
  const setOpen = (open: boolean, returnFocus = false) => {
    button.setAttribute('aria-expanded', String(open));
    panel.hidden = !open;
    if (open) void fill();
    else if (returnFocus) button.focus();
  };

  button.addEventListener('click', () => setOpen(panel.hidden));
  // A pointer on its way to the button: read the list now, so it is there when the panel opens.
  button.addEventListener('pointerenter', () => void categoryList(pageUrl).catch(() => {}), { once: true });
  if (dismissible) {
    root.addEventListener('keydown', (event) => {
      if (event.key !== 'Escape' || panel.hidden) return;
      event.preventDefault();
      setOpen(false, true);
    });
    document.addEventListener('pointerdown', (event) => {
      if (!panel.hidden && !root.contains(event.target as Node)) setOpen(false);
    });
    root.addEventListener('focusout', (event) => {
      const next = event.relatedTarget as Node | null;
      if (!panel.hidden && next && !root.contains(next)) setOpen(false);
    });
  }
  root.querySelector('[data-category-link]')?.setAttribute('hidden', '');
  button.hidden = false;
}
