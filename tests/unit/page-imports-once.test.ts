import { describe, expect, it } from 'vitest';
import { importPagesOnce } from '../../src/lib/integrations/page-imports-once.ts';

describe('importPagesOnce', () => {
  it("makes each of the server entry's page loaders import its module once", async () => {
    const entry = 'var _page0 = () => import("./chunks/a.mjs");\nvar _page12 = () => import("./chunks/b_X-1.mjs");\nvar pageMap = new Map();';
    const code = importPagesOnce(entry);
    expect(code).not.toContain('var _page0 = () => import');
    let imports = 0;
    const load = new Function('importer', `${code.replaceAll('import(', 'importer(')}; return _page12;`)(
      (specifier: string) => {
        imports += 1;
        return Promise.resolve({ specifier });
      },
    ) as () => Promise<{ specifier: string }>;
    const [first, second] = [load(), load()];
    expect(first).toBe(second);
    expect(await first).toEqual({ specifier: './chunks/b_X-1.mjs' });
    expect(imports).toBe(1);
  });

  it('leaves code of another shape as it is', () => {
    const other = 'const _page0 = async () => await import("./x.mjs");';
    expect(importPagesOnce(other)).toBe(other);
  });
});
