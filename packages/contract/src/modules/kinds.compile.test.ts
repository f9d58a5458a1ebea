/*
 * Field kinds are one table per layer, keyed by FieldType: a new type must not compile until every
 * table has its row. This test compiles the three projects' table files with a FieldType that has
 * one more member ('throwaway', served in memory in place of types.ts) and expects a type error in
 * each table file — and none without it.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const TYPES = join(ROOT, 'packages/contract/src/modules/types.ts');

/** Every per-type table, by the project that compiles it (the files are also the programs' roots). */
const TABLES: Record<string, readonly string[]> = {
  'packages/contract/tsconfig.json': ['packages/contract/src/modules/kinds.ts'],
  'apps/api/tsconfig.json': [
    'apps/api/src/modules/events/list/events.query.ts',
    'apps/api/src/modules/imports/cells.ts',
    'apps/api/src/modules/exports/cells.ts',
    'apps/api/src/modules/exports/sql-cells.query.ts',
  ],
  'apps/console/tsconfig.json': [
    'apps/console/src/features/events/components/values.tsx',
    'apps/console/src/features/events/components/inputs.tsx',
    'apps/console/src/features/events/model/edit.ts',
    'apps/console/src/features/events/list/columns.tsx',
  ],
};

const original = readFileSync(TYPES, 'utf8');
const patched = original.replace(/export type FieldType =\n/, "export type FieldType =\n  | 'throwaway'\n");

/** The project's table files with an error, compiled with `types.ts` as given. */
function failingFiles(project: string, typesText: string, cache: Map<string, ts.SourceFile>): string[] {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    join(ROOT, project),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!parsed) throw new Error(`cannot read ${project}`);
  const host = ts.createCompilerHost(parsed.options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (file, lang, onError) => {
    if (resolve(file) === TYPES) return ts.createSourceFile(file, typesText, lang);
    let sf = cache.get(file);
    if (!sf) {
      sf = getSourceFile(file, lang, onError);
      if (sf) cache.set(file, sf);
    }
    return sf;
  };
  const roots = (TABLES[project] ?? []).map((f) => join(ROOT, f));
  // The project's own declaration files (`declare module …`) come along: only its table files are roots.
  const ambient = parsed.fileNames.filter((f) => f.endsWith('.d.ts'));
  const program = ts.createProgram({ rootNames: [...roots, ...ambient], options: parsed.options, host });
  const out: string[] = [];
  for (const root of roots) {
    const sf = program.getSourceFile(root);
    if (!sf) throw new Error(`${root} is not in the program`);
    const diags = [...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf)];
    for (const d of diags) {
      const { line } = d.file ? d.file.getLineAndCharacterOfPosition(d.start ?? 0) : { line: 0 };
      const rel = root.slice(ROOT.length + 1);
      console.log(`${typesText === original ? 'control' : 'throwaway'}: ${rel}:${line + 1} TS${d.code}`);
    }
    if (diags.length) out.push(root.slice(ROOT.length + 1));
  }
  return out;
}

describe('field kinds: a new field type fails to compile until every table has it', () => {
  it('the patch adds a member to FieldType', () => {
    expect(patched).not.toBe(original);
    expect(patched).toContain("| 'throwaway'");
  });

  for (const [project, files] of Object.entries(TABLES)) {
    it(`${project}: every table file fails with 'throwaway', none without it`, () => {
      const cache = new Map<string, ts.SourceFile>();
      expect(failingFiles(project, original, cache)).toEqual([]);
      expect(failingFiles(project, patched, cache)).toEqual(files);
    }, 60_000);
  }
});
