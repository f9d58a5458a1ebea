import PgBoss from 'pg-boss';
import type { Logger } from './lib/logger';
import { errInfo } from './lib/logger';

/** pg-boss on the same database. `work` = false for ROLE=api: it can send jobs but runs no workers. */
export async function startJobs(url: string, log: Pick<Logger, 'warn'>, work: boolean): Promise<PgBoss> {
  const boss = new PgBoss({ connectionString: url, application_name: 'forpost-jobs', supervise: work, schedule: work, max: 5 });
  boss.on('error', (err: Error) => log.warn({ err: errInfo(err) }, 'job queue error'));
  await boss.start();
  return boss;
}
