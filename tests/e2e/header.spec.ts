// The header (SPEC §2, §4, §5) against the built server and the real, seeded API (never mocked).
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';

const SEARCH_LABEL = 'Search products, brands and categories';
/** The React renderer (client.*.js) and React itself (react.*.js) in dist/client/_astro. */
const REACT_CHUNK = /\/_astro\/(client|react)\.[\w-]+\.js$/;

const searchBox = (page: Page) => page.locator('#site-search');
const listbox = (page: Page) => page.locator('#site-search-listbox');

/** Wait until the island around `inside` has hydrated (Astro drops its `ssr` attribute). */
async function hydrated(page: Page, inside: string) {
  await expect(page.locator(`astro-island:has(${inside})`)).not.toHaveAttribute('ssr', /.*/);
}

async function focusSearch(page: Page) {
  const input = searchBox(page);
  await input.click();
  await hydrated(page, '#site-search');
  return input;
}

async function axe(page: Page) {
  const { violations } = await new AxeBuilder({ page }).include('header').analyze();
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

test.describe('search box', () => {
  test('is an ARIA combobox labelled for assistive technology', async ({ page }) => {
    await page.goto('/');
    const input = page.getByRole('combobox', { name: SEARCH_LABEL });
    await expect(input).toHaveCount(1); // the drawer's box is hidden on desktop
    await expect(input).toHaveAttribute('aria-expanded', 'false');
    await expect(input).toHaveAttribute('aria-controls', 'site-search-listbox');
    await expect(page.locator('form[role="search"][action="/search"][method="get"]').first()).toBeAttached();
    await expect(input).toHaveAttribute('name', 'name');
  });

  test("typing 'tomatoe' suggests Tomato; ArrowDown + Enter opens its product page", async ({ page }) => {
    await page.goto('/');
    const input = searchBox(page);
    // Typed straight away: the keystrokes that come before hydration must not be lost.
    await input.click();
    await input.pressSequentially('tomatoe');
    await expect(input).toHaveValue('tomatoe');
    const options = listbox(page).getByRole('option');
    await expect(options.filter({ hasText: 'Tomato' }).first()).toBeVisible();
    await expect(input).toHaveAttribute('aria-expanded', 'true');

    const texts = await options.allInnerTexts();
    const target = texts.findIndex((t) => t.includes('Tomato') && t.includes('Product'));
    expect(target, texts.join(' | ')).toBeGreaterThanOrEqual(0);
    for (let i = 0; i <= target; i++) await input.press('ArrowDown');
    const chosen = options.nth(target);
    await expect(chosen).toHaveAttribute('aria-selected', 'true');
    await expect(input).toHaveAttribute('aria-activedescendant', (await chosen.getAttribute('id')) ?? '');
    await input.press('Enter');
    await expect(page).toHaveURL(/\/product-detail\?id=\d+$/);
  });

  test("'Bread' + Enter searches for 'bread' and clears the box", async ({ page }) => {
    await page.goto('/');
    const input = await focusSearch(page);
    await input.evaluate((el: HTMLInputElement) =>
      window.addEventListener('pagehide', () => sessionStorage.setItem('search-at-unload', el.value)),
    );
    await input.fill('Bread');
    await input.press('Enter');
    await expect(page).toHaveURL(/\/search\?name=bread$/);
    expect(await page.evaluate(() => sessionStorage.getItem('search-at-unload'))).toBe('');
  });

  test('submitting empty (or blank) text does nothing', async ({ page }) => {
    await page.goto('/');
    const input = await focusSearch(page);
    await input.press('Enter');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await input.fill('   ');
    await input.press('Enter');
    await page.waitForTimeout(300);
    expect(new URL(page.url()).pathname).toBe('/');
  });

  test('shows a skeleton while fetching, hides 200 ms after blur, reopens on focus', async ({ page }) => {
    await page.goto('/');
    const input = await focusSearch(page);
    await input.pressSequentially('atta');
    await expect(page.getByTestId('search-skeleton').first()).toBeVisible();
    await expect(listbox(page)).toBeVisible();
    await expect(page.getByTestId('search-skeleton')).toHaveCount(0);

    await input.press('Tab');
    await expect(listbox(page)).toBeHidden();
    await expect(input).toHaveAttribute('aria-expanded', 'false');

    await input.focus();
    await expect(listbox(page)).toBeVisible();
    await input.press('Escape');
    await expect(listbox(page)).toBeHidden();
    await expect(input).toHaveValue('atta');
  });

  test('clearing the text empties the suggestions', async ({ page }) => {
    await page.goto('/');
    const input = await focusSearch(page);
    await input.fill('dal');
    await expect(listbox(page).getByRole('option').first()).toBeVisible();
    await input.fill('');
    await expect(listbox(page)).toBeHidden();
    await expect(listbox(page).getByRole('option')).toHaveCount(0);
    await expect(input).toHaveAttribute('aria-expanded', 'false');
  });

  test('a suggestion opens a brand listing when clicked', async ({ page, request }) => {
    const [brand] = (await (await request.get('/api/app/Brands/LoadBrandsByPriority?skip=0&take=1')).json()) as {
      id: number;
      name: string;
    }[];
    await page.goto('/');
    const input = await focusSearch(page);
    await input.fill(brand!.name);
    await listbox(page).getByRole('option').filter({ hasText: brand!.name }).filter({ hasText: 'Brand' }).first().click();
    await expect(page).toHaveURL(new RegExp(`/shop\\?type=brand&id=${brand!.id}$`));
  });

  test('has no axe violations, closed and open', async ({ page }) => {
    await page.goto('/');
    await axe(page);
    const input = await focusSearch(page);
    await input.fill('rice');
    await expect(listbox(page).getByRole('option').first()).toBeVisible();
    await input.press('ArrowDown');
    await axe(page);
  });
});

test.describe('brands menu', () => {
  async function openMenu(page: Page): Promise<{ button: Locator; links: Locator }> {
    await page.goto('/');
    // Before hydration it is a plain link to /brands; pointing at it hydrates the island.
    await page.getByRole('link', { name: 'Brands', exact: true }).hover();
    const button = page.getByRole('button', { name: 'Brands', exact: true });
    await expect(button).toHaveAttribute('aria-expanded', 'false');
    await button.click();
    await expect(button).toHaveAttribute('aria-expanded', 'true');
    const panel = page.locator(`#${await button.getAttribute('aria-controls')}`);
    await expect(panel).toBeVisible();
    return { button, links: panel.getByRole('list', { name: 'Brands' }).getByRole('link') };
  }

  test('opens with 16 brands; Load More Brands appends pages until none is left', async ({ page }) => {
    const { links } = await openMenu(page);
    await expect(links).toHaveCount(16);
    await expect(links.first()).toHaveAttribute('href', /^\/shop\?type=brand&id=\d+$/);
    const more = page.getByRole('button', { name: 'Load More Brands' });
    await more.click();
    await expect(links).toHaveCount(32);
    await more.click();
    await expect(links).toHaveCount(48);
    // The seed has 48 brands: the next page comes back empty and paging stops.
    await more.click();
    await expect(more).toBeHidden();
    await expect(links).toHaveCount(48);
    const names = await links.allInnerTexts();
    expect(new Set(names).size).toBe(48);
    await axe(page);
  });

  test('Escape closes it and returns focus to the button; so does a click outside', async ({ page }) => {
    const { button, links } = await openMenu(page);
    await expect(links).toHaveCount(16);
    await links.first().focus();
    await page.keyboard.press('Escape');
    await expect(button).toHaveAttribute('aria-expanded', 'false');
    await expect(links.first()).toBeHidden();
    await expect(button).toBeFocused();

    await button.click();
    await expect(links.first()).toBeVisible();
    await page.mouse.click(10, 700); // on the page's margin, away from the panel and any link
    await expect(button).toHaveAttribute('aria-expanded', 'false');
    await expect(links.first()).toBeHidden();
  });

  test('works from the keyboard: Tab to it hydrates it in place and keeps focus', async ({ page }) => {
    await page.goto('/');
    const link = page.getByRole('link', { name: 'Brands', exact: true });
    const before = await link.boundingBox();
    await link.focus();
    const button = page.getByRole('button', { name: 'Brands', exact: true });
    await expect(button).toBeFocused();
    expect(await button.boundingBox()).toEqual(before); // the button takes the link's place exactly
    await page.keyboard.press('Enter');
    await expect(button).toHaveAttribute('aria-expanded', 'true');
  });
});

test.describe('mobile drawer', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

  test('opens as a modal dialog with a second search box; closes on Escape, outside click and its button', async ({
    page,
  }) => {
    await page.goto('/');
    const menu = page.getByRole('button', { name: 'Menu', exact: true });
    await expect(menu).toBeVisible();
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    await expect(page.getByRole('button', { name: 'Brands', exact: true })).toBeHidden();

    await menu.click();
    const drawer = page.getByRole('dialog', { name: 'Menu' });
    await expect(drawer).toBeVisible();
    await expect(drawer).toHaveAttribute('aria-modal', 'true');
    await expect(menu).toHaveAttribute('aria-expanded', 'true');
    await expect(drawer.getByRole('button', { name: 'Close menu' })).toBeFocused();
    for (const [name, href] of [
      ['Home', '/'],
      ['Brands', '/brands'],
      ['Popular', '/shop?type=hot'],
      ['Sign in', '/login'],
      ['About', '/about'],
      ['Contact', '/contact'],
    ]) {
      await expect(drawer.getByRole('link', { name: name!, exact: true })).toHaveAttribute('href', href!);
    }
    const second = drawer.getByRole('combobox', { name: SEARCH_LABEL });
    await expect(second).toBeVisible();
    await expect(second).toHaveId('drawer-search');
    await axe(page);

    // Escape on open suggestions closes them, not the drawer.
    await second.click();
    await second.fill('milk');
    await expect(drawer.getByRole('option').first()).toBeVisible();
    await second.press('Escape');
    await expect(drawer.getByRole('listbox')).toBeHidden();
    await expect(drawer).toBeVisible();
    await expect(second).toHaveValue('milk');
    // (A further Escape in the search field clears its text, as search fields do.)
    await drawer.getByRole('link', { name: 'Home' }).focus();
    await page.keyboard.press('Escape');
    await expect(drawer).toBeHidden();
    await expect(menu).toBeFocused();
    await expect(menu).toHaveAttribute('aria-expanded', 'false');

    await menu.click();
    await expect(drawer).toBeVisible();
    await page.mouse.click(380, 600); // on the backdrop, right of the drawer
    await expect(drawer).toBeHidden();
    await expect(menu).toBeFocused();

    await menu.click();
    await drawer.getByRole('button', { name: 'Close menu' }).click();
    await expect(drawer).toBeHidden();
  });

  test('the drawer search box searches', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Menu', exact: true }).click();
    const second = page.getByRole('dialog', { name: 'Menu' }).getByRole('combobox');
    await second.click();
    await hydrated(page, '#drawer-search');
    await second.fill('Paneer');
    await second.press('Enter');
    await expect(page).toHaveURL(/\/search\?name=paneer$/);
  });
});

test('the header stays at the top once the page is scrolled', async ({ page }) => {
  await page.goto('/');
  const header = page.locator('header.site-header');
  await expect(header).not.toHaveClass(/is-scrolled/);
  await page.mouse.wheel(0, 1500);
  await expect(header).toHaveClass(/is-scrolled/);
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(500);
  expect((await header.boundingBox())?.y).toBe(0);
  await expect(searchBox(page)).toBeInViewport();
});

test('no layout shift from the header while the page loads and hydrates', async ({ page }) => {
  await page.addInitScript(() => {
    (window as unknown as { __cls: number }).__cls = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
        if (!entry.hadRecentInput) (window as unknown as { __cls: number }).__cls += entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await page.goto('/');
  await page.getByRole('link', { name: 'Brands', exact: true }).hover();
  await hydrated(page, '.brand-menu');
  await page.mouse.wheel(0, 800);
  await page.waitForTimeout(300);
  expect(await page.evaluate(() => (window as unknown as { __cls: number }).__cls)).toBeLessThanOrEqual(0.01);
});

test('React loads only when a header island is first used', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (r) => {
    if (r.resourceType() === 'script') scripts.push(r.url());
  });
  await page.goto('/', { waitUntil: 'networkidle' });
  await page.mouse.move(5, 400); // over the page, not over an island
  await page.waitForTimeout(300);
  expect(scripts.filter((u) => REACT_CHUNK.test(u))).toEqual([]);
  expect(scripts.filter((u) => /SearchBox|BrandMenu/.test(u))).toEqual([]);

  const react = page.waitForRequest((r) => REACT_CHUNK.test(r.url()));
  await searchBox(page).hover();
  await react;
  await hydrated(page, '#site-search');
  expect(scripts.some((u) => /\/_astro\/SearchBox\./.test(u))).toBe(true);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the search form is a GET to /search and Brands is a link to /brands', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('link', { name: 'Brands', exact: true })).toHaveAttribute('href', '/brands');
    await expect(page.getByRole('link', { name: 'Sign in', exact: true })).toHaveAttribute('href', '/login');
    await expect(page.getByRole('button', { name: 'Menu', exact: true })).toHaveCount(0); // no dead button
    const input = page.getByRole('combobox', { name: SEARCH_LABEL });
    await input.fill('Bread');
    await input.press('Enter');
    await expect(page).toHaveURL(/\/search\?name=Bread$/);
  });

  test('on a phone the drawer links are still reachable', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto('/');
    const browse = page.getByRole('navigation', { name: 'Browse' });
    await expect(browse.getByRole('link', { name: 'Brands' })).toHaveAttribute('href', '/brands');
    await expect(browse.getByRole('link', { name: 'Popular' })).toHaveAttribute('href', '/shop?type=hot');
    await context.close();
  });
});
