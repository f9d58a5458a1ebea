/*
 * Wiring of takedown requests (#32) for buildApp: `mount` adds the routes (inside /api/v1), `attach`
 * from main.ts starts the follower on ROLE=all|worker (every minute: the watch's verdicts and the SLA
 * clock); a watch transition of a followed domain runs the follower for it at once.
 */
import type { Db } from '../../db/client';
import type { Audit } from '../../lib/audit';
import type { Delivery } from '../../lib/delivery';
import type { DocStore } from '../../lib/docstore';
import { errInfo, type Logger } from '../../lib/logger';
import type { OutboundPolicy } from '../../lib/outbound';
import { type Poller, startPoller } from '../../lib/poller';
import type { App } from '../../lib/routes';
import type { ConfigsService } from '../configs/index';
import { discoverySettings } from '../discovery/index';
import { createEventsRepo } from '../events/index';
import type { Watch } from '../watch/index';
import { createAbuseFinder } from './abuse';
import { createTakedownRepo } from './takedown.repo';
import { takedownRoutes } from './takedown.routes';
import { createTakedownService } from './takedown.service';

const TICK_MS = 60_000;

export interface TakedownDeps {
  db: Db;
  audit: Audit;
  configs: Pick<ConfigsService, 'get'>;
  delivery: Pick<Delivery, 'attempt'>;
  store: Pick<DocStore, 'get'>;
  log: Pick<Logger, 'warn' | 'info'>;
  outbound: OutboundPolicy;
  /** TAKEDOWN_MAIL_FROM (null: the mail settings' sender, else MAIL_FROM). */
  mailFrom: string | null;
  defaultMailFrom: string;
  hourlyLimit: number;
  watch?: Pick<Watch, 'onTransition'>;
  now?: () => Date;
}

export function createTakedown(deps: TakedownDeps) {
  const repo = createTakedownRepo(deps.db);
  const events = createEventsRepo(deps.db);
  const service = createTakedownService({
    db: deps.db,
    audit: deps.audit,
    repo,
    finder: async () => {
      const s = await discoverySettings(deps.configs);
      return createAbuseFinder({ ...s.rdap, outbound: deps.outbound });
    },
    delivery: deps.delivery,
    store: deps.store,
    insertHistory: (h, tx) => events.insertHistory(h, tx),
    sender: async () => deps.mailFrom ?? (String(await deps.configs.get('mail_from')) || deps.defaultMailFrom),
    hourlyLimit: deps.hourlyLimit,
    log: deps.log,
    now: deps.now,
  });
  const pollers: Poller[] = [];
  deps.watch?.onTransition((t) => {
    if (t.kind === 'came_back' || t.kind === 'offline')
      void service.follow([t.eventId]).catch((err) => deps.log.warn({ err: errInfo(err) }, 'takedown follow failed'));
  });
  return {
    repo,
    service,
    follow: (eventIds?: number[]) => service.follow(eventIds ?? null),
    mount(app: App) {
      takedownRoutes(app, { takedown: service });
    },
    attach(opts: { work: boolean; background?: boolean }) {
      if (!opts.work || opts.background === false) return;
      pollers.push(
        startPoller({
          intervalMs: TICK_MS,
          run: async () => void (await service.follow()),
          log: deps.log,
          failure: 'takedown follow failed',
        }),
      );
    },
    async stop() {
      for (const p of pollers.splice(0)) await p.stop();
    },
  };
}
export type Takedown = ReturnType<typeof createTakedown>;
