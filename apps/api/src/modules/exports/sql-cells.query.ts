/*
 * The cells of an export computed by PostgreSQL, for `COPY (SELECT …) TO STDOUT`: the same text as
 * cells.ts produces in Node — Russian labels, dates dd.MM.yyyy (Moscow time, UTC+3), decimal comma
 * (CSV), card numbers masked, every text cell neutralised against formula injection — so that Node
 * only moves bytes. CSV rows come out as PostgreSQL's CSV; XLSX rows as ready SheetML `<row>` XML.
 *
 * Card numbers in clear need the vault (Node): such exports take the Node path (`sqlExportable`).
 *
 * COPY takes no bind parameters, so the statement is rendered with literals (`inlineParams`), quoted
 * as node-postgres would send them as parameters (text of unknown type).
 */
import { neutraliseCell } from '@forpost/contract/exports';
import {
  type FieldDescriptor,
  type FieldType,
  fieldOf,
  hasDecisions,
  ML_STATE_LABELS,
  type ModuleDescriptor,
  SOURCE_LABELS,
  WHITELIST_KIND_LABELS,
} from '@forpost/contract/modules';
import { SLA_STAGE_LABELS } from '@forpost/contract/sla';
import { prepareValue } from 'pg/lib/utils';
import type { Refs } from '../events/index';
import type { XlsxKind } from './copy-out';

/**
 * A SQL string literal. With a backslash inside it is an E'' literal (backslashes doubled), which
 * reads the same whatever `standard_conforming_strings` is; quotes are doubled in both forms.
 */
const lit = (s: string) =>
  s.includes('\\') ? `E'${s.replaceAll('\\', '\\\\').replaceAll("'", "''")}'` : `'${s.replaceAll("'", "''")}'`;

/** `$1`, `$2`… of a rendered query replaced with literals (values as node-postgres serialises parameters). */
export function inlineParams(text: string, params: readonly unknown[]): string {
  return text.replace(/\$(\d+)/g, (_, n: string) => {
    const v = prepareValue(params[Number(n) - 1]);
    return v === null || v === undefined ? 'NULL' : lit(String(v));
  });
}

/**
 * `x` neutralised like neutraliseCell(): an apostrophe in front when it starts (after spaces) with
 * = + - @ tab or CR. The cheap first-character tests (ascii below 'A', then = + - @ space tab CR) keep
 * the regex off almost every cell; the single comparison first saves 7 % of a CSV export's query
 * (letters and Cyrillic fail it at once instead of going through the list).
 */
const neutralSql = (x: string) =>
  `CASE WHEN ascii(${x}) < 65 AND ascii(${x}) IN (61, 43, 45, 64, 32, 9, 13) AND ${x} ~ '^ *[-=+@\\t\\r]' THEN '''' || ${x} ELSE ${x} END`;

/** A label map as a CASE over `x` (labels neutralised here, once); unknown values are neutralised as they are. */
function labelCase(x: string, labels: Iterable<[string | number, string]>, numeric = false): string {
  const whens = [...labels].map(([k, v]) => `WHEN ${numeric ? Number(k) : lit(String(k))} THEN ${lit(neutraliseCell(v))}`);
  return whens.length ? `CASE ${x} ${whens.join(' ')} END` : 'NULL::text';
}

const MSK = (x: string) => `to_char((${x} AT TIME ZONE 'UTC') + interval '3 hours', 'DD.MM.YYYY HH24:MI')`;

/**
 * How a field's raw value (middle query, text) becomes the cell (outer query):
 * - `text`: neutralised there; `ready`: already final text (labels, dates);
 * - `number`: always a number (id); `tagged`: 'n…' number or 's…' text to neutralise.
 * `cols`: what the raw value reads from the innermost (ordered) query, whose rows are aliased `e`:
 * plain columns, the names of the company and author, and each `data` key extracted once — a cell
 * that tests a key's type and then formats its text would otherwise look the key up 3–5 times per row.
 */
type Kind = 'text' | 'ready' | 'number' | 'tagged';
interface SqlField {
  raw: string;
  kind: Kind;
  cols: string[];
}

/** Can this export be produced by PostgreSQL? (Card numbers shown in clear need the vault.) */
export function sqlExportable(m: ModuleDescriptor, keys: readonly string[], revealScope: readonly number[] | null): boolean {
  const cards = keys.some((k) => fieldOf(m, k)?.sensitive === 'card');
  return !cards || (revealScope !== null && revealScope.length === 0);
}

/** A reference id column (status, priority, decision) as its item's name. */
const refLabel = (col: string, items: readonly { id: number; name: string }[]): SqlField => ({
  raw: labelCase(
    `e.${col}`,
    items.map((i) => [i.id, i.name]),
    true,
  ),
  kind: 'ready',
  cols: [`e.${col}`],
});

/** A code column as its Russian label; a code without one as it is (`value`, neutralised). */
const codeLabel = (col: string, labels: Record<string, string>, value = `e.${col}`): SqlField => ({
  raw: `coalesce(${labelCase(`e.${col}`, Object.entries(labels))}, ${neutralSql(value)})`,
  kind: 'ready',
  cols: [`e.${col}`],
});

const NONE: SqlField = { raw: 'NULL::text', kind: 'ready', cols: [] };

function commonField(m: ModuleDescriptor, key: string, refs: Refs): SqlField | undefined {
  switch (key) {
    case 'id':
    case 'import_id':
      return { raw: `e.${key}::text`, kind: 'number', cols: [`e.${key}`] };
    case 'company_id':
      return { raw: 'e.company_name', kind: 'text', cols: ['c.name AS company_name'] };
    case 'title':
      return { raw: "NULLIF(e.title, '')", kind: 'text', cols: ['e.title'] };
    case 'status_id':
      return refLabel('status_id', refs.statuses(m.code));
    case 'priority_id':
      return refLabel('priority_id', refs.priorities(m.code));
    case 'decision_id':
      return hasDecisions(m) ? refLabel('decision_id', refs.decisions(m.code)) : NONE;
    case 'source':
      return codeLabel('source', SOURCE_LABELS);
    case 'ml_state':
      return codeLabel('ml_state', ML_STATE_LABELS);
    case 'whitelist_kind':
      return codeLabel('whitelist_kind', WHITELIST_KIND_LABELS, "NULLIF(e.whitelist_kind, '')");
    case 'tags':
      return {
        raw: `(SELECT string_agg(coalesce(t.name, '#' || x.id), ', ' ORDER BY x.ord) FROM unnest(e.tags) WITH ORDINALITY AS x(id, ord) LEFT JOIN tags t ON t.id = x.id)`,
        kind: 'text',
        cols: ['e.tags'],
      };
    case 'detected_at':
    case 'created_at':
    case 'updated_at':
      return { raw: MSK(`e.${key}`), kind: 'ready', cols: [`e.${key}`] };
    case 'author_id':
      return { raw: 'e.author_name', kind: 'text', cols: ['u.name AS author_name'] };
    case 'assignee_id':
      return { raw: 'e.assignee_name', kind: 'text', cols: ['a.name AS assignee_name'] };
    case 'sla_due_at':
      return { raw: MSK('e.sla_due_at'), kind: 'ready', cols: ['e.sla_due_at'] };
    case 'sla_stage':
      return codeLabel('sla_stage', SLA_STAGE_LABELS);
    case 'sla_overdue':
      // slaOverdue: strictly after the deadline; now() is the export's one instant (its transaction's start).
      return { raw: "CASE WHEN e.sla_due_at < now() THEN 'Да' ELSE 'Нет' END", kind: 'ready', cols: ['e.sla_due_at'] };
  }
  return undefined;
}

const REF_TABLES: Record<string, string> = { leak_types: 'leak_types', media_types: 'media_types', leaks: 'leaks' };

/** The names a field's SQL reads: `t` its text, `j` its jsonb, `y` its jsonb type, and the columns selecting them. */
interface Cols {
  k: string;
  t: string;
  j: string;
  y: string;
  T: string;
  J: string;
  Y: string;
}
type SqlCell = (c: Cols, f: FieldDescriptor, n: number) => SqlField;
const asText: SqlCell = (c) => ({ raw: `NULLIF(${c.t}, '')`, kind: 'text', cols: [c.T] });
const tagged: SqlCell = ({ t, y, T, Y }) => ({
  raw: `CASE WHEN ${y} = 'number' THEN 'n' || ${t} WHEN ${t} <> '' THEN 's' || ${t} END`,
  kind: 'tagged',
  cols: [Y, T],
});

/** A module field's SQL cell, per field type. */
const SQL_CELLS: Record<FieldType, SqlCell> = {
  string: asText,
  text: asText,
  domain: asText,
  host: asText,
  url: asText,
  email: asText,
  ip: asText,
  phone: asText,
  inn: asText,
  ogrn: asText,
  card: ({ y, Y }, f, n) => ({
    raw: `CASE WHEN ${y} = 'string' THEN NULLIF(e.k${n}_m, '') END`,
    kind: 'text',
    cols: [Y, `e.data ->> ${lit(`${f.key}_mask`)} AS k${n}_m`],
  }),
  integer: tagged,
  number: tagged,
  boolean: ({ j, J }) => ({
    raw: `CASE ${j} WHEN 'true'::jsonb THEN 'Да' WHEN 'false'::jsonb THEN 'Нет' END`,
    kind: 'ready',
    cols: [J],
  }),
  date: ({ t, y, T, Y }) => ({
    raw: `CASE WHEN ${y} = 'string' THEN CASE WHEN translate(left(${t}, 10), '0123456789', '9999999999') = '9999-99-99' THEN substr(${t}, 9, 2) || '.' || substr(${t}, 6, 2) || '.' || left(${t}, 4) ELSE NULLIF(${t}, '') END END`,
    kind: 'text',
    cols: [Y, T],
  }),
  datetime: ({ t, y, T, Y }) => ({
    raw: `CASE WHEN ${y} = 'string' AND pg_input_is_valid(${t}, 'timestamptz') THEN ${MSK(`${t}::timestamptz`)} END`,
    kind: 'ready',
    cols: [Y, T],
  }),
  enum: ({ t, y, T, Y }, f) => {
    const labels = labelCase(
      t,
      (f.options ?? []).map((o) => [o.value, o.label]),
    );
    return {
      raw: `CASE WHEN ${y} <> 'null' THEN coalesce(${labels}, ${neutralSql(`NULLIF(${t}, '')`)}) END`,
      kind: 'ready',
      cols: [Y, T],
    };
  },
  ref: ({ t, y, T, Y }, f) => {
    const table = f.ref ? REF_TABLES[f.ref] : undefined;
    if (!table) return { raw: `CASE WHEN ${y} = 'number' THEN ${t} END`, kind: 'text', cols: [Y, T] };
    return {
      raw: `CASE WHEN ${y} = 'number' THEN coalesce((SELECT r.name FROM ${table} r WHERE r.id = trunc(${t}::numeric)::bigint AND r.id = ${t}::numeric), ${t}) END`,
      kind: 'text',
      cols: [Y, T],
    };
  },
  string_list: ({ y, j, Y, J }) => ({
    raw: `CASE WHEN ${y} = 'array' THEN NULLIF((SELECT string_agg(x, ', ') FROM jsonb_array_elements_text(${j}) AS x), '') END`,
    kind: 'text',
    cols: [Y, J],
  }),
};

/** Field `f` (the `n`-th selected) from its `data` key, read once by the innermost query: as text, jsonb or its type. */
function moduleField(f: FieldDescriptor, n: number): SqlField {
  const k = lit(f.key);
  const cols: Cols = {
    k,
    t: `e.k${n}_t`,
    j: `e.k${n}_j`,
    y: `e.k${n}_y`,
    T: `e.data ->> ${k} AS k${n}_t`,
    J: `e.data -> ${k} AS k${n}_j`,
    Y: `jsonb_typeof(e.data -> ${k}) AS k${n}_y`,
  };
  return SQL_CELLS[f.type](cols, f, n);
}

export interface ExportQueryParts {
  /** FROM … WHERE … (aliases e, c, u), rendered with literals. */
  fromWhere: string;
  /** ORDER BY expression list, rendered with literals. */
  order: string;
}

/**
 * The rows of an export (aliases e, c, u — the author, a — the assignee): both paths read them. A join
 * whose columns no field reads is removed by the planner (a LEFT JOIN on a primary key).
 */
export const exportFrom =
  'FROM events e JOIN companies c ON c.id = e.company_id LEFT JOIN users u ON u.id = e.author_id LEFT JOIN users a ON a.id = e.assignee_id';

/** What the Node path reads per row (cells.ts formats it): the columns of `ExportRow`. */
export const NODE_ROW_COLUMNS = `e.id, e.company_id, c.name AS company_name, e.title, e.status_id, e.priority_id, e.decision_id, e.source,
  e.ml_state, e.whitelist_kind, e.tags, e.data, (extract(epoch FROM e.detected_at) * 1000)::bigint AS detected_at,
  (extract(epoch FROM e.created_at) * 1000)::bigint AS created_at, (extract(epoch FROM e.updated_at) * 1000)::bigint AS updated_at,
  e.author_id, u.name AS author_name, e.import_id, e.assignee_id, a.name AS assignee_name,
  (extract(epoch FROM e.sla_due_at) * 1000)::bigint AS sla_due_at, e.sla_stage, coalesce(e.sla_due_at < now(), false) AS sla_overdue`;

function fieldsOf(m: ModuleDescriptor, keys: readonly string[], refs: Refs): SqlField[] {
  return keys.map((key, n) => {
    const common = commonField(m, key, refs);
    if (common) return common;
    const f = fieldOf(m, key);
    return f ? moduleField(f, n) : NONE;
  });
}

/**
 * The three levels of an export's SELECT, each kept apart by `OFFSET 0` (so that PostgreSQL
 * computes every value once instead of inlining it into each use): the selected rows in order with
 * what the cells read (`e`), the cells' raw values (`s`), and `outer` — the final cells over `s.c0…`.
 */
function layered(fs: readonly SqlField[], outer: readonly string[], q: ExportQueryParts): string {
  const cols = [...new Set(fs.flatMap((f) => f.cols))];
  const inner = fs.map((f, i) => `${f.raw} AS c${i}`).join(', ');
  return `SELECT ${outer.join(', ')} FROM (SELECT ${inner} FROM (SELECT ${cols.join(', ')} ${q.fromWhere} ORDER BY ${q.order} OFFSET 0) e OFFSET 0) s`;
}

/** `COPY (…) TO STDOUT` of the rows as CSV (`;`, PostgreSQL's quoting; line ends and BOM are Node's). */
export function csvCopySql(m: ModuleDescriptor, keys: readonly string[], refs: Refs, q: ExportQueryParts): string {
  const fs = fieldsOf(m, keys, refs);
  const outer = fs.map((f, i) => {
    const c = `s.c${i}`;
    switch (f.kind) {
      case 'text':
        return neutralSql(c);
      case 'tagged':
        return `CASE WHEN left(${c}, 1) = 'n' THEN replace(substr(${c}, 2), '.', ',') ELSE ${neutralSql(`substr(${c}, 2)`)} END`;
      default:
        return c; // number, ready
    }
  });
  return `COPY (${layered(fs, outer, q)}) TO STDOUT WITH (FORMAT csv, DELIMITER ';')`;
}

/** XML-escaped text. Characters XML cannot carry at all (C0 controls) are removed by Node from the row bytes (stripXmlInvalid). */
const xmlEsc = (x: string) => `replace(replace(replace(${x}, '&', '&amp;'), '<', '&lt;'), '>', '&gt;')`;

/**
 * `COPY (…) TO STDOUT (FORMAT binary)` of the cells as XML-escaped text, one column per field; Node
 * puts the SheetML markup around them (XlsxRowBuilder). `kinds` says which columns are numbers.
 */
export function xlsxCopySql(
  m: ModuleDescriptor,
  keys: readonly string[],
  refs: Refs,
  q: ExportQueryParts,
): { sql: string; kinds: XlsxKind[] } {
  const fs = fieldsOf(m, keys, refs);
  const kinds: XlsxKind[] = [];
  const cells = fs.map((f, i) => {
    const c = `s.c${i}`;
    switch (f.kind) {
      case 'text':
        kinds.push('s');
        return xmlEsc(neutralSql(c));
      case 'ready':
        kinds.push('s');
        return xmlEsc(c);
      case 'tagged':
        kinds.push('t');
        return `CASE WHEN left(${c}, 1) = 'n' THEN ${c} ELSE 's' || ${xmlEsc(neutralSql(`substr(${c}, 2)`))} END`;
      default:
        kinds.push('n');
        return c;
    }
  });
  return {
    sql: `COPY (${layered(fs, cells, q)}) TO STDOUT WITH (FORMAT binary)`,
    kinds,
  };
}
