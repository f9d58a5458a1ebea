/*
 * Generated events written straight into `events` the way the API would make them (fingerprint,
 * title, search text from the registry), for the benchmarks that need a loaded table: one row
 * builder and one batched insert, shared by list.bench and load.bench.
 */
import { eventCreateRequest } from '@forpost/contract/events';
import { indicatorsOf, MODULES } from '@forpost/contract/modules';
import type pg from 'pg';
import {
  applyInput,
  type CardVault,
  fingerprintOf,
  pickModuleInput,
  searchTextOf,
} from '../apps/api/src/modules/events/write/event-data';
import { type GenerateOptions, generateEvents } from './generate';

/** Reference ids keyed `module:code`. */
export interface EventRefs {
  statuses: Map<string, number>;
  priorities: Map<string, number>;
  decisions: Map<string, number>;
}

export async function loadEventRefs(client: pg.ClientBase): Promise<EventRefs> {
  const ref = async (table: string) => {
    const r = await client.query(`SELECT id, module, code FROM ${table}`);
    return new Map(r.rows.map((x: { id: number; module: string; code: string }) => [`${x.module}:${x.code}`, x.id]));
  };
  return {
    statuses: await ref('event_statuses'),
    priorities: await ref('event_priorities'),
    decisions: await ref('event_decisions'),
  };
}

/** Rows of `generateEvents(o)` for `companyIds`, one per (company, module, fingerprint). */
export function* eventRows(
  o: GenerateOptions & { companyIds: number[]; refs: EventRefs; vault: CardVault; tags?: () => number[] },
): Generator<Record<string, unknown>> {
  const seen = new Set<string>();
  for (const e of generateEvents({ ...o, companies: o.companyIds.length })) {
    const m = MODULES[e.module];
    const body = eventCreateRequest(m).parse(e.fields) as Record<string, unknown>;
    const input = pickModuleInput(m, body);
    const data = applyInput(m, {}, input, o.vault);
    const title = m.title({ ...input, ...(m.derive?.(input) ?? {}) }).slice(0, 500);
    const fingerprint = fingerprintOf(m, data);
    const companyId = o.companyIds[e.company] as number;
    const key = `${companyId}:${e.module}:${fingerprint}`;
    if (seen.has(key)) continue;
    seen.add(key);
    yield {
      company_id: companyId,
      module: e.module,
      title,
      status_id: o.refs.statuses.get(`${e.module}:${e.status}`),
      priority_id: e.priority ? o.refs.priorities.get(`${e.module}:${e.priority}`) : null,
      decision_id: e.decision ? o.refs.decisions.get(`${e.module}:${e.decision}`) : null,
      source: e.source,
      ml_state: e.ml_state,
      fingerprint,
      tags: o.tags?.() ?? [],
      data,
      search_text: searchTextOf(m, title, data),
      // As every write sets them (related events; a NULL would make the worker's backfill rewrite the row).
      indicators: indicatorsOf(m, data),
      detected_at: e.detected_at,
      created_at: e.created_at,
    };
  }
}

/** One INSERT of a batch of `eventRows` (the search vector made by PostgreSQL, as the API does). */
export async function insertEventRows(client: pg.ClientBase, rows: Record<string, unknown>[]): Promise<void> {
  if (!rows.length) return;
  await client.query(
    `INSERT INTO events (company_id, module, title, status_id, priority_id, decision_id, source, ml_state, fingerprint, tags, data, search, indicators, detected_at, created_at, updated_at)
     SELECT company_id, module, title, status_id, priority_id, decision_id, source, ml_state, fingerprint, tags, data,
            to_tsvector('russian', search_text) || to_tsvector('simple', search_text), indicators, detected_at, created_at, created_at
     FROM jsonb_to_recordset($1::jsonb) AS x(company_id int, module text, title text, status_id int, priority_id int, decision_id int,
          source text, ml_state text, fingerprint text, tags int[], data jsonb, search_text text, indicators text[],
          detected_at timestamptz, created_at timestamptz)`,
    [JSON.stringify(rows)],
  );
}
