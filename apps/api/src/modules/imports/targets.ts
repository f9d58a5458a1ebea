/*
 * What an import writes into: the events of a module, or the leaks catalogue. Each target turns a
 * file row into a validated record (or Russian reasons per column) and writes a batch of records
 * inside the job's transaction: dedup by the module's fingerprint (catalogue: the name), existing
 * rows updated or skipped per the import's mode, never duplicated.
 */
import {
  IMPORT_MSG,
  type ImportField,
  type ImportMode,
  importFieldsOf,
  LEAK_CATALOGUE_FIELDS,
  leakCatalogueImportFields,
} from '@forpost/contract/imports';
import {
  EVENT_MSG,
  type FieldDescriptor,
  fieldOf,
  hasDecisions,
  ML_STATE_LABELS,
  type ModuleDescriptor,
  optionsOf,
  SOURCE_LABELS,
} from '@forpost/contract/modules';
import { type SQL, sql } from 'drizzle-orm';
import type pg from 'pg';
import type { Db } from '../../db/client';
import { ApiError } from '../../lib/errors';
import { applyInput, type CardVault, fingerprintOf, historyValue, searchTextOf } from '../events/event-data';
import type { HistoryEntry } from '../events/events.repo';
import { MODULE_DISABLED_MSG as MODULE_DISABLED, moduleEnabled } from '../events/events.service';
import type { CreateGuards, WhitelistKindFor } from '../events/hooks';
import type { Refs } from '../events/refs';
import { matchOption, type NameIndex, nameIndex, optionList, parseDateTime, parseField } from './cells';
import type { SourceRow } from './rows';

export interface RowError {
  row: number;
  /** Column index in the file (null: the row as a whole). */
  col: number | null;
  column: string | null;
  value: string | null;
  message: string;
}

export interface ImportContext {
  importId: number;
  mode: ImportMode;
  /** The company chosen at start (rows may name another in a company column). */
  defaultCompanyId: number | null;
  authorId: number | null;
  authorKeyId: number | null;
  /** Companies the author may import into. */
  scope: 'all' | number[];
}

export interface WriteResult {
  created: number;
  updated: number;
  skipped: number;
  errors: RowError[];
}

/** A transaction of the job: raw queries (array parameters) and drizzle on the same connection. */
export interface Tx {
  client: pg.PoolClient;
  db: Db;
}

export interface Target<P = unknown, L = unknown> {
  fields: ImportField[];
  /** The table written, and the statement refreshing its statistics during a big load. */
  table: string;
  analyze: string;
  loadLookups(db: Db, ctx: Pick<ImportContext, 'scope'>): Promise<L>;
  /** A file row → a record to write, or its errors. */
  prepare(
    r: SourceRow,
    mapping: readonly (string | null)[],
    headers: readonly string[],
    lookups: L,
    ctx: ImportContext,
  ): { record?: P; errors: RowError[] };
  /** Work on a batch that needs no transaction (lookups), done before the batch's transaction opens. */
  enrich?(db: Db, records: P[]): Promise<void>;
  write(tx: Tx, records: P[], ctx: ImportContext): Promise<WriteResult>;
  /** Removes what the import created; returns how many. */
  undo(tx: Tx, importId: number): Promise<number>;
}

const q = async <T>(client: pg.PoolClient, text: string, values: unknown[]) => (await client.query(text, values)).rows as T[];

// ---------------------------------------------------------------------------
// Events of a module
// ---------------------------------------------------------------------------

interface EventLookups {
  companies: NameIndex;
  /** Companies with a list of enabled modules that does not include this one. */
  disabled: Set<number>;
  tags: NameIndex;
  refs: Partial<Record<string, NameIndex>>;
}

interface EventRecord {
  row: number;
  companyId: number;
  /** Module input (plain values) — only the cells that had a value. */
  input: Record<string, unknown>;
  title?: string;
  statusId?: number;
  priorityId?: number;
  decisionId?: number;
  source?: string;
  mlState?: string;
  tags?: number[];
  detectedAt?: string;
  fingerprint: string;
  /** Stored data of a new event (sealed, derived). */
  data: Record<string, unknown>;
  /** Whitelist mark of a new event (set by `enrich`; undefined = not looked up yet). */
  whitelistKind?: string | null;
  /** No whitelist entry can match this row's company (nothing to look up). */
  noWhitelist?: boolean;
}

interface ExistingEvent {
  id: number;
  company_id: number;
  fingerprint: string;
  title: string;
  status_id: number;
  priority_id: number | null;
  decision_id: number | null;
  source: string;
  ml_state: string;
  whitelist_kind: string | null;
  tags: number[];
  data: Record<string, unknown>;
  detected_at: Date | null;
}

export interface EventTargetDeps {
  refs: Refs;
  vault: CardVault;
  guards: CreateGuards;
  whitelistKindFor: WhitelistKindFor;
}

const SOURCE_OPTIONS = optionsOf(SOURCE_LABELS);
const ML_OPTIONS = optionsOf(ML_STATE_LABELS);
const iso = (d: Date | string | null | undefined) => (d == null ? null : new Date(d).toISOString());
const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
const sortedInts = (a: readonly number[]) => [...a].sort((x, y) => x - y);
const pgIntArray = (a: readonly number[]) => `{${a.map((n) => Math.trunc(n)).join(',')}}`;
/** Whitelist lookups of one batch running at once (each is a query on the pool). */
const WHITELIST_CONCURRENCY = 6;

async function refIndexes(db: Db, fields: readonly FieldDescriptor[]): Promise<Partial<Record<string, NameIndex>>> {
  const out: Partial<Record<string, NameIndex>> = {};
  for (const f of fields) {
    if (f.type !== 'ref' || !f.ref || out[f.ref]) continue;
    const query: SQL =
      f.ref === 'leak_types'
        ? sql`SELECT id, name, code FROM leak_types`
        : f.ref === 'media_types'
          ? sql`SELECT id, name, NULL AS code FROM media_types`
          : sql`SELECT id, name, NULL AS code FROM leaks`;
    const rows = (await db.execute(query)).rows as { id: number; name: string; code: string | null }[];
    out[f.ref] = nameIndex(rows.map((r) => ({ id: r.id, names: [r.name, r.code] })));
  }
  return out;
}

function byCode(list: readonly { id: number; code: string; name: string }[], raw: string): number | undefined {
  const t = raw.trim().toLowerCase();
  if (/^\d+$/.test(t)) return list.find((x) => x.id === Number(t))?.id;
  return list.find((x) => x.name.toLowerCase() === t || x.code.toLowerCase() === t)?.id;
}

export function eventTarget(m: ModuleDescriptor, deps: EventTargetDeps): Target<EventRecord, EventLookups> {
  const fields = importFieldsOf(m);
  const required = fields.filter((f) => f.required);
  const { refs, vault } = deps;

  return {
    fields,
    table: 'events',
    // Only what the dedup lookup's plan depends on (plus the table's size): the full ANALYZE also
    // samples the search vectors and JSON data, several times dearer.
    analyze: 'ANALYZE events (company_id, module, fingerprint)',

    async loadLookups(db, ctx) {
      const scope = ctx.scope;
      const companies = (
        await db.execute(
          scope === 'all'
            ? sql`SELECT id, name, modules FROM companies`
            : sql`SELECT id, name, modules FROM companies WHERE id = ANY(${pgIntArray(scope)}::int[])`,
        )
      ).rows as { id: number; name: string; modules: string[] | null }[];
      const tags = (await db.execute(sql`SELECT id, name FROM tags`)).rows as { id: number; name: string }[];
      return {
        companies: nameIndex(companies.map((c) => ({ id: c.id, names: [c.name] }))),
        disabled: new Set(companies.filter((c) => !moduleEnabled(c.modules, m.code)).map((c) => c.id)),
        tags: nameIndex(tags.map((t) => ({ id: t.id, names: [t.name] }))),
        refs: await refIndexes(db, m.fields),
      };
    },

    prepare(r, mapping, headers, lookups, ctx) {
      const errors: RowError[] = [];
      const rec: Partial<EventRecord> & { input: Record<string, unknown> } = { row: r.row, input: Object.create(null) };
      const seen = new Set<string>();
      let companyId = ctx.defaultCompanyId;
      const err = (col: number | null, message: string) =>
        errors.push({
          row: r.row,
          col,
          column: col === null ? null : (headers[col] ?? null),
          value: col === null ? null : (r.cells[col] ?? ''),
          message,
        });

      for (let i = 0; i < mapping.length; i++) {
        const key = mapping[i];
        if (!key) continue;
        seen.add(key);
        const raw = r.cells[i] ?? '';
        if (raw === '') {
          if (fields.find((f) => f.key === key)?.required) err(i, IMPORT_MSG.required);
          continue;
        }
        switch (key) {
          case 'company_id': {
            const t = raw.trim().toLowerCase();
            const id =
              lookups.companies.byName.get(t) ??
              (/^\d+$/.test(t) && lookups.companies.ids.has(Number(t)) ? Number(t) : undefined);
            if (id === undefined) err(i, IMPORT_MSG.companyUnknown);
            else companyId = id;
            break;
          }
          case 'title':
            if (raw.length > 500) err(i, IMPORT_MSG.titleTooLong);
            else rec.title = raw;
            break;
          case 'status_id': {
            const id = byCode(refs.statuses(m.code), raw);
            if (id === undefined) err(i, IMPORT_MSG.unknownStatus);
            else rec.statusId = id;
            break;
          }
          case 'priority_id': {
            const id = byCode(refs.priorities(m.code), raw);
            if (id === undefined) err(i, IMPORT_MSG.unknownPriority);
            else rec.priorityId = id;
            break;
          }
          case 'decision_id': {
            const id = hasDecisions(m) ? byCode(refs.decisions(m.code), raw) : undefined;
            if (id === undefined) err(i, IMPORT_MSG.unknownDecision);
            else rec.decisionId = id;
            break;
          }
          case 'source': {
            const v = matchOption(SOURCE_OPTIONS, raw);
            if (v === null) err(i, IMPORT_MSG.option(optionList(SOURCE_OPTIONS)));
            else rec.source = v;
            break;
          }
          case 'ml_state': {
            const v = matchOption(ML_OPTIONS, raw);
            if (v === null) err(i, IMPORT_MSG.option(optionList(ML_OPTIONS)));
            else rec.mlState = v;
            break;
          }
          case 'tags': {
            const ids: number[] = [];
            for (const name of raw
              .split(/[,;\n]/)
              .map((x) => x.trim())
              .filter(Boolean)) {
              const id = lookups.tags.byName.get(name.toLowerCase());
              if (id === undefined) {
                err(i, IMPORT_MSG.unknownTag(name));
                break;
              }
              if (!ids.includes(id)) ids.push(id);
            }
            rec.tags = ids;
            break;
          }
          case 'detected_at': {
            const d = parseDateTime(raw);
            if (!d) err(i, IMPORT_MSG.datetime);
            else rec.detectedAt = d;
            break;
          }
          default: {
            const f = fieldOf(m, key);
            if (!f || f.derived) break;
            const p = parseField(f, raw, (x) => (x.ref ? lookups.refs[x.ref] : undefined));
            if (!p.ok) err(i, p.error);
            else
              rec.input[key] = f.type === 'datetime' && typeof p.value === 'string' ? new Date(p.value).toISOString() : p.value;
          }
        }
      }
      for (const f of required) if (!seen.has(f.key)) err(null, `${IMPORT_MSG.required}: «${f.label}»`);
      if (companyId == null) err(null, EVENT_MSG.companyRequired);
      else if (lookups.disabled.has(companyId)) {
        const col = mapping.indexOf('company_id');
        err(col >= 0 && r.cells[col] ? col : null, MODULE_DISABLED);
      }
      if (errors.length || companyId == null) return { errors };
      const data = applyInput(m, {}, rec.input, vault);
      return { record: { ...(rec as EventRecord), companyId, data, fingerprint: fingerprintOf(m, data) }, errors };
    },

    /**
     * Whitelist marks of the batch's rows, looked up concurrently outside the transaction. Companies
     * with no whitelist entries (their own or global) need no lookup at all.
     */
    async enrich(db, records) {
      const companies = [...new Set(records.map((r) => r.companyId))];
      const rows = (
        await db.execute(
          sql`SELECT DISTINCT company_id FROM whitelist_items WHERE company_id IS NULL OR company_id = ANY(${pgIntArray(companies)}::int[])`,
        )
      ).rows as { company_id: number | null }[];
      const global = rows.some((r) => r.company_id === null);
      const listed = new Set(rows.map((r) => r.company_id));
      const todo: EventRecord[] = [];
      for (const r of records) {
        r.noWhitelist = !global && !listed.has(r.companyId);
        if (r.noWhitelist) r.whitelistKind = null;
        else todo.push(r);
      }
      let next = 0;
      const worker = async () => {
        for (let i = next++; i < todo.length; i = next++) {
          const r = todo[i] as EventRecord;
          r.whitelistKind = await deps.whitelistKindFor(r.companyId, m.code, r.data);
        }
      };
      await Promise.all(Array.from({ length: Math.min(WHITELIST_CONCURRENCY, todo.length) }, worker));
    },

    async write(tx, records, ctx) {
      const res: WriteResult = { created: 0, updated: 0, skipped: 0, errors: [] };
      // Rows with the same key in one batch go in later rounds, so each round touches a row once.
      let pending = records;
      for (let round = 0; pending.length && round < 1000; round++) {
        const keys = new Set<string>();
        const now: EventRecord[] = [];
        const later: EventRecord[] = [];
        for (const r of pending) {
          const k = `${r.companyId}:${r.fingerprint}`;
          if (keys.has(k)) later.push(r);
          else {
            keys.add(k);
            now.push(r);
          }
        }
        const retry = await writeRound(tx, now, ctx, res);
        pending = [...retry, ...later];
      }
      return res;
    },

    async undo(tx, importId) {
      const ids = await q<{ id: number }>(tx.client, 'SELECT id FROM events WHERE import_id = $1 AND module = $2', [
        importId,
        m.code,
      ]);
      if (!ids.length) return 0;
      await tx.client.query('DELETE FROM docs WHERE event_id = ANY($1::bigint[])', [ids.map((r) => r.id)]);
      const del = await tx.client.query('DELETE FROM events WHERE import_id = $1 AND module = $2', [importId, m.code]);
      return del.rowCount ?? 0;
    },
  };

  /** One round (unique keys): existing rows locked and updated or skipped, new ones inserted. Returns rows to retry. */
  async function writeRound(tx: Tx, rows: EventRecord[], ctx: ImportContext, res: WriteResult): Promise<EventRecord[]> {
    if (!rows.length) return [];
    const existing = await q<ExistingEvent>(
      tx.client,
      // One unique-index probe per key (a lateral lookup: stale statistics during a big load cannot turn it into a scan).
      `SELECT e.* FROM unnest($1::int[], $2::text[]) AS k(company_id, fingerprint)
         CROSS JOIN LATERAL (
           SELECT x.id, x.company_id, x.fingerprint, x.title, x.status_id, x.priority_id, x.decision_id, x.source, x.ml_state,
                  x.whitelist_kind, x.tags, x.data, x.detected_at
             FROM events x WHERE x.company_id = k.company_id AND x.module = $3 AND x.fingerprint = k.fingerprint FOR UPDATE) e
        ORDER BY e.id`,
      [rows.map((r) => r.companyId), rows.map((r) => r.fingerprint), m.code],
    );
    const byKey = new Map(existing.map((e) => [`${e.company_id}:${e.fingerprint}`, e]));
    const fresh: EventRecord[] = [];
    const updates: { r: EventRecord; e: ExistingEvent; next: Record<string, unknown> }[] = [];
    const history: HistoryEntry[] = [];
    const actor = { actorUserId: ctx.authorId, actorKeyId: ctx.authorKeyId };

    for (const r of rows) {
      const e = byKey.get(`${r.companyId}:${r.fingerprint}`);
      if (!e) {
        fresh.push(r);
        continue;
      }
      if (ctx.mode === 'skip') {
        res.skipped++;
        continue;
      }
      const moduleChanged = Object.keys(r.input).length > 0;
      const data = moduleChanged ? applyInput(m, e.data, r.input, vault) : e.data;
      const next = {
        title: r.title ?? e.title,
        status_id: r.statusId ?? e.status_id,
        priority_id: r.priorityId ?? e.priority_id,
        decision_id: r.decisionId ?? e.decision_id,
        source: r.source ?? e.source,
        ml_state: r.mlState ?? e.ml_state,
        tags: r.tags ? [...new Set([...(e.tags ?? []), ...r.tags])] : (e.tags ?? []),
        detected_at: r.detectedAt ? iso(r.detectedAt) : iso(e.detected_at),
        data,
      };
      const changes: HistoryEntry[] = [];
      const push = (field: string, before: unknown, after: unknown) => {
        if (!same(before, after)) changes.push({ eventId: e.id, ...actor, action: 'update', field, before, after });
      };
      push('title', e.title, next.title);
      push('status_id', e.status_id, next.status_id);
      push('priority_id', e.priority_id, next.priority_id);
      push('decision_id', e.decision_id, next.decision_id);
      push('source', e.source, next.source);
      push('ml_state', e.ml_state, next.ml_state);
      push('detected_at', iso(e.detected_at), next.detected_at);
      push('tags', sortedInts(e.tags ?? []), sortedInts(next.tags));
      for (const key of Object.keys(r.input))
        push(key, historyValue(fieldOf(m, key), e.data, key), historyValue(fieldOf(m, key), data, key));
      if (!changes.length) {
        res.skipped++;
        continue;
      }
      const whitelistKind = !moduleChanged
        ? e.whitelist_kind
        : r.noWhitelist
          ? null
          : await deps.whitelistKindFor(e.company_id, m.code, data);
      updates.push({ r, e, next: { ...next, whitelist_kind: whitelistKind } });
      history.push(...changes);
    }

    if (updates.length) {
      const u = updates.map((x) => x.next);
      await tx.client.query(
        `UPDATE events e SET title = v.title, status_id = v.status_id, priority_id = v.priority_id, decision_id = v.decision_id,
                source = v.source, ml_state = v.ml_state, whitelist_kind = v.whitelist_kind, tags = v.tags::int[], data = v.data::jsonb,
                search = to_tsvector('russian', v.search) || to_tsvector('simple', v.search),
                detected_at = v.detected_at::timestamptz, updated_at = now()
           FROM unnest($1::bigint[], $2::text[], $3::int[], $4::int[], $5::int[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[])
             AS v(id, title, status_id, priority_id, decision_id, source, ml_state, whitelist_kind, tags, data, search, detected_at)
          WHERE e.id = v.id`,
        [
          updates.map((x) => x.e.id),
          u.map((x) => x.title),
          u.map((x) => x.status_id),
          u.map((x) => x.priority_id),
          u.map((x) => x.decision_id),
          u.map((x) => x.source),
          u.map((x) => x.ml_state),
          u.map((x) => x.whitelist_kind),
          u.map((x) => pgIntArray(x.tags as number[])),
          u.map((x) => JSON.stringify(x.data)),
          u.map((x) => searchTextOf(m, x.title as string, x.data as Record<string, unknown>)),
          u.map((x) => x.detected_at),
        ],
      );
      res.updated += updates.length;
    }

    // New events: the module's create guards (e.g. allowlisted domains), the whitelist mark, then one insert.
    const inserts: (EventRecord & { title: string; whitelistKind: string | null })[] = [];
    for (const r of fresh) {
      try {
        for (const g of deps.guards[m.code] ?? []) await g({ companyId: r.companyId, module: m.code, data: r.data, tx: tx.db });
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
        res.errors.push({ row: r.row, col: null, column: null, value: null, message: e.message });
        continue;
      }
      const title =
        r.title ??
        (m
          .title({ ...r.data, ...r.input })
          .trim()
          .slice(0, 500) ||
          m.name);
      const whitelistKind =
        r.whitelistKind !== undefined ? r.whitelistKind : await deps.whitelistKindFor(r.companyId, m.code, r.data);
      inserts.push({ ...r, title, whitelistKind });
    }
    const retry: EventRecord[] = [];
    if (inserts.length) {
      const initial = refs.initialStatus(m.code);
      const created = await q<{ id: number; company_id: number; fingerprint: string; title: string }>(
        tx.client,
        `INSERT INTO events (company_id, module, title, status_id, priority_id, decision_id, source, ml_state, whitelist_kind,
                             fingerprint, tags, data, search, detected_at, author_id, author_key_id, import_id)
         SELECT v.company_id, $14, v.title, v.status_id, v.priority_id, v.decision_id, v.source, v.ml_state, v.whitelist_kind,
                v.fingerprint, v.tags::int[], v.data::jsonb, to_tsvector('russian', v.search) || to_tsvector('simple', v.search),
                v.detected_at::timestamptz, $15::int, $16::int, $17::int
           FROM unnest($1::int[], $2::text[], $3::int[], $4::int[], $5::int[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::text[])
             AS v(company_id, title, status_id, priority_id, decision_id, source, ml_state, whitelist_kind, fingerprint, tags, data, search, detected_at)
         ON CONFLICT (company_id, module, fingerprint) DO NOTHING
         RETURNING id, company_id, fingerprint, title`,
        [
          inserts.map((r) => r.companyId),
          inserts.map((r) => r.title),
          inserts.map((r) => r.statusId ?? initial),
          inserts.map((r) => r.priorityId ?? null),
          inserts.map((r) => r.decisionId ?? null),
          inserts.map((r) => r.source ?? 'Other'),
          inserts.map((r) => r.mlState ?? 'NotDetermined'),
          inserts.map((r) => r.whitelistKind),
          inserts.map((r) => r.fingerprint),
          inserts.map((r) => pgIntArray(r.tags ?? [])),
          inserts.map((r) => JSON.stringify(r.data)),
          inserts.map((r) => searchTextOf(m, r.title, r.data)),
          inserts.map((r) => iso(r.detectedAt)),
          m.code,
          ctx.authorId,
          ctx.authorKeyId,
          ctx.importId,
        ],
      );
      res.created += created.length;
      for (const c of created)
        history.push({
          eventId: c.id,
          ...actor,
          action: 'create',
          field: null,
          after: { title: c.title, import_id: ctx.importId },
        });
      // Inserted meanwhile by someone else: next round finds them as existing.
      if (created.length < inserts.length) {
        const got = new Set(created.map((c) => `${c.company_id}:${c.fingerprint}`));
        for (const r of inserts) if (!got.has(`${r.companyId}:${r.fingerprint}`)) retry.push(r);
      }
    }
    await insertHistory(tx.client, history);
    return retry;
  }
}

async function insertHistory(client: pg.PoolClient, entries: HistoryEntry[]): Promise<void> {
  if (!entries.length) return;
  const json = (v: unknown) => (v === undefined ? null : JSON.stringify(v));
  await client.query(
    `INSERT INTO event_history (event_id, actor_user_id, actor_key_id, action, field, before, after)
     SELECT * FROM unnest($1::bigint[], $2::int[], $3::int[], $4::text[], $5::text[], $6::jsonb[], $7::jsonb[])`,
    [
      entries.map((h) => h.eventId),
      entries.map((h) => h.actorUserId),
      entries.map((h) => h.actorKeyId),
      entries.map((h) => h.action),
      entries.map((h) => h.field),
      entries.map((h) => json(h.before)),
      entries.map((h) => json(h.after)),
    ],
  );
}

// ---------------------------------------------------------------------------
// The leaks catalogue
// ---------------------------------------------------------------------------

interface LeakRecord {
  row: number;
  name: string;
  values: Record<string, unknown>;
}
interface ExistingLeak {
  id: number;
  name: string;
  leak_type_id: number | null;
  leaked_at: string | null;
  records_count: number | null;
  source_url: string | null;
  description: string | null;
}
const LEAK_COLUMNS = ['leak_type_id', 'leaked_at', 'records_count', 'source_url', 'description'] as const;

export function leaksCatalogueTarget(): Target<LeakRecord, Partial<Record<string, NameIndex>>> {
  const fields = leakCatalogueImportFields();
  const byKey = new Map(LEAK_CATALOGUE_FIELDS.map((f) => [f.key, f]));
  return {
    fields,
    table: 'leaks',
    analyze: 'ANALYZE leaks',
    loadLookups: (db) => refIndexes(db, LEAK_CATALOGUE_FIELDS),

    prepare(r, mapping, headers, lookups) {
      const errors: RowError[] = [];
      const values: Record<string, unknown> = Object.create(null);
      for (let i = 0; i < mapping.length; i++) {
        const key = mapping[i];
        const f = key ? byKey.get(key) : undefined;
        if (!f) continue;
        const raw = r.cells[i] ?? '';
        const err = (message: string) => errors.push({ row: r.row, col: i, column: headers[i] ?? null, value: raw, message });
        if (raw === '') {
          if (f.required) err(IMPORT_MSG.required);
          continue;
        }
        const p = parseField(f, raw, (x) => (x.ref ? lookups[x.ref] : undefined));
        if (!p.ok) err(p.error);
        else values[f.key] = p.value;
      }
      if (!mapping.includes('name'))
        errors.push({ row: r.row, col: null, column: null, value: null, message: `${IMPORT_MSG.required}: «Название»` });
      if (errors.length || typeof values.name !== 'string') return { errors };
      return { record: { row: r.row, name: values.name, values }, errors };
    },

    async write(tx, records, ctx) {
      const res: WriteResult = { created: 0, updated: 0, skipped: 0, errors: [] };
      let pending = records;
      for (let round = 0; pending.length && round < 1000; round++) {
        const keys = new Set<string>();
        const now: LeakRecord[] = [];
        const later: LeakRecord[] = [];
        for (const r of pending) {
          const k = r.name.toLowerCase();
          if (keys.has(k)) later.push(r);
          else {
            keys.add(k);
            now.push(r);
          }
        }
        const existing = await q<ExistingLeak>(
          tx.client,
          `SELECT id, name, leak_type_id, leaked_at::text AS leaked_at, records_count, source_url, description
             FROM leaks WHERE lower(name) = ANY($1::text[]) ORDER BY id FOR UPDATE`,
          [now.map((r) => r.name.toLowerCase())],
        );
        const found = new Map(existing.map((e) => [e.name.toLowerCase(), e]));
        const fresh: LeakRecord[] = [];
        for (const r of now) {
          const e = found.get(r.name.toLowerCase());
          if (!e) {
            fresh.push(r);
            continue;
          }
          const changed = LEAK_COLUMNS.filter((k) => k in r.values && !same(r.values[k], e[k]));
          if (ctx.mode === 'skip' || !changed.length) {
            res.skipped++;
            continue;
          }
          const v = r.values;
          await tx.client.query(
            `UPDATE leaks SET leak_type_id = $2, leaked_at = $3::date, records_count = $4, source_url = $5, description = $6, updated_at = now() WHERE id = $1`,
            [
              e.id,
              'leak_type_id' in v ? v.leak_type_id : e.leak_type_id,
              'leaked_at' in v ? v.leaked_at : e.leaked_at,
              'records_count' in v ? v.records_count : e.records_count,
              'source_url' in v ? v.source_url : e.source_url,
              'description' in v ? v.description : e.description,
            ],
          );
          res.updated++;
        }
        const retry: LeakRecord[] = [];
        if (fresh.length) {
          const val = (k: string) => fresh.map((r) => (r.values[k] ?? null) as unknown);
          const created = await q<{ id: number; name: string }>(
            tx.client,
            `WITH ins AS (
               INSERT INTO leaks (name, leak_type_id, leaked_at, records_count, source_url, description)
               SELECT * FROM unnest($1::text[], $2::int[], $3::date[], $4::bigint[], $5::text[], $6::text[])
               ON CONFLICT DO NOTHING RETURNING id, name)
             , link AS (INSERT INTO import_leaks (import_id, leak_id) SELECT $7, id FROM ins)
             SELECT id, name FROM ins`,
            [
              fresh.map((r) => r.name),
              val('leak_type_id'),
              val('leaked_at'),
              val('records_count'),
              val('source_url'),
              val('description'),
              ctx.importId,
            ],
          );
          res.created += created.length;
          const got = new Set(created.map((c) => c.name.toLowerCase()));
          for (const r of fresh) if (!got.has(r.name.toLowerCase())) retry.push(r);
        }
        pending = [...retry, ...later];
      }
      return res;
    },

    async undo(tx, importId) {
      // Entries that events now point at stay (the catalogue refuses to delete them too).
      const r = await tx.client.query(
        `DELETE FROM leaks l USING import_leaks il
          WHERE il.import_id = $1 AND l.id = il.leak_id
            AND NOT EXISTS (SELECT 1 FROM events e WHERE e.module = 'leaks' AND e.data ->> 'leak_id' = l.id::text)`,
        [importId],
      );
      return r.rowCount ?? 0;
    },
  };
}
