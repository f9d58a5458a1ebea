/*
 * Background work of the dashboards, classification, mailings and reports. `attach` from main.ts once
 * pg-boss is up: every role can queue report jobs; ROLE=all|worker also runs the workers.
 */
import type PgBoss from 'pg-boss';
import type { Logger } from './lib/logger';
import { errInfo } from './lib/logger';
import type { AnalyticsService } from './modules/analytics/index';
import { startAnalyticsWorker } from './modules/analytics/index';
import { type ClassifierService, startClassifierWorker } from './modules/classifier/index';
import { type MailingsService, startMailingsWorker } from './modules/mailings/index';
import type { ReportsService } from './modules/reports/index';

export function createInsightsJobs(deps: {
  analytics: AnalyticsService;
  classifier: ClassifierService;
  mailings: MailingsService;
  reports: ReportsService;
  log: Pick<Logger, 'warn' | 'info'>;
}) {
  const workers: { stop(): Promise<void> }[] = [];
  let sweep: NodeJS.Timeout | undefined;
  return {
    async attach(boss: PgBoss, opts: { work: boolean }) {
      await deps.reports.attach(boss, opts);
      if (!opts.work) return;
      workers.push(startAnalyticsWorker({ analytics: deps.analytics, log: deps.log }));
      workers.push(startClassifierWorker({ classifier: deps.classifier, log: deps.log }));
      workers.push(startMailingsWorker({ mailings: deps.mailings, log: deps.log }));
      sweep = setInterval(
        () => void deps.reports.sweep().catch((err) => deps.log.warn({ err: errInfo(err) }, 'report sweep failed')),
        60_000,
      );
      sweep.unref();
    },
    async stop() {
      clearInterval(sweep);
      await Promise.all(workers.splice(0).map((w) => w.stop()));
    },
  };
}
