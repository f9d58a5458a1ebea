/*
 * The domain snapshot producer: a pg-boss job that checks a domain event's host (probe.ts) and, when
 * a Chromium is available, takes a screenshot (screenshot.ts, stored as a `screenshot` doc of the
 * event's company), then records one row of domain_snapshots — failures included, with their Russian
 * reason. Every role can queue (the `recheck` action); ROLE=all|worker runs the jobs and, with the
 * `snapshot_on_create` setting, sweeps new domain events into the queue.
 */
import { Readable } from 'node:stream';
import { MODULE_LIST } from '@forpost/contract/modules';
import type PgBoss from 'pg-boss';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { Audit } from '../../lib/audit';
import type { Logger } from '../../lib/logger';
import { errInfo } from '../../lib/logger';
import { type Poller, startPoller } from '../../lib/poller';
import type { ConfigsService } from '../configs/index';
import type { DocsService } from '../docs/index';
import { type ProbeOptions, type ProbeResult, parseHostMap, probe } from './probe';
import { findChromium, takeScreenshot } from './screenshot';
import { createSnapshotsRepo, type SnapshotsRepo } from './snapshots.repo';

const SNAPSHOT_QUEUE = 'domain-snapshot';
/** One manual check of an event per this many seconds. */
const RECHECK_THROTTLE_SECONDS = 60;
const SWEEP_MS = 30_000;
/** Retries and expiry of a check (the queue's and each job's). */
const JOB_OPTIONS = { retryLimit: 2, retryDelay: 30, expireInSeconds: 300 };
/** New events younger than this are swept into the queue (with `snapshot_on_create`). */
const SWEEP_WINDOW_MINUTES = 15;

const SNAPSHOT_MSG = {
  noBrowser: 'Браузер для скриншотов не найден — снимок сохранён без скриншота',
  screenshotFailed: 'Скриншот не получен',
} as const;

export interface SnapshotsDeps {
  db: Db;
  audit: Audit;
  configs: Pick<ConfigsService, 'get'>;
  config: Config;
  log: Pick<Logger, 'warn' | 'info'>;
  /** Where a screenshot is kept (the documents area, one store for every module). */
  docs: DocsService;
  /** DNS override (tests). */
  resolve?: ProbeOptions['resolve'];
  repo?: SnapshotsRepo;
}

export interface TakenSnapshot extends ProbeResult {
  id: number;
  event_id: number;
  screenshot_doc_id: number | null;
}

/**
 * The modules whose events get snapshots: those with the `snapshots` extra. The check reads the
 * event's `domain_punycode` (else `domain`), which such a module has (the registry test says so).
 */
const SNAPSHOT_MODULES: string[] = MODULE_LIST.filter((m) => m.extras.includes('snapshots')).map((m) => m.code);

export function createSnapshotsService(deps: SnapshotsDeps) {
  const { db, configs, config, log } = deps;
  const repo = deps.repo ?? createSnapshotsRepo(db);
  const { docs } = deps;
  const hostMap = parseHostMap(config.snapshotHostMap);
  let boss: PgBoss | null = null;
  let sweeper: Poller | undefined;

  async function options(): Promise<ProbeOptions> {
    return {
      timeoutMs: (await configs.get('snapshot_timeout_seconds')) * 1000,
      maxBytes: (await configs.get('snapshot_max_body_kb')) * 1024,
      maxRedirects: await configs.get('snapshot_max_redirects'),
      allowPrivate: config.outboundAllowPrivate,
      hostMap,
      ...(deps.resolve ? { resolve: deps.resolve } : {}),
    };
  }

  /** Checks one domain event now and records the snapshot (also when the check failed). */
  async function take(eventId: number): Promise<TakenSnapshot | null> {
    const ev = await repo.target(eventId, SNAPSHOT_MODULES);
    if (!ev) return null; // deleted meanwhile: nothing to record
    const o = await options();
    const result: ProbeResult = ev.host
      ? await probe(ev.host.toLowerCase(), o)
      : { ip: null, http_status: null, final_url: null, page_title: null, error: 'У события нет домена' };

    let screenshotDocId: number | null = null;
    let note: string | null = null;
    if (result.final_url && result.ip && result.http_status) {
      const chromium = await findChromium(await configs.get('snapshot_chromium_path'), config.chromiumPath);
      // Without a browser the snapshot is saved without a screenshot (the console says so); no error.
      if (!chromium) log.info({ eventId }, SNAPSHOT_MSG.noBrowser);
      else {
        try {
          const png = await takeScreenshot({
            chromium,
            url: result.final_url,
            ip: result.ip,
            timeoutMs: o.timeoutMs,
            allowPrivate: o.allowPrivate,
          });
          const doc = await docs.upload({
            kind: 'screenshot',
            companyId: ev.company_id,
            eventId: ev.id,
            ownerUserId: null,
            filename: `Снимок ${ev.host} ${new Date().toISOString().slice(0, 16).replace('T', ' ')}.png`,
            mimetype: 'image/png',
            stream: Readable.from(png),
          });
          screenshotDocId = doc.id;
        } catch (e) {
          note = `${SNAPSHOT_MSG.screenshotFailed}: ${(e as Error).message.split('\n')[0]?.slice(0, 200)}`;
          log.warn({ err: errInfo(e), eventId }, 'snapshot screenshot failed');
        }
      }
    }
    const error = [result.error, note].filter(Boolean).join('; ') || null;
    const id = await repo.record({
      eventId: ev.id,
      screenshotDocId,
      ip: result.ip,
      httpStatus: result.http_status,
      pageTitle: result.page_title,
      finalUrl: result.final_url,
      error,
    });
    if (id === null) return null;
    return { ...result, error, id, event_id: ev.id, screenshot_doc_id: screenshotDocId };
  }

  /**
   * Queues a check of the event: 'queued'; 'throttled' when a manual check of this event was queued in
   * the last minute (repeated clicks do not launch a browser each); 'unavailable' when no queue is
   * attached (nothing would run it).
   */
  async function enqueue(eventId: number, opts: { auto?: boolean } = {}): Promise<'queued' | 'throttled' | 'unavailable'> {
    if (!boss) return 'unavailable';
    if (!opts.auto) {
      // A manual check recorded on this event in the last minute (the action's history entry).
      if (await repo.recheckedWithin(eventId, RECHECK_THROTTLE_SECONDS)) return 'throttled';
    }
    const id = await boss.send(
      SNAPSHOT_QUEUE,
      { event_id: eventId },
      { ...JOB_OPTIONS, ...(opts.auto ? { singletonKey: `auto-${eventId}`, singletonSeconds: 3600 } : {}) },
    );
    return id !== null ? 'queued' : 'throttled';
  }

  /** With `snapshot_on_create` = 1: recent domain events without a snapshot go to the queue. */
  async function sweep(): Promise<number> {
    if ((await configs.get('snapshot_on_create')) !== 1) return 0;
    const ids = await repo.unsnapped(SNAPSHOT_MODULES, SWEEP_WINDOW_MINUTES, 500);
    for (const id of ids) await enqueue(id, { auto: true });
    return ids.length;
  }

  return {
    take,
    enqueue,
    sweep,
    /** Every role queues; ROLE=all|worker also runs the checks and the new-event sweep. */
    async attach(b: PgBoss, opts: { work: boolean }) {
      boss = b;
      await b.createQueue(SNAPSHOT_QUEUE, { name: SNAPSHOT_QUEUE, ...JOB_OPTIONS });
      if (!opts.work) return;
      await b.work<{ event_id: number }>(SNAPSHOT_QUEUE, { batchSize: 1, pollingIntervalSeconds: 1 }, async ([job]) => {
        if (job) await take(job.data.event_id);
      });
      sweeper = startPoller({ intervalMs: SWEEP_MS, run: sweep, log, failure: 'snapshot sweep failed' });
    },
    async stop() {
      await sweeper?.stop();
      sweeper = undefined;
      boss = null;
    },
  };
}
export type SnapshotsService = ReturnType<typeof createSnapshotsService>;
