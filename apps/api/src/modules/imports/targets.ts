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
import { iso } from '../../lib/serialize';
import {
  type Actor,
  changeOf,
  columnsOf,
  createdEntry,
  type EventColumns,
  type NewEventSpec,
  newEventData,
  newEventRow,
  sameValue,
  whitelistAfter,
} from '../events/changes';
import type { CardVault } from '../events/event-data';
import type { EventsRepo, HistoryEntry, NewEvent } from '../events/events.repo';
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

/** A valid row: what a new event is given (module input: only the cells that had a value). */
interface EventRecord extends NewEventSpec {
  row: number;
  /** Whitelist mark of a new event (set by `enrich`; undefined = not looked up yet). */
  whitelistKind?: string | null;
  /** No whitelist entry can match this row's company (nothing to look up). */
  noWhitelist?: boolean;
}

export interface EventTargetDeps {
  /** The events repository: the batched writes (the same SQL the events service writes one event with). */
  events: EventsRepo;
  refs: Refs;
  vault: CardVault;
  guards: CreateGuards;
  whitelistKindFor: WhitelistKindFor;
}

const SOURCE_OPTIONS = optionsOf(SOURCE_LABELS);
const ML_OPTIONS = optionsOf(ML_STATE_LABELS);
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
      return { record: { ...(rec as EventRecord), companyId, ...newEventData(m, rec.input, vault) }, errors };
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
    const { events } = deps;
    const existing = await events.lockByFingerprints(m.code, rows, tx.db);
    const byKey = new Map(existing.map((e) => [`${e.company_id}:${e.fingerprint}`, e]));
    const fresh: EventRecord[] = [];
    const updates: Parameters<EventsRepo['updateMany']>[0][number][] = [];
    const history: HistoryEntry[] = [];
    const actor: Actor = { actorUserId: ctx.authorId, actorKeyId: ctx.authorKeyId };

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
      // A file's cell sets its column; an empty cell keeps what the event has; tags are added.
      const was = columnsOf(e);
      const columns: EventColumns = {
        title: r.title ?? was.title,
        statusId: r.statusId ?? was.statusId,
        priorityId: r.priorityId ?? was.priorityId,
        decisionId: r.decisionId ?? was.decisionId,
        source: r.source ?? was.source,
        mlState: r.mlState ?? was.mlState,
        detectedAt: r.detectedAt ? iso(r.detectedAt) : was.detectedAt,
        tags: r.tags ? [...new Set([...was.tags, ...r.tags])] : was.tags,
      };
      const change = changeOf(m, vault, e, columns, r.input, actor);
      if (!change) {
        res.skipped++;
        continue;
      }
      const whitelistKind = await whitelistAfter(change, e, async (data) =>
        r.noWhitelist ? null : deps.whitelistKindFor(e.company_id, m.code, data),
      );
      updates.push({ id: e.id, ...change.row, whitelistKind });
      history.push(...change.history);
    }
    await events.updateMany(updates, tx.db);
    res.updated += updates.length;

    // New events: the module's create guards (e.g. allowlisted domains), the whitelist mark, then one insert.
    const inserts: { r: EventRecord; row: NewEvent }[] = [];
    const initialStatus = refs.initialStatus(m.code);
    for (const r of fresh) {
      try {
        for (const g of deps.guards[m.code] ?? []) await g({ companyId: r.companyId, module: m.code, data: r.data, tx: tx.db });
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
        res.errors.push({ row: r.row, col: null, column: null, value: null, message: e.message });
        continue;
      }
      const whitelistKind =
        r.whitelistKind !== undefined ? r.whitelistKind : await deps.whitelistKindFor(r.companyId, m.code, r.data);
      inserts.push({ r, row: newEventRow(m, r, { initialStatus, whitelistKind, actor, importId: ctx.importId }) });
    }
    const retry: EventRecord[] = [];
    if (inserts.length) {
      const created = await events.insertMany(
        inserts.map((x) => x.row),
        tx.db,
      );
      res.created += created.length;
      const byFingerprint = new Map(inserts.map((x) => [`${x.r.companyId}:${x.r.fingerprint}`, x]));
      for (const c of created) {
        const x = byFingerprint.get(`${c.company_id}:${c.fingerprint}`);
        if (x) history.push(createdEntry(c.id, actor, x.row.title, ctx.importId));
        byFingerprint.delete(`${c.company_id}:${c.fingerprint}`);
      }
      // Inserted meanwhile by someone else: the next round finds them as existing.
      for (const x of byFingerprint.values()) retry.push(x.r);
    }
    await events.insertHistory(history, tx.db);
    return retry;
  }
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
          const changed = LEAK_COLUMNS.filter((k) => k in r.values && !sameValue(r.values[k], e[k]));
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
