// The content pages as an editor changes them: a copy of the project is built, edited and built again.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyProject, shellEnv } from '../helpers/project-copy.ts';

const root = path.resolve(import.meta.dirname, '../..');
let copy: string;

/** `npm run build` in the copy. */
function build() {
  const result = spawnSync(process.execPath, [path.join(root, 'node_modules/astro/bin/astro.mjs'), 'build'], { cwd: copy, encoding: 'utf8', env: shellEnv() });
  return { ok: result.status === 0, output: `${result.stdout}\n${result.stderr}` };
}

const html = (page: string) => fs.readFileSync(path.join(copy, 'dist/client', page, 'index.html'), 'utf8');
const source = (page: string) => fs.readFileSync(path.join(copy, 'src/content/pages', `${page}.md`), 'utf8');
const editPage = (page: string, edit: (text: string) => string) =>
  fs.writeFileSync(path.join(copy, 'src/content/pages', `${page}.md`), edit(source(page)));

beforeAll(() => {
  copy = copyProject('kirana-content-');
});
afterAll(() => {
  if (copy) fs.rmSync(copy, { recursive: true, force: true });
});

describe('content pages', () => {
  it('are emitted as static HTML with their title, body and date', () => {
    const result = build();
    expect(result.ok, result.output).toBe(true);
    for (const page of ['about', 'contact', 'privacy-policy', 'terms', 'cancellation-policy', 'refund-policy']) {
      const text = source(page);
      const title = /^title:\s*["']?(.+?)["']?\s*$/m.exec(text)![1]!;
      const date = /^lastUpdated:\s*["']?(\d{4}-\d{2}-\d{2})/m.exec(text)![1]!;
      const built = html(page);
      const escaped = title.replace(/&/g, '&amp;');
      expect(built, page).toContain(title.includes('Kirana') ? `<title>${escaped}</title>` : `<title>${escaped} | Kirana</title>`);
      expect(built, page).toContain(`datetime="${date}"`);
      // The first words of the body's first paragraph.
      const body = text.split(/^---$/m)[2]!.trim();
      const firstParagraph = body.split(/\n\s*\n/).find((p) => /^[A-Z]/.test(p))!;
      expect(built, page).toContain(firstParagraph.split(/[*_[`'’]/)[0]!.trim().split(' ').slice(0, 4).join(' '));
    }
  }, 180_000);

  it("come with a server entry of the adapter's middleware mode that holds no copy of the API", () => {
    // Built by the test above. scripts/serve.ts makes the one API of the process and hands it to the pages
    // (Astro.locals.shop): the pages' bundle must not carry a second copy of the server code.
    const server = path.join(copy, 'dist/server');
    const entry = fs.readFileSync(path.join(server, 'entry.mjs'), 'utf8');
    expect(entry).toMatch(/^export \{[^}]*\bhandler\b/m);
    const code = [entry, ...fs.readdirSync(path.join(server, 'chunks')).map((f) => fs.readFileSync(path.join(server, 'chunks', f), 'utf8'))];
    for (const serverOnly of ['OpenAPIHono', 'drizzle-orm', 'pg_notify', 'timingSafeEqual']) {
      expect(code.some((text) => text.includes(serverOnly)), serverOnly).toBe(false);
    }
  });

  it('change when the Markdown changes and the site is rebuilt', () => {
    editPage('about', (text) => `${text}\n\nWe now deliver to Mysuru too, from our new store on Sayyaji Rao Road.\n`);
    const result = build();
    expect(result.ok, result.output).toBe(true);
    expect(html('about')).toContain('We now deliver to Mysuru too, from our new store on Sayyaji Rao Road.');
  }, 180_000);

  it('take the promises from the settings file: one edit changes the header, footer and pages', () => {
    const settings = path.join(copy, 'src/content/settings/store.yaml');
    const yaml = fs.readFileSync(settings, 'utf8');
    expect(yaml).toMatch(/^\s*returnDays: 30\b/m);
    fs.writeFileSync(
      settings,
      yaml.replace(/^(\s*returnDays:) 30\b/m, '$1 14').replace(/^(\s*headline:\s*\n\s*- ).*$/m, '$1"Diwali week: 10% off sweets"'),
    );
    const result = build();
    expect(result.ok, result.output).toBe(true);
    const about = html('about');
    expect(about).toContain('Diwali week: 10% off sweets');
    const footerPromises = /data-testid="footer-promises"[^>]*>(.*?)<\/ul>/s.exec(about)![1]!;
    expect(footerPromises).toContain('Easy returns within 14 days');
    expect(footerPromises).not.toContain('30 days');
  }, 180_000);

  it('fail the build, naming the file and the field, when the front matter is broken', () => {
    editPage('refund-policy', (text) => text.replace(/^lastUpdated:.*$/m, 'lastUpdated: someday soon'));
    const result = build();
    expect(result.ok).toBe(false);
    expect(result.output).toContain('src/content/pages/refund-policy.md');
    expect(result.output).toContain('lastUpdated must be a date written like 2026-11-01');
  }, 180_000);

  it('refuse an impossible date with a message an editor understands', () => {
    editPage('refund-policy', (text) => text.replace(/^lastUpdated:.*$/m, 'lastUpdated: "2026-02-30"'));
    const result = build();
    expect(result.ok).toBe(false);
    expect(result.output).toContain('lastUpdated is not a real date');
  }, 180_000);
});
