// The rooms of src/ and which way their imports may run (DESIGN.md, Layout and How data flows): pages ->
// islands/components -> src/client -> src/stores -> src/lib, the ground floor. src/server (the API) stands below the
// pages only; src/lib/server (the pages' server helpers) takes nothing from it but types, and src/server nothing from
// src/lib/server: what both need lives in src/lib. Code that runs in the browser (islands, stores, src/client, src/lib
// outside src/lib/server, and every bundled <script> of an .astro file) takes nothing from the server but its types:
// an `import type` of the API's zod schemas is the shared contract. A slip is printed as file, import and rule.
//
// Read from the source text, not from a bundler: every `import ... from '...'`, `export ... from '...'`,
// `import '...'` and `import('...')` of every .ts, .tsx and .astro file under src/, with relative paths resolved.
// Only `import type` / `export type` is type-only: `import { type A } from` still loads the module.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const src = path.join(root, 'src');

interface Import {
  /** As written: '../server/order-schemas.ts'. */
  specifier: string;
  /** `import type` or `export type`: erased, nothing is loaded. */
  typeOnly: boolean;
  /** The file it names, from the project's root ('src/server/order-schemas.ts'); null for a package. */
  target: string | null;
}

/** Where code runs: an .astro file's frontmatter renders on the server, its <script>s are bundled for the browser. */
interface Source {
  file: string;
  part: 'module' | 'frontmatter' | 'script';
  imports: Import[];
}

const fromRoot = (full: string) => path.relative(root, full).split(path.sep).join('/');

const STATIC_IMPORT = /^[ \t]*(?:import|export)[ \t]+(type[ \t]+)?(?:[^;'"`]*?\sfrom[ \t]*)?['"]([^'"\n]+)['"]/gm;
const DYNAMIC_IMPORT = /(typeof[ \t]+)?\bimport\(\s*['"]([^'"\n]+)['"]\s*\)/g;

/** The imports of one piece of code in `file` (a path from the project's root). */
function importsOf(code: string, file: string): Import[] {
  const found: Import[] = [];
  for (const pattern of [STATIC_IMPORT, DYNAMIC_IMPORT]) {
    for (const [, type, specifier] of code.matchAll(pattern)) {
      const target = specifier!.startsWith('.') ? fromRoot(path.resolve(root, path.dirname(file), specifier!)) : null;
      found.push({ specifier: specifier!, typeOnly: !!type, target });
    }
  }
  return found;
}

/** An .astro file's frontmatter and each of its bundled <script>s (is:inline and JSON-LD scripts import nothing). */
function astroParts(text: string, file: string): Source[] {
  const parts: Source[] = [];
  const frontmatter = /^\s*---\r?\n([\s\S]*?)\r?\n---/.exec(text);
  if (frontmatter) parts.push({ file, part: 'frontmatter', imports: importsOf(frontmatter[1]!, file) });
  const body = frontmatter ? text.slice(frontmatter[0].length) : text;
  // Attributes may hold {expressions}; a self-closing <script ... /> has no body.
  for (const [, attributes, content] of body.matchAll(/<script\b((?:[^>{]|\{[^}]*\})*?)(?:\/>|>([\s\S]*?)<\/script>)/g)) {
    if (content === undefined || /\bis:inline\b|application\/ld\+json/.test(attributes!)) continue;
    parts.push({ file, part: 'script', imports: importsOf(content, file) });
  }
  return parts;
}

function sources(): Source[] {
  const all: Source[] = [];
  for (const entry of fs.readdirSync(src, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.(ts|tsx|astro)$/.test(entry.name)) continue;
    const full = path.join(entry.parentPath, entry.name);
    const file = fromRoot(full);
    const text = fs.readFileSync(full, 'utf8');
    if (file.endsWith('.astro')) all.push(...astroParts(text, file));
    else all.push({ file, part: 'module', imports: importsOf(text, file) });
  }
  return all;
}

const under = (room: string) => (p: string) => p === room || p.startsWith(`${room}/`);
const inLibServer = under('src/lib/server');
/** src/lib outside its server half: the ground floor, whose code may run in the browser. */
const inGroundFloor = (p: string) => under('src/lib')(p) && !inLibServer(p);

interface Rule {
  name: string;
  /** Which code the rule is about. */
  covers: (source: Source) => boolean;
  /** Why `imported` may not be taken from there; undefined when it may. */
  refuses: (imported: Import & { target: string }) => string | undefined;
}

/** Rooms above the one a rule covers: any import of them is a slip, type-only or not. */
const refuseRooms = (rooms: string[]) => (i: Import & { target: string }) => {
  const room = rooms.find((r) => under(r)(i.target));
  return room && `imports ${room}`;
};
/** The API's runtime: its types (the zod schemas' shapes) are the contract, its values stay on the server. */
const serverTypesOnly = (i: Import & { target: string }) =>
  under('src/server')(i.target) && !i.typeOnly ? 'imports a value from src/server (only `import type` may cross)' : undefined;
const either =
  (...checks: Rule['refuses'][]): Rule['refuses'] =>
  (i) => {
    for (const check of checks) {
      const why = check(i);
      if (why) return why;
    }
    return undefined;
  };

const BROWSER_ROOMS = ['src/islands', 'src/stores', 'src/client'];
const browserCode = (s: Source) => s.part === 'script' || BROWSER_ROOMS.some((room) => under(room)(s.file));
/** What stands above both halves of src/lib (and above src/server). */
const ABOVE_LIB = ['src/stores', 'src/client', 'src/islands', 'src/components', 'src/pages', 'src/layouts', 'src/integrations', 'src/http', 'scripts'];

const RULES: Rule[] = [
  {
    name: 'the ground floor (src/lib outside src/lib/server) imports nothing above it',
    covers: (s) => inGroundFloor(s.file),
    refuses: either(refuseRooms([...ABOVE_LIB, 'src/lib/server']), serverTypesOnly),
  },
  {
    name: 'src/lib/server imports the ground floor and only the types of src/server',
    covers: (s) => inLibServer(s.file),
    refuses: either(refuseRooms(ABOVE_LIB), serverTypesOnly),
  },
  {
    name: "src/server (the API) imports nothing of the pages, the browser or the pages' server helpers",
    covers: (s) => under('src/server')(s.file),
    refuses: refuseRooms([...ABOVE_LIB, 'src/lib/server']),
  },
  {
    name: 'the stores hold state: they import src/lib, not the browser glue above them',
    covers: (s) => under('src/stores')(s.file),
    refuses: refuseRooms(['src/client', 'src/islands', 'src/components', 'src/pages', 'src/layouts']),
  },
  {
    name: 'src/client (browser glue) imports the stores and src/lib, not the islands or pages above it',
    covers: (s) => under('src/client')(s.file),
    refuses: refuseRooms(['src/islands', 'src/components', 'src/pages', 'src/layouts']),
  },
  {
    name: 'browser code (islands, stores, src/client, <script>s) takes only types from src/server and nothing from src/lib/server',
    covers: browserCode,
    refuses: either(refuseRooms(['src/lib/server', 'src/integrations', 'scripts']), serverTypesOnly),
  },
  {
    name: 'nothing under src/ imports the build integrations (astro.config.mjs loads them)',
    covers: (s) => !under('src/integrations')(s.file),
    refuses: refuseRooms(['src/integrations']),
  },
  {
    name: 'the production server (src/http) stands above the pages and the API: only the build integrations import it',
    covers: (s) => !under('src/http')(s.file) && !under('src/integrations')(s.file),
    refuses: refuseRooms(['src/http']),
  },
];

/** Every import that breaks a rule, one line each: file (part), the import as written and where it leads, the rule. */
function slips(all: Source[], rules: Rule[] = RULES): string[] {
  const found: string[] = [];
  for (const source of all) {
    for (const rule of rules.filter((r) => r.covers(source))) {
      for (const imported of source.imports) {
        if (imported.target === null) continue;
        const why = rule.refuses({ ...imported, target: imported.target });
        if (!why) continue;
        const where = source.part === 'module' ? source.file : `${source.file} (${source.part})`;
        const statement = `${imported.typeOnly ? 'import type' : 'import'} '${imported.specifier}' -> ${imported.target}`;
        found.push(`${where}: ${statement}: ${why} [${rule.name}]`);
      }
    }
  }
  return found;
}

describe('reading imports', () => {
  it('tells type-only imports, multi-line ones, re-exports and dynamic imports apart', () => {
    const code = [
      "import type {\n  A,\n  B,\n} from '../server/order-schemas.ts';",
      "import { type C } from '../server/schemas.ts';",
      "export type { D } from '../../server/schemas.ts';",
      "export { e } from './e.ts';",
      "import './side-effect.ts';",
      "import ky, { type KyInstance } from 'ky';",
      "const later = () => import('./later.ts');",
      "let t: Promise<typeof import('./typed.ts')>;",
      "// import { commented } from '../server/app.ts';",
      "export const TEXT = 'not an import from here';",
    ].join('\n');
    const found = importsOf(code, 'src/lib/api/x.ts').map((i) => [i.specifier, i.typeOnly, i.target]);
    expect(found).toEqual([
      ['../server/order-schemas.ts', true, 'src/lib/server/order-schemas.ts'],
      ['../server/schemas.ts', false, 'src/lib/server/schemas.ts'],
      ['../../server/schemas.ts', true, 'src/server/schemas.ts'],
      ['./e.ts', false, 'src/lib/api/e.ts'],
      ['./side-effect.ts', false, 'src/lib/api/side-effect.ts'],
      ['ky', false, null],
      ['./later.ts', false, 'src/lib/api/later.ts'],
      ['./typed.ts', true, 'src/lib/api/typed.ts'],
    ]);
  });

  it("reads an .astro file's frontmatter and bundled scripts apart, past inline and self-closing ones", () => {
    const text = [
      '---',
      "import { siteOrigin } from '../lib/server/site.ts';",
      '---',
      '<script is:inline set:html={X} />',
      '<script type="application/ld+json" set:html={jsonLd(data)} />',
      '<script>',
      "  import { signOut } from '../client/sign-out.ts';",
      '</script>',
    ].join('\n');
    const parts = astroParts(text, 'src/components/Header.astro').map((p) => [p.part, p.imports.map((i) => i.target)]);
    expect(parts).toEqual([
      ['frontmatter', ['src/lib/server/site.ts']],
      ['script', ['src/client/sign-out.ts']],
    ]);
  });

  it('names the file and the import of a slip', () => {
    const lib = 'src/lib/x.ts';
    const page = 'src/pages/login.astro';
    const found = slips([
      { file: lib, part: 'module', imports: importsOf("import { $user } from '../stores/auth.ts';", lib) },
      { file: page, part: 'script', imports: importsOf("import { shopSettings } from '../server/config.ts';", page) },
    ]);
    expect(found).toHaveLength(2);
    expect(found[0]).toContain("src/lib/x.ts: import '../stores/auth.ts' -> src/stores/auth.ts: imports src/stores [the ground floor");
    expect(found[1]).toContain("src/pages/login.astro (script): import '../server/config.ts' -> src/server/config.ts: imports a value from src/server");
  });
});

describe('the rooms of src/', () => {
  const all = sources();

  it('are all read', () => {
    const rooms = new Set(all.map((s) => s.file.split('/')[1]));
    for (const room of ['lib', 'server', 'stores', 'client', 'islands', 'components', 'pages', 'layouts', 'integrations']) {
      expect(rooms).toContain(room);
    }
    expect(all.filter((s) => s.part === 'script').length).toBeGreaterThan(5);
    expect(all.flatMap((s) => s.imports).filter((i) => i.target !== null).length).toBeGreaterThan(300);
  });

  it('import only downward', () => {
    const found = slips(all);
    expect(found, `imports that run against the layering:\n${found.join('\n')}`).toEqual([]);
  });
});
