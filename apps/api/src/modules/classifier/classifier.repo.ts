/* SQL of the classification pipeline. No permission checks: the service passes the scope in. */
import { ML_MAX_ATTEMPTS } from '@forpost/contract/classifier';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { and, bigArray, rowsOf } from '../../db/sql';

export interface ClaimedEvent {
  id: number;
  company_id: number;
  module: string;
  title: string;
  data: Record<string, unknown>;
  priority_id: number | null;
  attempts: number;
}

export interface MlRow {
  event_id: number;
  module: string;
  company_id: number;
  ml_state: string;
  attempts: number | null;
  classifier: 'builtin' | 'external' | null;
  result: Record<string, unknown> | null;
  last_error: string | null;
  next_attempt_at: Date | null;
  updated_at: Date | null;
}

export interface Outcome {
  id: number;
  ok: boolean;
  classifier: 'builtin' | 'external';
  result?: Record<string, unknown>;
  error?: string;
  /** Applied only while the event still has no sentiment / no priority (an analyst's value is kept). */
  connotation?: string;
  priorityId?: number;
  nextAttemptAt?: Date | null;
}

export function createClassifierRepo(db: Db) {
  return {
    /**
     * Is an import writing events right now (running, with a heartbeat in the last two minutes)?
     * The worker then leaves the queue alone: see classifier.jobs.ts.
     */
    async importRunning(): Promise<boolean> {
      const [r] = await rowsOf<{ busy: boolean }>(
        db,
        sql`
        SELECT EXISTS (
          SELECT 1 FROM imports WHERE status = 'running' AND heartbeat_at > now() - interval '2 minutes'
        ) AS busy`,
      );
      return r?.busy === true;
    },

    /** Failed events whose retry time has come go back to the queue. */
    async requeueDue(now: Date, limit = 1000): Promise<number> {
      const r = await rowsOf<{ id: number }>(
        db,
        sql`
        WITH due AS (
          SELECT m.event_id FROM event_ml m
          WHERE m.next_attempt_at IS NOT NULL AND m.next_attempt_at <= ${now.toISOString()}::timestamptz
          ORDER BY m.next_attempt_at LIMIT ${limit} FOR UPDATE SKIP LOCKED
        ), cleared AS (
          UPDATE event_ml m SET next_attempt_at = NULL, updated_at = now() FROM due WHERE m.event_id = due.event_id RETURNING m.event_id
        )
        UPDATE events e SET ml_state = 'InQueueToML' FROM cleared WHERE e.id = cleared.event_id AND e.ml_state = 'Failed'
        RETURNING e.id`,
      );
      return r.length;
    },

    /** Events left in SentToML by a worker that died mid-batch go back to the queue. */
    async recoverStuck(olderThan: Date): Promise<number> {
      const r = await rowsOf<{ id: number }>(
        db,
        sql`
        UPDATE events e SET ml_state = 'InQueueToML'
        FROM event_ml m
        WHERE e.ml_state = 'SentToML' AND m.event_id = e.id AND m.sent_at < ${olderThan.toISOString()}::timestamptz
        RETURNING e.id`,
      );
      return r.length;
    },

    /** Takes up to `limit` queued events (other workers skip them) and marks them SentToML. */
    async claim(limit: number): Promise<ClaimedEvent[]> {
      return db.transaction(async (tx) => {
        const claimed = await rowsOf<ClaimedEvent>(
          tx,
          sql`
          WITH c AS (
            SELECT id FROM events WHERE ml_state = 'InQueueToML' ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED
          )
          UPDATE events e SET ml_state = 'SentToML' FROM c WHERE e.id = c.id
          RETURNING e.id, e.company_id, e.module, e.title, e.data, e.priority_id, 0 AS attempts`,
        );
        if (!claimed.length) return [];
        const ids = claimed.map((c) => c.id);
        const att = await rowsOf<{ event_id: number; attempts: number }>(
          tx,
          sql`
          INSERT INTO event_ml (event_id, attempts, sent_at, updated_at)
          SELECT unnest(${bigArray(ids)}), 1, now(), now()
          ON CONFLICT (event_id) DO UPDATE SET attempts = event_ml.attempts + 1, sent_at = now(), updated_at = now(), next_attempt_at = NULL
          RETURNING event_id, attempts`,
        );
        const byId = new Map(att.map((a) => [a.event_id, a.attempts]));
        return claimed.map((c) => ({ ...c, attempts: byId.get(c.id) ?? 1 }));
      });
    },

    /**
     * Records outcomes of a batch: state, result and the values the classifier suggests (sentiment,
     * priority) where the event has none yet. Returns the field changes made, for the event history.
     */
    async record(outcomes: Outcome[]): Promise<{ id: number; field: string; before: unknown; after: unknown }[]> {
      if (!outcomes.length) return [];
      return db.transaction(async (tx) => {
        const ids = outcomes.map((o) => o.id);
        const current = await rowsOf<{ id: number; connotation: string | null; priority_id: number | null }>(
          tx,
          sql`SELECT id, data ->> 'connotation' AS connotation, priority_id FROM events
              WHERE id = ANY(${bigArray(ids)}) AND ml_state = 'SentToML' ORDER BY id FOR UPDATE`,
        );
        const cur = new Map(current.map((c) => [c.id, c]));
        const changes: { id: number; field: string; before: unknown; after: unknown }[] = [];
        const upd: { id: number; state: string; connotation: string | null; priority: number | null }[] = [];
        for (const o of outcomes) {
          const c = cur.get(o.id);
          if (!c) continue; // deleted, or its state was changed meanwhile (e.g. re-queued by an analyst)
          let connotation: string | null = null;
          let priority: number | null = null;
          if (
            o.ok &&
            o.connotation &&
            (c.connotation == null || c.connotation === 'Undefined') &&
            o.connotation !== 'Undefined'
          ) {
            connotation = o.connotation;
            changes.push({ id: o.id, field: 'connotation', before: c.connotation ?? null, after: o.connotation });
          }
          if (o.ok && o.priorityId && c.priority_id == null) {
            priority = o.priorityId;
            changes.push({ id: o.id, field: 'priority_id', before: null, after: o.priorityId });
          }
          upd.push({ id: o.id, state: o.ok ? 'Done' : 'Failed', connotation, priority });
        }
        if (upd.length) {
          await tx.execute(sql`
            UPDATE events e SET
              ml_state = v.state,
              data = CASE WHEN v.connotation IS NULL THEN e.data ELSE jsonb_set(e.data, '{connotation}', to_jsonb(v.connotation)) END,
              priority_id = coalesce(e.priority_id, v.priority)
            FROM jsonb_to_recordset(${JSON.stringify(upd)}::jsonb) AS v(id bigint, state text, connotation text, priority int)
            WHERE e.id = v.id`);
          const done = new Set(upd.map((u) => u.id));
          for (const o of outcomes) {
            if (!done.has(o.id)) continue;
            await tx.execute(sql`
              UPDATE event_ml SET classifier = ${o.classifier}, updated_at = now(),
                result = ${o.ok ? JSON.stringify(o.result ?? {}) : null}::jsonb,
                last_error = ${o.ok ? null : (o.error ?? null)},
                next_attempt_at = ${o.ok ? null : (o.nextAttemptAt?.toISOString() ?? null)}::timestamptz
              WHERE event_id = ${o.id}`);
          }
          if (changes.length) {
            const values = changes.map(
              (h) =>
                sql`(${h.id}, NULL, NULL, 'update', ${h.field}, ${JSON.stringify(h.before)}::jsonb, ${JSON.stringify(h.after)}::jsonb)`,
            );
            await tx.execute(
              sql`INSERT INTO event_history (event_id, actor_user_id, actor_key_id, action, field, before, after) VALUES ${sql.join(values, sql`, `)}`,
            );
          }
        }
        return changes;
      });
    },

    async info(module: string, id: number): Promise<MlRow | undefined> {
      const [r] = await rowsOf<MlRow>(
        db,
        sql`
        SELECT e.id AS event_id, e.module, e.company_id, e.ml_state, m.attempts, m.classifier, m.result, m.last_error, m.next_attempt_at, m.updated_at
        FROM events e LEFT JOIN event_ml m ON m.event_id = e.id
        WHERE e.id = ${id} AND e.module = ${module}`,
      );
      return r;
    },

    /** Back to the queue with a fresh attempt count; records who did it in the event history. */
    async requeue(id: number, actor: { userId: number | null; keyId: number | null }): Promise<string | null> {
      return db.transaction(async (tx) => {
        const [before] = await rowsOf<{ ml_state: string }>(tx, sql`SELECT ml_state FROM events WHERE id = ${id} FOR UPDATE`);
        if (!before) return null;
        await tx.execute(sql`UPDATE events SET ml_state = 'InQueueToML' WHERE id = ${id}`);
        await tx.execute(sql`
          INSERT INTO event_ml (event_id, attempts, updated_at) VALUES (${id}, 0, now())
          ON CONFLICT (event_id) DO UPDATE SET attempts = 0, next_attempt_at = NULL, last_error = NULL, updated_at = now()`);
        if (before.ml_state !== 'InQueueToML') {
          await tx.execute(sql`
            INSERT INTO event_history (event_id, actor_user_id, actor_key_id, action, field, before, after)
            VALUES (${id}, ${actor.userId}, ${actor.keyId}, 'update', 'ml_state', ${JSON.stringify(before.ml_state)}::jsonb, '"InQueueToML"'::jsonb)`);
        }
        return before.ml_state;
      });
    },

    async requeueFailed(scope: 'all' | number[], module?: string): Promise<number> {
      const where: SQL[] = [sql`e.ml_state = 'Failed'`];
      if (scope !== 'all') where.push(sql`e.company_id = ANY(${`{${scope.join(',')}}`}::int[])`);
      if (module) where.push(sql`e.module = ${module}`);
      return db.transaction(async (tx) => {
        const r = await rowsOf<{ id: number }>(
          tx,
          sql`UPDATE events e SET ml_state = 'InQueueToML' WHERE ${and(where)} RETURNING e.id`,
        );
        if (r.length) {
          await tx.execute(
            sql`UPDATE event_ml SET attempts = 0, next_attempt_at = NULL, updated_at = now() WHERE event_id = ANY(${bigArray(r.map((x) => x.id))})`,
          );
        }
        return r.length;
      });
    },

    async summary(scope: 'all' | number[]): Promise<{ queued: number; sent: number; failed: number; failed_final: number }> {
      const company = scope === 'all' ? sql`TRUE` : sql`e.company_id = ANY(${`{${scope.join(',')}}`}::int[])`;
      const [r] = await rowsOf<{ queued: number; sent: number; failed: number; failed_final: number }>(
        db,
        sql`
        SELECT count(*) FILTER (WHERE e.ml_state = 'InQueueToML')::int AS queued,
               count(*) FILTER (WHERE e.ml_state = 'SentToML')::int AS sent,
               count(*) FILTER (WHERE e.ml_state = 'Failed')::int AS failed,
               count(*) FILTER (WHERE e.ml_state = 'Failed' AND (m.next_attempt_at IS NULL OR m.attempts >= ${ML_MAX_ATTEMPTS}))::int AS failed_final
        FROM events e LEFT JOIN event_ml m ON m.event_id = e.id
        WHERE e.ml_state IN ('InQueueToML', 'SentToML', 'Failed') AND ${company}`,
      );
      return r ?? { queued: 0, sent: 0, failed: 0, failed_final: 0 };
    },

    /** What the built-in phishing score compares against: the company's names and known domains. */
    async brandProfile(companyId: number): Promise<{ name: string; brands: string[]; domains: string[] }> {
      const [c] = await rowsOf<{ name: string; legal_name: string | null; contact_email: string | null }>(
        db,
        sql`SELECT name, legal_name, contact_email FROM companies WHERE id = ${companyId}`,
      );
      const wl = await rowsOf<{ value: string }>(
        db,
        sql`SELECT value FROM whitelist_items WHERE company_id = ${companyId} AND type IN ('domain', 'url') LIMIT 500`,
      );
      const al = await rowsOf<{ domain: string }>(
        db,
        sql`SELECT domain FROM domain_allowlist WHERE company_id = ${companyId} LIMIT 500`,
      );
      const domains = [...wl.map((w) => w.value), ...al.map((a) => a.domain)];
      const mailDomain = c?.contact_email?.split('@')[1];
      if (mailDomain && !/^(gmail|mail|yandex|ya|outlook|hotmail|icloud|bk|list|inbox|rambler)\./i.test(mailDomain))
        domains.push(mailDomain);
      return { name: c?.name ?? '', brands: [c?.name, c?.legal_name].filter((x): x is string => Boolean(x)), domains };
    },

    /** Priority ids of a module by code (low … critical). */
    async priorityIds(): Promise<Map<string, number>> {
      const r = await rowsOf<{ module: string; code: string; id: number }>(
        db,
        sql`SELECT module, code, id FROM event_priorities`,
      );
      return new Map(r.map((x) => [`${x.module}:${x.code}`, x.id]));
    },
  };
}
export type ClassifierRepo = ReturnType<typeof createClassifierRepo>;
