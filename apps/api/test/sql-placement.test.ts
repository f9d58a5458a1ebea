/*
 * «Весь SQL — в репозиториях» (docs/architecture.md, «Слои API»): the source of apps/api/src is read,
 * and SQL may appear only in repositories (`*.repo.ts`, `*.query.ts`), in `src/db/` (the connection,
 * the job machinery, migrations) and in the few files listed below with their reason.
 *
 * What counts as SQL, read from the syntax tree (comments never count):
 *  - a value import from drizzle-orm (the `sql` tag, operators such as `eq`, `and`; `import type` is fine:
 *    a service may pass a repository's `SQL` fragment along);
 *  - a `sql` tagged template (`sql\`…\``, `sql<T>\`…\``, `x.sql\`…\``) and `sql.raw(…)`, `sql.join(…)` …;
 *  - a call of `.query(…)` or `.execute(…)` on anything (pg pools and clients, drizzle);
 *  - a Drizzle builder on a database or transaction (`db.select(…)`, `tx.insert(…)`, `this.db.update(…)`),
 *    or any `.select/.insert/.update/.delete(…)` continued as a builder (`.from`, `.values`, `.set`,
 *    `.where`, `.returning`, `.onConflict…`), and the relational `db.query.<table>`;
 *  - a string or template whose text is a statement (`SELECT … FROM`, `INSERT INTO`, `UPDATE … SET`,
 *    `DELETE FROM`, BEGIN/COMMIT/ROLLBACK, LISTEN, `SET LOCAL`, advisory locks …; upper case, as
 *    every statement of this code base is written).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(import.meta.dirname, '../src');

/** Files with SQL outside the repositories, each with its reason (at most five). Paths from apps/api/src. */
const ALLOWED: Record<string, string> = {
  // None: the one former entry, the LISTEN connection, lives in db/change-listener.ts.
};

/** May a file hold SQL by its place or name? */
const isSqlPlace = (rel: string) => rel.startsWith('db/') || rel.endsWith('.repo.ts') || rel.endsWith('.query.ts');

const DB_LIKE = /^(?:db|tx|trx|sp|outer|database|client|conn|pool|(?:.*\.)?(?:db|tx|pool|client)|.*(?:Db|Tx))$/;
const BUILDERS = new Set(['select', 'selectDistinct', 'selectDistinctOn', 'insert', 'update', 'delete', '$count']);
const CONTINUATIONS = new Set([
  'from',
  'values',
  'set',
  'where',
  'returning',
  'onConflictDoNothing',
  'onConflictDoUpdate',
  'innerJoin',
  'leftJoin',
]);
/** A statement's text: its first words, or a SELECT … FROM anywhere in it. */
const STATEMENT =
  /^\s*\(?\s*(?:SELECT\s|INSERT\s+INTO\s|UPDATE\s+\S+\s+(?:AS\s+\S+\s+)?SET\s|DELETE\s+FROM\s|WITH\s+\S+\s+AS\s*\(|BEGIN\b|COMMIT\b|ROLLBACK\b|SAVEPOINT\s|RELEASE\s+SAVEPOINT|LISTEN\s|UNLISTEN\s|NOTIFY\s|SET\s+(?:LOCAL\s+|SESSION\s+)?\w+\s*(?:=|TO\s)|COPY\s+(?:\(|\w+\s+(?:FROM|TO)\s)|(?:CREATE|ALTER|DROP)\s+(?:OR\s+REPLACE\s+|UNIQUE\s+)?(?:TABLE|INDEX|TRIGGER|FUNCTION|EXTENSION|SCHEMA|TYPE|VIEW|MATERIALIZED|SEQUENCE)\s|TRUNCATE\s|VACUUM\b|LOCK\s+TABLE\s)|\bSELECT\s[\s\S]*?\bFROM\s|\bpg_(?:try_)?advisory_(?:xact_)?(?:un)?lock/;

/** Every place in a source text where SQL is written or run, as `line: what`. */
export function sqlSites(fileName: string, text: string): string[] {
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const out: string[] = [];
  const at = (n: ts.Node, what: string) => out.push(`${sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1}: ${what}`);
  const visit = (n: ts.Node): void => {
    if (ts.isImportDeclaration(n) && ts.isStringLiteral(n.moduleSpecifier)) {
      const from = n.moduleSpecifier.text;
      if ((from === 'drizzle-orm' || from.startsWith('drizzle-orm/')) && !n.importClause?.isTypeOnly) {
        const c = n.importClause;
        const named = c?.namedBindings && ts.isNamedImports(c.namedBindings) ? c.namedBindings.elements : [];
        const values = named.filter((e) => !e.isTypeOnly).map((e) => e.name.text);
        if (c?.name || (c?.namedBindings && ts.isNamespaceImport(c.namedBindings))) values.push('*');
        if (values.length) at(n, `import { ${values.join(', ')} } from '${from}'`);
      }
    }
    if (ts.isTaggedTemplateExpression(n)) {
      const tag = n.tag.getText(sf);
      if (/(?:^|\.)sql$/.test(tag)) at(n, `${tag}\`…\``);
    }
    if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression)) {
      const name = n.expression.name.text;
      const recv = n.expression.expression.getText(sf);
      if (recv === 'sql') at(n, `sql.${name}(…)`);
      else if (name === 'query' || name === 'execute') at(n, `${recv}.${name}(…)`);
      else if (BUILDERS.has(name)) {
        const next = n.parent && ts.isPropertyAccessExpression(n.parent) ? n.parent.name.text : '';
        if (DB_LIKE.test(recv.replace(/\s+/g, '')) || CONTINUATIONS.has(next)) at(n, `${recv}.${name}(…)`);
      }
    }
    if (
      ts.isPropertyAccessExpression(n) &&
      n.name.text === 'query' &&
      ts.isPropertyAccessExpression(n.parent) &&
      n.parent.expression === n &&
      DB_LIKE.test(n.expression.getText(sf))
    )
      at(n, `${n.expression.getText(sf)}.query.${n.parent.name.text}`);
    const literal =
      ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)
        ? n.text
        : ts.isTemplateExpression(n)
          ? n.head.text + n.templateSpans.map((s) => `\${…}${s.literal.text}`).join('')
          : null;
    if (literal !== null && !ts.isImportDeclaration(n.parent) && STATEMENT.test(literal))
      at(n, `statement text ${JSON.stringify(literal.trim().slice(0, 40))}`);
    // A template's spans are read as a whole above.
    if (ts.isTemplateExpression(n)) {
      for (const s of n.templateSpans) visit(s.expression);
      return;
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

function tsFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const f = path.join(dir, name);
    if (statSync(f).isDirectory()) tsFiles(f, out);
    else if (f.endsWith('.ts')) out.push(f);
  }
  return out;
}

describe('SQL placement', () => {
  it('the detector finds SQL written in every form, and nothing else', () => {
    const found = (src: string) => sqlSites('x.ts', src).length;
    for (const src of [
      `import { sql } from 'drizzle-orm';`,
      `import { and as both, eq } from 'drizzle-orm';`,
      `import * as d from 'drizzle-orm';`,
      `import { alias } from 'drizzle-orm/pg-core';`,
      'const q = sql`SELECT 1`;',
      'const q = sql<number>`count(*)`;',
      'const q = d.sql`x`;',
      'const q = sql.raw(text);',
      'const q = sql.join(parts, sep);',
      `await client.query('BEGIN');`,
      `await pool.query<{ n: number }>(text, [1]);`,
      'await tx.execute(q);',
      'const r = await db.select({ n: x }).from(users);',
      'await this.db.insert(users).values(row);',
      'await deps.db\n  .update(users)\n  .set({ a: 1 });',
      'await tx.delete(users);',
      'await store.delete(users).where(eq(users.id, 1));',
      'const u = await db.query.users.findFirst();',
      'const s = `UPDATE events SET title = $1 WHERE id = $2`;',
      `const s = 'SELECT id FROM events';`,
      'const s = `WITH w AS (SELECT 1) SELECT * FROM w`;',
      'const s = `EXISTS (SELECT 1 FROM pg_locks l WHERE l.granted)`;',
      `const s = 'SELECT pg_try_advisory_lock($1) AS ok';`,
      `const s = 'SET LOCAL statement_timeout = 1000';`,
      `const s = \`COPY (\${inner}) TO STDOUT\`;`,
      `const s = 'CREATE INDEX x ON events (id)';`,
      `const s = \`LISTEN \${ch}\`;`,
    ])
      expect(found(src), src).toBeGreaterThan(0);
    for (const src of [
      `import type { SQL } from 'drizzle-orm';`,
      `import { type SQL } from 'drizzle-orm';`,
      'const s = z.string().min(1).max(10);',
      `hash.update(chunk); map.delete(key); set.delete('a');`,
      'await store.delete(key).catch(() => undefined);',
      'await repo.update(id, { a: 1 }, tx); await repo.insert(row, tx);',
      'await svc.update(p, actor, id, body); app.delete(url, opts, handler);',
      'const q = req.query; const v = q.select;',
      `const m = 'Выберите событие'; const t = 'Select a file from the list';`,
      '// SELECT id FROM events — a comment is not SQL',
      '/* await client.query(`BEGIN`) */',
      `const text = 'Обновите (UPDATE) список';`,
      `throw new Error('COPY binary: bad signature');`,
      `const m = 'Create a new view';`,
    ])
      expect(sqlSites('x.ts', src), src).toEqual([]);
  });

  it('no SQL outside repositories, db/ and the listed files', () => {
    const files = tsFiles(SRC);
    expect(files.length).toBeGreaterThan(150);
    const offenders: string[] = [];
    const allowedHits = new Set<string>();
    for (const f of files) {
      const rel = path.relative(SRC, f).split(path.sep).join('/');
      if (isSqlPlace(rel)) continue;
      const sites = sqlSites(rel, readFileSync(f, 'utf8'));
      if (!sites.length) continue;
      if (rel in ALLOWED) allowedHits.add(rel);
      else offenders.push(`${rel} — ${sites.slice(0, 3).join('; ')}${sites.length > 3 ? ` (+${sites.length - 3})` : ''}`);
    }
    expect(offenders, 'SQL outside repositories: move it to a *.repo.ts / *.query.ts (or db/)').toEqual([]);
    expect(Object.keys(ALLOWED).length).toBeLessThanOrEqual(5);
    expect([...allowedHits].sort(), 'a listed file has no SQL any more: drop it from ALLOWED').toEqual(
      Object.keys(ALLOWED).sort(),
    );
  });
});
