/*
 * The SLA breach job: every minute (pg-boss cron, queue policy `singleton` — one pass at a time across
 * all instances) notifies the assignees of events whose deadline just passed (SlaService.notifyBreaches:
 * batched, idempotent). `attach` from main.ts: every role creates the queue, ROLE=all|worker works it.
 */
import type PgBoss from 'pg-boss';
import type { Logger } from '../../lib/logger';
import type { SlaService } from './sla.service';

export const SLA_BREACH_QUEUE = 'sla-breaches';

export function createSlaJobs(deps: { sla: SlaService; log: Pick<Logger, 'warn' | 'info'> }) {
  return {
    async attach(b: PgBoss, opts: { work: boolean }) {
      await b.createQueue(SLA_BREACH_QUEUE, {
        name: SLA_BREACH_QUEUE,
        policy: 'singleton',
        retryLimit: 0,
        expireInSeconds: 600,
      });
      if (!opts.work) return;
      await b.work(SLA_BREACH_QUEUE, { pollingIntervalSeconds: 10 }, async () => {
        const n = await deps.sla.notifyBreaches();
        if (n) deps.log.info({ breaches: n }, 'sla breaches notified');
      });
      await b.schedule(SLA_BREACH_QUEUE, '* * * * *');
    },
  };
}
export type SlaJobs = ReturnType<typeof createSlaJobs>;
