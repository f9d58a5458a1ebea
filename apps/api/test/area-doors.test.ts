/*
 * «Области и двери» (docs/architecture.md): an area of the API (`src/modules/<area>/`) gives others
 * only what its `index.ts` exports, and the areas stand on levels — none depends, directly or through
 * others, on an area that depends on it.
 *
 * Read from the source (every import and export specifier, type-only ones included):
 *  1. a file of one area imports another area only through `../<area>/index`; the wiring outside the
 *     areas (app.ts, main.ts, jobs.ts, plugins/) only through `modules/<area>/index` too;
 *  2. the shared lower levels — `lib/` and `db/` — import nothing from the areas;
 *  3. the graph of areas (an edge per area that imports another) has no cycle; its levels are printed.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.join(__dirname, '../src');
const MODULES = path.join(SRC, 'modules');

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sources(p));
    else if (name.endsWith('.ts') && !name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

/** Static `import … from`, `export … from`, bare `import '…'` and `import('…')` (types or code). */
const SPECIFIER = /(?:\b(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,$]*?\s+from\s+)?|\bimport\s*\(\s*)['"]([^'"]+)['"]/g;

interface Import {
  file: string; // relative to src/
  spec: string;
  /** The area the import reaches, or null when it stays outside src/modules. */
  area: string | null;
  /** Does it reach the area's front door (`modules/<area>/index`)? */
  door: boolean;
}

/** The area of a file (`modules/<area>/…`), or null for the wiring and the lower levels. */
function areaOf(rel: string): string | null {
  const [top, area] = rel.split('/');
  return top === 'modules' && area !== undefined ? area : null;
}

function importsOf(file: string): Import[] {
  const text = readFileSync(file, 'utf8');
  const out: Import[] = [];
  for (const m of text.matchAll(SPECIFIER)) {
    const spec = m[1] ?? '';
    if (!spec.startsWith('.')) continue;
    const [area, ...rest] = path.relative(MODULES, path.resolve(path.dirname(file), spec)).split(path.sep);
    const inModules = area !== undefined && area !== '..' && rest.length > 0;
    out.push({
      file: path.relative(SRC, file).split(path.sep).join('/'),
      spec,
      area: inModules ? area : null,
      door: inModules && rest.length === 1 && rest[0] === 'index',
    });
  }
  return out;
}

const all = sources(SRC).flatMap(importsOf);
/** Imports that cross into another area (or into an area from outside the areas). */
const crossing = all.filter((i) => i.area !== null && i.area !== areaOf(i.file));

describe('areas meet through their front doors', () => {
  it('no import reaches past another area’s index.ts', () => {
    const deep = crossing.filter((i) => !i.door).map((i) => `${i.file} → ${i.spec}`);
    expect(deep).toEqual([]);
  });

  it('every area imported by another has a front door', () => {
    const areas = readdirSync(MODULES).filter((n) => statSync(path.join(MODULES, n)).isDirectory());
    const used = new Set(crossing.map((i) => i.area));
    const missing = areas.filter(
      (a) => used.has(a) && !sources(path.join(MODULES, a)).some((f) => f === path.join(MODULES, a, 'index.ts')),
    );
    expect(missing).toEqual([]);
  });

  it('lib/ and db/ — the levels below the areas — import nothing from them', () => {
    const up = all.filter((i) => i.area !== null && /^(lib|db)\//.test(i.file)).map((i) => `${i.file} → ${i.spec}`);
    expect(up).toEqual([]);
  });
});

describe('the areas stand on levels', () => {
  const graph = new Map<string, Set<string>>();
  for (const a of readdirSync(MODULES)) if (statSync(path.join(MODULES, a)).isDirectory()) graph.set(a, new Set());
  for (const i of crossing) {
    const from = areaOf(i.file);
    if (from === null || i.area === null) continue;
    if (!graph.has(from)) graph.set(from, new Set());
    graph.get(from)?.add(i.area);
  }

  it('no dependency runs back up: the area graph has no cycle', () => {
    // Tarjan: every strongly connected component of more than one area is a cycle.
    let counter = 0;
    const index = new Map<string, number>();
    const low = new Map<string, number>();
    const stack: string[] = [];
    const cycles: string[] = [];
    const visit = (v: string) => {
      index.set(v, counter);
      low.set(v, counter++);
      stack.push(v);
      for (const w of graph.get(v) ?? []) {
        if (!index.has(w)) {
          visit(w);
          low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
        } else if (stack.includes(w)) low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0));
      }
      if (low.get(v) === index.get(v)) {
        const component: string[] = [];
        let w: string | undefined;
        do {
          w = stack.pop();
          if (w !== undefined) component.push(w);
        } while (w !== v && w !== undefined);
        if (component.length > 1) {
          const members = new Set(component);
          const edges = component.flatMap((a) =>
            [...(graph.get(a) ?? [])].filter((b) => members.has(b)).map((b) => `${a} → ${b}`),
          );
          cycles.push(`{${component.sort().join(', ')}}: ${edges.sort().join('; ')}`);
        }
      }
    };
    for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
    expect(cycles).toEqual([]);

    // The levels: 0 — areas that need no other area; n — one above the highest area it needs.
    const level = new Map<string, number>();
    const levelOf = (a: string): number => {
      const known = level.get(a);
      if (known !== undefined) return known;
      const l = Math.max(-1, ...[...(graph.get(a) ?? [])].map(levelOf)) + 1;
      level.set(a, l);
      return l;
    };
    const rows: string[][] = [];
    for (const a of [...graph.keys()].sort()) {
      const l = levelOf(a);
      rows[l] = [...(rows[l] ?? []), a];
    }
    console.log(`API areas by level:\n${rows.map((r, l) => `  ${l}: ${r.join(', ')}`).join('\n')}`);
  });
});
