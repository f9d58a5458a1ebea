/* Events written straight into the database for the analytics, classifier, mailing and report tests. */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { seedEventReference } from '../src/modules/events/refs/refs';
import type { TestContext } from './helpers';

export interface EventSeed {
  companyId: number;
  module: string;
  title?: string;
  /** ISO instant; default now. */
  createdAt?: string;
  status?: string;
  priority?: string | null;
  data?: Record<string, unknown>;
  mlState?: string;
  source?: string;
  tags?: number[];
}

const seeded = new WeakSet<object>();
const idCache = new WeakMap<object, Map<string, number>>();

/** Status / priority id of a module by code. */
export async function refId(ctx: TestContext, kind: 'status' | 'priority', module: string, code: string): Promise<number> {
  await ensureRefs(ctx);
  let cache = idCache.get(ctx.database);
  if (!cache) {
    cache = new Map();
    idCache.set(ctx.database, cache);
  }
  const key = `${kind}:${module}:${code}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const table = kind === 'status' ? sql`event_statuses` : sql`event_priorities`;
  const r = await ctx.database.db.execute(sql`SELECT id FROM ${table} WHERE module = ${module} AND code = ${code}`);
  const id = (r.rows[0] as { id: number } | undefined)?.id;
  if (!id) throw new Error(`no ${kind} ${module}/${code}`);
  cache.set(key, id);
  return id;
}

async function ensureRefs(ctx: TestContext) {
  if (seeded.has(ctx.database)) return;
  await seedEventReference(ctx.database.db);
  seeded.add(ctx.database);
}

/** Inserts an event (as the engine or an import would) and returns its id. */
export async function insertEvent(ctx: TestContext, e: EventSeed): Promise<number> {
  const statusId = await refId(ctx, 'status', e.module, e.status ?? 'new');
  const priorityId = e.priority ? await refId(ctx, 'priority', e.module, e.priority) : null;
  const title = e.title ?? `${e.module} ${randomBytes(3).toString('hex')}`;
  const r = await ctx.database.db.execute(sql`
    INSERT INTO events (company_id, module, title, status_id, priority_id, source, ml_state, fingerprint, tags, data, search, created_at, updated_at)
    VALUES (${e.companyId}, ${e.module}, ${title}, ${statusId}, ${priorityId}, ${e.source ?? 'Other'}, ${e.mlState ?? 'NotDetermined'},
            ${randomBytes(16).toString('hex')}, ${`{${(e.tags ?? []).join(',')}}`}::int[], ${JSON.stringify(e.data ?? {})}::jsonb,
            to_tsvector('simple', ${title}), ${e.createdAt ?? new Date().toISOString()}::timestamptz, now())
    RETURNING id`);
  return (r.rows[0] as { id: number }).id;
}

export async function eventRow(ctx: TestContext, id: number) {
  const r = await ctx.database.db.execute(sql`SELECT id, ml_state, priority_id, status_id, data FROM events WHERE id = ${id}`);
  return r.rows[0] as
    | { id: number; ml_state: string; priority_id: number | null; status_id: number; data: Record<string, unknown> }
    | undefined;
}
