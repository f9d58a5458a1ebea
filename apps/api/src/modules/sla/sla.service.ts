/*
 * SLA policies (GET/PUT /settings/sla — the installation default; GET/PUT /companies/{companyId}/sla —
 * a company's override) and the breach job's pass. A policy change recomputes the open events' due
 * times (sla.repo recompute) in the same transaction as the change and its audit entry.
 */
import { EVENT_MSG } from '@forpost/contract/modules';
import { can } from '@forpost/contract/permissions';
import { SLA_PRIORITIES, SLA_STAGE_LABELS, type SlaPoliciesResponse, type SlaPolicyItem } from '@forpost/contract/sla';
import type { Db } from '../../db/client';
import type { Audit } from '../../lib/audit';
import type { Caller } from '../../lib/caller';
import { notFound } from '../../lib/errors';
import type { CompaniesRepo } from '../companies/index';
import { emitEventOutbox } from '../outbox/index';
import { type BreachRow, createSlaRepo } from './sla.repo';

/** One notification of a breach, as the notifications module takes it. */
export interface BreachNotice {
  userId: number;
  kind: 'sla_breach';
  eventId: number;
  companyId: number;
  module: string;
  text: string;
  actorId: null;
}
export type NotifyBreaches = (tx: Db, items: BreachNotice[]) => Promise<void>;

/** Events handled per transaction by the breach job. */
export const BREACH_BATCH = 500;

const ordered = (items: readonly SlaPolicyItem[]): SlaPolicyItem[] =>
  SLA_PRIORITIES.flatMap((p) => items.filter((i) => i.priority === p));

/** The bell's text of a breach. */
export const breachText = (b: Pick<BreachRow, 'id' | 'title' | 'stage'>) =>
  `Просрочен срок SLA (${SLA_STAGE_LABELS[b.stage].toLowerCase()}): событие №${b.id} «${b.title.slice(0, 200)}»`;

export function createSlaService(deps: { db: Db; audit: Audit; companies: CompaniesRepo; notify?: NotifyBreaches }) {
  const { db, audit, companies } = deps;
  const repo = createSlaRepo(db);

  /** The company if the caller may `perm` it; 404 otherwise (other tenants' ids are not revealed). */
  async function company(c: Caller, id: number, perm: 'companies.read' | 'companies.update') {
    const found = await companies.find(id);
    if (!found || !can(c.auth.principal, 'companies.read', id)) throw notFound(EVENT_MSG.companyNotFound);
    if (!can(c.auth.principal, perm, id)) throw notFound(EVENT_MSG.companyNotFound);
    return found;
  }

  async function effective(companyId: number, tx: Db = db): Promise<SlaPoliciesResponse> {
    const own = await repo.policies(companyId, tx);
    const base = await repo.policies(null, tx);
    const items = SLA_PRIORITIES.flatMap((p) =>
      own.filter((i) => i.priority === p).concat(own.some((i) => i.priority === p) ? [] : base.filter((i) => i.priority === p)),
    );
    return { items, overridden: own.length > 0 };
  }

  return {
    repo,

    async getDefault(): Promise<SlaPoliciesResponse> {
      return { items: ordered(await repo.policies(null)), overridden: false };
    },

    async putDefault(c: Caller, items: SlaPolicyItem[]): Promise<SlaPoliciesResponse> {
      return db.transaction(async (tx) => {
        const before = ordered(await repo.policies(null, tx));
        await repo.replace(null, items, tx);
        const recomputed = await repo.recompute('all', tx);
        await audit.record(
          c.actor,
          {
            action: 'sla.update',
            entity: 'sla_policy',
            entityId: 'default',
            before: { items: before },
            after: { items: ordered(items) },
          },
          tx,
        );
        return { items: ordered(items), overridden: false, recomputed };
      });
    },

    async getCompany(c: Caller, companyId: number): Promise<SlaPoliciesResponse> {
      await company(c, companyId, 'companies.read');
      return effective(companyId);
    },

    async putCompany(c: Caller, companyId: number, items: SlaPolicyItem[]): Promise<SlaPoliciesResponse> {
      await company(c, companyId, 'companies.update');
      return db.transaction(async (tx) => {
        const before = await effective(companyId, tx);
        await repo.replace(companyId, items, tx);
        const recomputed = await repo.recompute([companyId], tx);
        const after = await effective(companyId, tx);
        await audit.record(
          c.actor,
          { action: 'sla.update', entity: 'sla_policy', entityId: companyId, companyId, before, after },
          tx,
        );
        return { ...after, recomputed };
      });
    },

    /**
     * One pass of the breach job: events whose pending deadline passed and whose stage was not notified,
     * BREACH_BATCH per transaction; the assignee (if any) gets a bell notification, and every one is
     * marked notified for its stage in the same transaction — a pass repeated, or two workers at once,
     * notify nobody twice. Unassigned events are marked without a notification (docs/decisions.md «SLA»).
     */
    async notifyBreaches(): Promise<number> {
      let total = 0;
      for (;;) {
        const n = await db.transaction(async (tx) => {
          const rows = await repo.breaches(BREACH_BATCH, tx);
          const notices: BreachNotice[] = rows
            .filter((r) => r.assignee_id !== null)
            .map((r) => ({
              userId: r.assignee_id as number,
              kind: 'sla_breach' as const,
              eventId: r.id,
              companyId: r.company_id,
              module: r.module,
              text: breachText(r),
              actorId: null,
            }));
          if (notices.length && deps.notify) await deps.notify(tx, notices);
          // Webhooks and syslog outputs get every breach (assigned or not), in the same transaction.
          await emitEventOutbox(
            tx,
            rows.map((r) => ({ eventId: r.id, type: 'event.sla_breached', extra: { text: breachText(r) } })),
          );
          await repo.markNotified(
            rows.map((r) => r.id),
            tx,
          );
          return rows.length;
        });
        total += n;
        if (n < BREACH_BATCH) return total;
      }
    },
  };
}
export type SlaService = ReturnType<typeof createSlaService>;
