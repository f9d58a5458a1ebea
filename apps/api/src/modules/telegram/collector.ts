/*
 * The public-preview collector (ROLE=all|worker): reads channels from Telegram's web preview
 * (`<telegram_preview_url>/s/<name>`, older pages by `?before=`), no account needed. A channel is one
 * source for all companies that follow it (telegram_sources): collected once, each post handed to the
 * message filter, which stores it for a company only when that company's keywords match.
 *
 * One collector per channel across all machines: a pass takes the source's lease in PostgreSQL
 * (claimSource; an expired lease — its worker died — is taken over) and stops as soon as it no longer
 * holds it. Resume and dedup: the source remembers the last post id read; a pass reads the newest page
 * and older pages back to that id (at most `telegram_preview_pages` pages), then files the new posts
 * oldest first in batches, moving the last id after each filed batch — a pass cut short by a crash is
 * read again from there, and a post filed twice is stored once (unique per subscription and post).
 */
import { randomUUID } from 'node:crypto';
import { telegramLink } from '@forpost/contract/telegram';
import type { AuditActor } from '../../lib/audit';
import { errInfo, type Logger } from '../../lib/logger';
import type { OutboundFetch } from '../../lib/outbound';
import { type Poller, startPoller } from '../../lib/poller';
import type { ConfigsService } from '../configs/index';
import { type PreviewPage, type PreviewPost, parsePreview } from './preview';
import type { SourceRow, TelegramRepo } from './telegram.repo';

/** How often the poller looks for due channels; how long a lease holds without renewal. */
const TICK_MS = 5_000;
export const LEASE_SECONDS = 120;
/** Posts filed per batch (the last id moves after each). */
const BATCH = 50;
const PAGE_TIMEOUT_MS = 15_000;
/** Channels read at once by one worker. */
const CONCURRENCY = 4;
const PAGE_MAX_BYTES = 5 * 1024 * 1024;
/** After a failure the channel is tried again after this long (a missing channel: rarely). */
const RETRY_SECONDS = 600;
const NOT_FOUND_RETRY_SECONDS = 6 * 3600;

export const COLLECTOR_MSG = {
  notFound: 'Канал не найден в веб-просмотре Telegram: имя неверно, канал закрытый или это не канал',
  http: (status: number) => `Веб-просмотр Telegram ответил кодом ${status}`,
  network: 'Веб-просмотр Telegram недоступен',
  tooBig: 'Страница веб-просмотра слишком большая',
} as const;

/** Subscriptions and the filing of posts, from the message filter (wired in app.ts). */
export interface PostSink {
  ingest(
    subs: { id: number; username: string; companyId: number }[],
    posts: {
      messageId: number;
      text: string;
      author: string | null;
      forwardedFrom?: string | null;
      views?: number | null;
      editedAt?: Date | null;
      url: string | null;
      postedAt: Date;
    }[],
    actor: AuditActor,
  ): Promise<{ created: number[]; existing: number[] }[]>;
  /** Marks the stored posts with ids in [from, to] missing from `present` deleted (the account path). */
  markDeleted(
    subs: { id: number; username: string; companyId: number }[],
    range: { from: number; to: number },
    present: readonly number[],
    actor: AuditActor,
  ): Promise<number>;
}

export interface PassResult {
  sources: number;
  read: number;
  stored: number;
}

class PreviewError extends Error {
  constructor(
    message: string,
    readonly notFound = false,
  ) {
    super(message);
  }
}

export function createPreviewCollector(deps: {
  repo: TelegramRepo;
  configs: Pick<ConfigsService, 'get'>;
  fetch: OutboundFetch;
  sink: PostSink;
  log: Pick<Logger, 'warn' | 'info'>;
  /** This worker's name in leases (default: a random id per process). */
  owner?: string;
}) {
  const { repo, configs, sink } = deps;
  const owner = deps.owner ?? `preview-${randomUUID()}`;
  const actor: AuditActor = { userId: null, keyId: null };

  async function page(base: string, username: string, before?: number): Promise<PreviewPage> {
    const name = username.replace(/^@/, '');
    const url = `${base.replace(/\/+$/, '')}/s/${encodeURIComponent(name)}${before ? `?before=${before}` : ''}`;
    let res: Response;
    try {
      res = await deps.fetch(url, {
        headers: { accept: 'text/html', 'accept-language': 'ru' },
        signal: AbortSignal.timeout(PAGE_TIMEOUT_MS),
      });
    } catch {
      throw new PreviewError(COLLECTOR_MSG.network);
    }
    if (res.status === 404) throw new PreviewError(COLLECTOR_MSG.notFound, true);
    if (!res.ok) throw new PreviewError(COLLECTOR_MSG.http(res.status));
    const body = await res.text();
    if (body.length > PAGE_MAX_BYTES) throw new PreviewError(COLLECTOR_MSG.tooBig);
    const p = parsePreview(body, username);
    if (!p.exists) throw new PreviewError(COLLECTOR_MSG.notFound, true);
    return p;
  }

  /** New posts of a channel since `last` (all of the last `maxPages` pages when never read), oldest first. */
  async function newPosts(base: string, src: SourceRow, maxPages: number): Promise<PreviewPost[]> {
    const last = src.lastMessageId ?? 0;
    const byId = new Map<number, PreviewPost>();
    let before: number | undefined;
    for (let n = 0; n < maxPages; n++) {
      const p = await page(base, src.username, before);
      for (const post of p.posts) if (post.id > last) byId.set(post.id, post);
      const oldest = p.posts[0]?.id;
      // Back far enough (or the page links nothing older, or makes no progress): done.
      if (oldest === undefined || oldest <= last + 1 || p.before === null || (before !== undefined && p.before >= before)) break;
      before = Math.min(p.before, oldest);
    }
    return [...byId.values()].sort((a, b) => a.id - b.id);
  }

  /** One channel under its lease: read, file in batches, move the last id; the outcome on the source. */
  async function collect(src: SourceRow, stopped: () => boolean): Promise<{ read: number; stored: number }> {
    const base = await configs.get('telegram_preview_url');
    const interval = await configs.get('telegram_preview_interval_seconds');
    const maxPages = await configs.get('telegram_preview_pages');
    let read = 0;
    let stored = 0;
    try {
      const posts = await newPosts(base, src, maxPages);
      const subs = await repo.activeSubscriptions(src.username);
      for (let i = 0; i < posts.length && !stopped(); i += BATCH) {
        const batch = posts.slice(i, i + BATCH);
        const filed = await sink.ingest(
          subs,
          batch.map((p) => ({
            messageId: p.id,
            text: p.text,
            author: p.author,
            forwardedFrom: p.forwardedFrom,
            views: p.views,
            url: telegramLink(src.username, p.id),
            postedAt: p.postedAt,
          })),
          actor,
        );
        read += batch.length;
        stored += filed.reduce((n, f) => n + f.created.length, 0);
        const lastId = batch[batch.length - 1]?.id as number;
        // The lease was taken over (this worker was too slow or paused): the new holder goes on.
        if (!(await repo.advanceSource(src.id, owner, lastId, LEASE_SECONDS))) return { read, stored };
      }
      await repo.finishSource(src.id, owner, { state: 'ok', error: null, nextInSeconds: interval, collected: true });
    } catch (e) {
      if (!(e instanceof PreviewError)) throw e;
      await repo.finishSource(src.id, owner, {
        state: e.notFound ? 'not_found' : 'error',
        error: e.message,
        nextInSeconds: e.notFound ? NOT_FOUND_RETRY_SECONDS : Math.min(RETRY_SECONDS, interval),
        collected: false,
      });
    }
    return { read, stored };
  }

  /**
   * Every due channel once (or until `stopped()`): enrol, then claim one, collect it, repeat — in
   * CONCURRENCY loops, so that one slow or unreachable channel does not hold up the others.
   */
  async function pass(stopped: () => boolean = () => false): Promise<PassResult> {
    const res: PassResult = { sources: 0, read: 0, stored: 0 };
    if (!(await configs.get('telegram_preview_url'))) return res;
    await repo.enrolSources();
    const loop = async () => {
      for (;;) {
        if (stopped()) return;
        const src = await repo.claimSource(owner, LEASE_SECONDS, 'preview');
        if (!src) return;
        res.sources++;
        try {
          const r = await collect(src, stopped);
          res.read += r.read;
          res.stored += r.stored;
        } catch (e) {
          // Not the page's fault (the database, a bug): logged, the lease runs out and the channel is retried.
          deps.log.warn({ err: errInfo(e), channel: src.username }, 'telegram preview collection failed');
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, loop));
    return res;
  }

  const pollers: Poller[] = [];
  return {
    owner,
    pass,
    /** ROLE=all|worker: a pass every few seconds. `background: false` (tests): none (call pass). */
    attach(opts: { work: boolean; background?: boolean }) {
      if (!opts.work || opts.background === false) return;
      pollers.push(startPoller({ intervalMs: TICK_MS, run: pass, log: deps.log, failure: 'telegram preview pass failed' }));
    },
    async stop() {
      for (const p of pollers.splice(0)) await p.stop();
    },
  };
}
export type PreviewCollector = ReturnType<typeof createPreviewCollector>;
