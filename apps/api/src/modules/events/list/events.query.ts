/*
 * List filters and sorting → SQL over `events e`. Module fields live in `e.data` (jsonb); common
 * fields are columns with composite indexes (see the schema). Everything is parameterised.
 */
import { EVENT_MSG, type FieldDescriptor, type FieldType, fieldOf, type ModuleDescriptor } from '@forpost/contract/modules';
import { SLA_DUE_SOON_MINUTES, type SlaFilter } from '@forpost/contract/sla';
import { type SQL, sql } from 'drizzle-orm';
import { containing, intArray, textArray } from '../../../db/sql';
import { badRequest } from '../../../lib/errors';
import { type CardVault, hashKey, searchWords } from '../write/event-data';

type Query = Record<string, unknown>;

const NOT_NULL_COLUMNS: Record<string, SQL> = {
  id: sql`e.id`,
  title: sql`e.title`,
  status_id: sql`e.status_id`,
  source: sql`e.source`,
  ml_state: sql`e.ml_state`,
  created_at: sql`e.created_at`,
  updated_at: sql`e.updated_at`,
  company_id: sql`e.company_id`,
};
const NULLABLE_COLUMNS: Record<string, SQL> = {
  priority_id: sql`e.priority_id`,
  decision_id: sql`e.decision_id`,
  detected_at: sql`e.detected_at`,
  sla_due_at: sql`e.sla_due_at`,
};

const jsonText = (key: string) => sql`(e.data ->> ${key})`;

const isDateOnly = (s: string) => /^\d{4}-\d{2}-\d{2}$/.test(s);
const nextDay = (d: string) => new Date(Date.parse(`${d}T00:00:00Z`) + 86_400_000).toISOString();
const numericText = (key: string) => sql`(e.data ->> ${key})::numeric`;
const lowerEq = (key: string, v: string) => sql`lower(${jsonText(key)}) = ${v.toLowerCase()}`;
const numericEq = (key: string, v: string) => {
  const n = Number(v);
  if (!Number.isFinite(n)) throw badRequest(EVENT_MSG.number, { [key]: EVENT_MSG.number });
  return sql`${numericText(key)} = ${n}`;
};

/** The SQL of a module field in the list, per field type (in `data`, aliased `e`). */
interface FieldSql {
  /** The value as sorted and compared with numbers. */
  expr: (key: string) => SQL;
  /** The `eq` filter (the query's text). */
  eq: (key: string, v: string) => SQL;
  /** The `range` filter's bounds (`<key>_from`, `<key>_to`). */
  range: (key: string, from: unknown, to: unknown) => SQL[];
}
const numberRange =
  (expr: (key: string) => SQL) =>
  (key: string, from: unknown, to: unknown): SQL[] => [
    ...(typeof from === 'number' ? [sql`${expr(key)} >= ${from}`] : []),
    ...(typeof to === 'number' ? [sql`${expr(key)} <= ${to}`] : []),
  ];
const textSql: FieldSql = { expr: jsonText, eq: lowerEq, range: numberRange(jsonText) };
const numberSql: FieldSql = { expr: numericText, eq: numericEq, range: numberRange(numericText) };

const FIELD_SQL: Record<FieldType, FieldSql> = {
  string: textSql,
  text: textSql,
  domain: textSql,
  host: textSql,
  url: textSql,
  email: textSql,
  ip: textSql,
  phone: textSql,
  inn: textSql,
  ogrn: textSql,
  enum: textSql,
  string_list: textSql,
  card: textSql, // `eq` on a card compares its hash (moduleFieldFilter), the only filter it has
  integer: numberSql,
  number: numberSql,
  ref: { ...numberSql, eq: lowerEq },
  boolean: (() => {
    const expr = (key: string) => sql`(e.data ->> ${key})::boolean`;
    return { expr, eq: lowerEq, range: numberRange(expr) };
  })(),
  date: {
    ...textSql,
    range: (key, from, to) => [
      ...(typeof from === 'string' ? [sql`${jsonText(key)} >= ${from.slice(0, 10)}`] : []),
      ...(typeof to === 'string' ? [sql`${jsonText(key)} <= ${to.slice(0, 10)}`] : []),
    ],
  },
  datetime: {
    ...textSql,
    range: (key, from, to) => [
      ...(typeof from === 'string'
        ? [sql`${jsonText(key)} >= ${new Date(isDateOnly(from) ? `${from}T00:00:00Z` : from).toISOString()}`]
        : []),
      ...(typeof to === 'string'
        ? [isDateOnly(to) ? sql`${jsonText(key)} < ${nextDay(to)}` : sql`${jsonText(key)} <= ${new Date(to).toISOString()}`]
        : []),
    ],
  },
};

const fieldExpr = (f: FieldDescriptor): SQL => FIELD_SQL[f.type].expr(f.key);

/**
 * ORDER BY for `sort` ('-created_at', 'domain', …), always ending with `e.id` for a stable order.
 * Directions and NULLS placement match the indexes (DESC NULLS LAST, or its backward scan).
 */
export function orderBy(m: ModuleDescriptor, sort: string): SQL {
  const desc = sort.startsWith('-');
  const key = desc ? sort.slice(1) : sort;
  const idOrder = desc ? sql`e.id DESC NULLS LAST` : sql`e.id ASC NULLS FIRST`;
  if (key === 'id') return idOrder;
  const notNull = NOT_NULL_COLUMNS[key];
  if (notNull) return desc ? sql`${notNull} DESC NULLS LAST, ${idOrder}` : sql`${notNull} ASC NULLS FIRST, ${idOrder}`;
  const f = fieldOf(m, key);
  const expr = NULLABLE_COLUMNS[key] ?? (f ? fieldExpr(f) : undefined);
  if (!expr) throw badRequest(EVENT_MSG.sortUnknown, { sort: EVENT_MSG.sortUnknown });
  return desc ? sql`${expr} DESC NULLS LAST, ${idOrder}` : sql`${expr} ASC NULLS LAST, ${idOrder}`;
}

/** Sorts a list can page by cursor (`after`): created_at is never null and its indexes end with id. */
export const KEYSET_SORTS: readonly string[] = ['-created_at', 'created_at'];

/** The cursor of the page after `last` (the creation time exactly as PostgreSQL wrote it, and the id). */
export function keysetCursor(last: { created_at: Date | string; id: number | string }): string {
  const at = last.created_at instanceof Date ? last.created_at.toISOString() : last.created_at;
  return Buffer.from(`${at}|${last.id}`, 'utf8').toString('base64url');
}

const CURSOR_TIME = /^(\d{4})-(\d{2})-(\d{2})[ T]([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,6})?(Z|[+-]\d{2}(:\d{2})?)$/;

/** A timestamp PostgreSQL will read: the shape, and a day that exists in its month. */
function cursorTime(at: string): boolean {
  const m = CURSOR_TIME.exec(at);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const day = new Date(Date.UTC(y, mo - 1, d));
  return y >= 1 && day.getUTCFullYear() === y && day.getUTCMonth() === mo - 1 && day.getUTCDate() === d;
}

/**
 * The condition «after the cursor's event» in `sort`'s order — the row comparison that the
 * (…, created_at, id) indexes walk from, so page N costs what page 1 does. 400 for another sort or a
 * cursor this function did not make.
 */
export function afterCondition(sort: string, cursor: string): SQL {
  if (!KEYSET_SORTS.includes(sort)) throw badRequest(EVENT_MSG.cursorSort, { after: EVENT_MSG.cursorSort });
  const text = /^[A-Za-z0-9_-]+$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  const cut = text.lastIndexOf('|');
  const at = text.slice(0, cut);
  const id = Number(text.slice(cut + 1));
  if (cut < 0 || !cursorTime(at) || !Number.isSafeInteger(id) || id < 1)
    throw badRequest(EVENT_MSG.cursorInvalid, { after: EVENT_MSG.cursorInvalid });
  return sort.startsWith('-')
    ? sql`(e.created_at, e.id) < (${at}::timestamptz, ${id}::bigint)`
    : sql`(e.created_at, e.id) > (${at}::timestamptz, ${id}::bigint)`;
}

/** Most words one prefix expands into; beyond it the query keeps the GIN partial match. */
export const PREFIX_WORDS_MAX = 200;

/**
 * The last word as a prefix (`sber` → every indexed word that starts with it). The words are read
 * from `event_search_words` (the lexicon of `events.search`, kept by triggers — migration 0019) and
 * OR-ed as exact lexemes: a GIN partial match (`sber:*`) loads every posting list it covers into a
 * bitmap before intersecting them (3–5× slower on a frequent word), while exact entries go through
 * the GIN «fast scan», which skips along the rarest word. No word in the lexicon, or more than
 * PREFIX_WORDS_MAX → the partial match, which finds the same rows. Evaluated once per statement
 * (an InitPlan), in the statement's own snapshot.
 */
function prefixQuery(w: string): SQL {
  return sql`coalesce((
    SELECT string_agg('''' || replace(replace(s.word, '\\', '\\\\'), '''', '''''') || '''', ' | ')::tsquery
    FROM (SELECT DISTINCT x.word FROM event_search_words x WHERE x.word LIKE ${`${w}%`} LIMIT ${PREFIX_WORDS_MAX + 1}) s
    HAVING count(*) BETWEEN 1 AND ${PREFIX_WORDS_MAX}), to_tsquery('simple', ${`${w}:*`}))`;
}

/** Most words of a query that count; the rest is left out. */
const QUERY_WORDS_MAX = 8;

/**
 * Largest share of events whose words may start with a short prefix for the index to look the prefix
 * up. The share is the planner's: the sum of the frequencies of the table's most common search words
 * (`pg_stats.most_common_elems` of `events.search`, kept by ANALYZE/autovacuum) that start with it.
 * A GIN partial match reads the whole posting list of every word it covers — for all companies of the
 * module — before intersecting: `vtb-l` (`lk` and `login` are each in ≈ 6 % of the events) spent
 * 130–150 ms of its 155 ms count at 10 M events in the `l:*` bitmap, while the rows `vtb` alone finds
 * are few enough to check for the phrase. Below 1 % the partial match costs little and spares the
 * phrase check on rows where the short word is missing (`vtb-q`: no row to check at all).
 */
export const SHORT_PREFIX_COMMON_MAX = 0.01;

/**
 * A word of one or two letters being typed after others, for the index: a partial match (`l:*`) when
 * the lexicon has at most PREFIX_WORDS_MAX words that start with it (the partial match also covers
 * the words under three letters, which the lexicon leaves out) and they are not common
 * (SHORT_PREFIX_COMMON_MAX); otherwise nothing (an empty tsquery drops out of the conjunction), and
 * the rows the other words find are checked for the prefix (TextQuery.exact). A partial match of a
 * prefix that covers many or frequent words would read most of the index.
 */
function shortPrefixQuery(w: string): SQL {
  return sql`(SELECT CASE WHEN count(*) <= ${PREFIX_WORDS_MAX} AND (
      SELECT coalesce(sum(t.f), 0) FROM pg_stats st,
        unnest(st.most_common_elems::text::text[], st.most_common_elem_freqs) AS t(e, f)
      WHERE st.schemaname = current_schema() AND st.tablename = 'events' AND st.attname = 'search' AND t.e LIKE ${`${w}%`}
    ) < ${SHORT_PREFIX_COMMON_MAX} THEN to_tsquery('simple', ${`${w}:*`}) ELSE ''::tsquery END
    FROM (SELECT DISTINCT x.word FROM event_search_words x WHERE x.word LIKE ${`${w}%`} LIMIT ${PREFIX_WORDS_MAX + 1}) s)`;
}

/**
 * A free-text query `q` as the list runs it. The GIN index looks up `index`; the rows it finds are
 * checked against `exact` when the words alone do not say it all; `id` adds the event of that number.
 */
export interface TextQuery {
  /** Every word (all required): by its Russian/English stem or exactly; the word being typed as a prefix. */
  index: SQL;
  /**
   * The words as typed: a run of words joined by punctuation (`vtb-lk.ru`, `95.88.54`, `login.php`)
   * as a phrase — its words next to each other, in order — and the word being typed as a prefix
   * however short. Null when `index` says it all (words apart, no short word being typed).
   */
  exact: SQL | null;
  /** The event number `q` is (`601`, `№601`, `#601`): that event matches too. */
  id: string | null;
}

/** An event number as typed: digits, after `№` or `#` or alone. */
const EVENT_NUMBER = /^\s*[№#]?\s*(\d{1,18})\s*$/u;
const isNumber = (w: string) => /^\p{N}+$/u.test(w);
/** A word of a phrase: its stem or itself; the word being typed, anything it starts. */
const phraseWord = (w: string, typing: boolean) => {
  const exact = sql`to_tsquery('simple', ${typing ? `${w}:*` : w})`;
  return isNumber(w) ? exact : sql`(plainto_tsquery('russian', ${w}) || ${exact})`;
};

/**
 * `q` split like the indexed text (event-data searchWords): words apart (spaces) are each required
 * anywhere, words joined by anything else are a phrase, the last word — unless a separator follows
 * it — is being typed (search as you type: `vtb-l` finds vtb-lk.ru, `95.88.5` finds 95.88.54.16).
 *
 * The index: each word by its stem or exactly (a number exactly). The word being typed: from three
 * letters, also every lexicon word it starts (prefixQuery); of one or two, a partial match when the
 * lexicon says it covers few words (shortPrefixQuery); a number of three digits or more by a partial
 * match (numbers are not in the lexicon); shorter — left to `exact`. A word alone is a whole word: a lone number is
 * that number exactly (an event number, a number in the text), a lone one- or two-letter word too.
 */
export function textQueryOf(q: string): TextQuery | null {
  const groups: string[][] = [];
  let room = QUERY_WORDS_MAX;
  for (const token of q.split(/\s+/)) {
    if (room <= 0) break;
    const ws = searchWords(token)
      .slice(0, room)
      .map((w) => w.slice(0, 64));
    if (ws.length) groups.push(ws);
    room -= ws.length;
  }
  const words = groups.flat();
  if (!words.length) return null;
  const typing = words.length === searchWords(q).length && /[\p{L}\p{N}]$/u.test(q.trimEnd());
  const last = words.length - 1;
  const lastWord = words[last] as string;
  const stemOrPrefix = (w: string) => sql`(plainto_tsquery('russian', ${w}) || ${prefixQuery(w)})`;
  const terms = new Map<string, SQL>();
  words.forEach((w, i) => {
    const num = isNumber(w);
    if (i < last || !typing || words.length === 1) {
      // A whole word (also a lone word being typed: a number exactly; a prefix from three letters).
      if (num) terms.set(w, sql`to_tsquery('simple', ${w})`);
      else if (i === last && typing && w.length >= 3) terms.set(`${w}:*`, stemOrPrefix(w));
      else terms.set(w, sql`(plainto_tsquery('russian', ${w}) || to_tsquery('simple', ${w}))`);
    } else if (num) {
      if (w.length >= 3) terms.set(`${w}:*`, sql`to_tsquery('simple', ${`${w}:*`})`);
    } else if (w.length >= 3) terms.set(`${w}:*`, stemOrPrefix(w));
    else terms.set(`${w}:*`, shortPrefixQuery(w));
  });
  // A short word being typed after others: the index may not have looked it up.
  const shortLast = typing && words.length > 1 && lastWord.length < 3;
  const lastGroup = groups.length - 1;
  const phrases = groups.flatMap((g, gi) =>
    g.length > 1 || (shortLast && gi === lastGroup)
      ? [
          sql`(${sql.join(
            g.map((w, i) => phraseWord(w, typing && gi === lastGroup && i === g.length - 1)),
            sql` <-> `,
          )})`,
        ]
      : [],
  );
  return {
    index: sql.join([...terms.values()], sql` && `),
    exact: phrases.length ? sql.join(phrases, sql` && `) : null,
    id: EVENT_NUMBER.exec(q)?.[1] ?? null,
  };
}

/**
 * The tsqueries of a text query evaluated once (events.repo resolveQuery: the prefixes expanded,
 * inlined as constants), for the statements of one request.
 */
export async function resolveText(t: TextQuery, resolve: (query: SQL) => Promise<SQL>): Promise<TextQuery> {
  const [index, exact] = await Promise.all([resolve(t.index), t.exact ? resolve(t.exact) : null]);
  return { index, exact, id: t.id };
}

/**
 * Events that match a text query. `exact` is checked through the function behind `@@`
 * (ts_match_vq), which no index takes: the index looks up the words, and the phrase with its short
 * prefix is checked on the rows it found — a GIN partial match of `l:*` would read most of it.
 */
export function matching(t: TextQuery): SQL {
  const words = t.exact
    ? sql`(e.search @@ (${t.index}) AND ts_match_vq(e.search, (SELECT ${t.exact})))`
    : sql`e.search @@ (${t.index})`;
  return t.id ? sql`(${words} OR e.id = ${t.id}::bigint)` : words;
}

/** The free-text condition of a list (`q`), or null when `q` has no words. */
function textCondition(q: unknown): SQL | null {
  const t = typeof q === 'string' ? textQueryOf(q) : null;
  return t ? matching(t) : null;
}

/**
 * Sorts that a btree index delivers in order (created_at both ways — ascending as a backward scan —
 * and detected_at descending). A search sorted so takes its first page from an ordered walk
 * (events.repo searchList); with any other sort every match is read and sorted.
 */
export const orderedSort = (sort: string) => sort === '-created_at' || sort === 'created_at' || sort === '-detected_at';

/**
 * The vector stored in `events.search` for a text (both configurations: stemmed and exact words): a
 * value, or a text column of a batch (`sql\`v.search\``).
 */
export const searchVector = (text: string | SQL) => sql`(to_tsvector('russian', ${text}) || to_tsvector('simple', ${text}))`;

/** `_from` inclusive; `_to` inclusive of the whole day when only a date is given. */
function timeRange(col: SQL, from: unknown, to: unknown): SQL[] {
  const out: SQL[] = [];
  if (typeof from === 'string')
    out.push(sql`${col} >= ${new Date(isDateOnly(from) ? `${from}T00:00:00Z` : from).toISOString()}::timestamptz`);
  if (typeof to === 'string')
    out.push(
      isDateOnly(to) ? sql`${col} < ${nextDay(to)}::timestamptz` : sql`${col} <= ${new Date(to).toISOString()}::timestamptz`,
    );
  return out;
}

const anyInt = (col: SQL, ids: number[]) => (ids.length === 1 ? sql`${col} = ${ids[0]}` : sql`${col} = ANY(${intArray(ids)})`);
const anyText = (col: SQL, values: string[]) =>
  values.length === 1 ? sql`${col} = ${values[0]}` : sql`${col} = ANY(${textArray(values)})`;

function moduleFieldFilter(f: FieldDescriptor, q: Query, vault: CardVault): SQL[] {
  const out: SQL[] = [];
  const v = q[f.key];
  switch (f.filter) {
    case 'eq': {
      if (typeof v !== 'string') break;
      if (f.sensitive === 'card') out.push(sql`${jsonText(hashKey(f.key))} = ${vault.hash(v.replace(/[\s-]/g, ''))}`);
      else out.push(FIELD_SQL[f.type].eq(f.key, v));
      break;
    }
    case 'contains':
      if (typeof v === 'string') out.push(sql`${jsonText(f.key)} ILIKE ${containing(v)}`);
      break;
    case 'in':
      if (Array.isArray(v) && v.length) out.push(anyText(jsonText(f.key), v.map(String)));
      break;
    case 'bool':
      if (typeof v === 'boolean') out.push(sql`e.data @> ${JSON.stringify({ [f.key]: v })}::jsonb`);
      break;
    case 'range': {
      out.push(...FIELD_SQL[f.type].range(f.key, q[`${f.key}_from`], q[`${f.key}_to`]));
      break;
    }
  }
  return out;
}

/**
 * `assignee`: `me` (the caller: `me`; nobody for a caller without a user), `none` (unassigned) or a
 * user id. A given user goes by the partial index `events_assignee_created_idx`.
 */
function assigneeCondition(v: unknown, me: number | null): SQL | null {
  if (v === 'none') return sql`e.assignee_id IS NULL`;
  if (v === 'me') return me === null ? sql`false` : sql`e.assignee_id = ${me}`;
  return typeof v === 'number' ? sql`e.assignee_id = ${v}` : null;
}

/**
 * Conditions for one set of filters (the list's own, or one rule of `rules`). `skipText` leaves the
 * free text `q` out (the list's search plan takes it separately: events.repo searchList).
 */
export function filterConditions(
  m: ModuleDescriptor,
  q: Query,
  vault: CardVault,
  opts: { skipStatus?: boolean; skipText?: boolean; me?: number | null } = {},
): SQL[] {
  const w: SQL[] = [];
  const ints = (k: string) => (Array.isArray(q[k]) && (q[k] as unknown[]).length ? (q[k] as number[]) : null);
  const texts = (k: string) => (Array.isArray(q[k]) && (q[k] as unknown[]).length ? (q[k] as string[]) : null);
  const status = ints('status');
  if (status && !opts.skipStatus) w.push(anyInt(sql`e.status_id`, status));
  const priority = ints('priority');
  if (priority) w.push(anyInt(sql`e.priority_id`, priority));
  const decision = ints('decision');
  if (decision) w.push(anyInt(sql`e.decision_id`, decision));
  const source = texts('source');
  if (source) w.push(anyText(sql`e.source`, source));
  const ml = texts('ml_state');
  if (ml) w.push(anyText(sql`e.ml_state`, ml));
  const wl = texts('whitelist_kind');
  if (wl) {
    const kinds = wl.filter((k) => k !== 'none');
    const parts: SQL[] = [];
    if (kinds.length) parts.push(anyText(sql`e.whitelist_kind`, kinds));
    if (wl.includes('none')) parts.push(sql`e.whitelist_kind IS NULL`);
    w.push(sql`(${sql.join(parts, sql` OR `)})`);
  }
  const tagIds = ints('tags');
  if (tagIds) w.push(sql`e.tags && ${intArray(tagIds)}`);
  w.push(...timeRange(sql`e.created_at`, q.created_from, q.created_to));
  w.push(...timeRange(sql`e.detected_at`, q.detected_from, q.detected_to));
  if (typeof q.import_id === 'number') w.push(sql`e.import_id = ${q.import_id}`);
  if (typeof q.author_id === 'number') w.push(sql`e.author_id = ${q.author_id}`);
  const sla = texts('sla');
  if (sla) w.push(slaCondition(sla as SlaFilter[], new Date()));
  const assignee = assigneeCondition(q.assignee, opts.me ?? null);
  if (assignee) w.push(assignee);
  if (typeof q.indicator === 'string') w.push(sql`e.indicators @> ${textArray([q.indicator])}`);
  const text = opts.skipText ? null : textCondition(q.q);
  if (text) w.push(text);
  for (const f of m.fields) if (f.filter) w.push(...moduleFieldFilter(f, q, vault));
  return w;
}

/**
 * `sla=`: the pending deadline as of `now` — overdue: now > due (contract slaOverdue); due soon: within
 * SLA_DUE_SOON_MINUTES; on track: later; none: no pending deadline (resolved, or no policy). Range
 * conditions on `sla_due_at` (indexes events_*_sla_idx, events_sla_due_idx).
 */
export function slaCondition(filters: readonly SlaFilter[], now: Date): SQL {
  const at = now.toISOString();
  const soon = new Date(now.getTime() + SLA_DUE_SOON_MINUTES * 60_000).toISOString();
  const one: Record<SlaFilter, SQL> = {
    overdue: sql`e.sla_due_at < ${at}::timestamptz`,
    due_soon: sql`(e.sla_due_at >= ${at}::timestamptz AND e.sla_due_at <= ${soon}::timestamptz)`,
    on_track: sql`e.sla_due_at > ${soon}::timestamptz`,
    none: sql`e.sla_due_at IS NULL`,
  };
  const parts = [...new Set(filters)].map((f) => one[f]);
  return parts.length === 1 ? (parts[0] as SQL) : sql`(${sql.join(parts, sql` OR `)})`;
}

/** Re-exported for the engine's callers: the helpers live with the database code. */
export { and, textArray } from '../../../db/sql';
