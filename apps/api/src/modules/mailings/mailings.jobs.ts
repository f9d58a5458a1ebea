/* The mailing worker: a pass every few seconds (only where ROLE is all or worker). */

import type { Logger } from '../../lib/logger';
import { startPoller } from '../../lib/poller';
import type { MailingsService } from './mailings.service';

export function startMailingsWorker(deps: { mailings: MailingsService; log: Pick<Logger, 'warn'>; intervalMs?: number }) {
  return startPoller({
    intervalMs: deps.intervalMs ?? 15_000,
    run: () => deps.mailings.tick(new Date()),
    log: deps.log,
    failure: 'mailing worker failed',
  });
}
