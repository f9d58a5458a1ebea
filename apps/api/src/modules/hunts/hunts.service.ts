/*
 * Hunts (#34): a stored dump matched against every company's protected identities, a byte range per job.
 *
 * - `create` records the hunt and its ranges in one transaction: a plain-text dump is cut into byte ranges
 *   (scanRange reads each range's own lines), a compressed one is one range (a stream cannot be entered midway).
 * - `runRange` is a job's body: it holds the range's job lock, scans, and writes matches in batches — each
 *   batch's events, linked leaks, results and the range's counters in ONE transaction. A range taken over after
 *   its worker died is scanned anew: its counters are absolute (overwritten) and a result is unique per hunt,
 *   company and login in SQL, so nothing is counted twice and nothing committed is lost.
 * - The password leaves the matcher only as its verdict (masked, HMAC, class); errors hold Russian messages
 *   of HuntInputError or the generic failure text, never a line of the dump.
 */
import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { getModule } from '@forpost/contract/modules';
import type pg from 'pg';
import type { Db } from '../../db/client';
import { dropTemp, tempPath, withJobLock } from '../../db/jobs-kit';
import type { Audit, AuditActor } from '../../lib/audit';
import type { DocStore } from '../../lib/docstore';
import { ApiError } from '../../lib/errors';
import type { Logger } from '../../lib/logger';
import type { CardVault, CreateGuards, EventsRepo, Refs, WhitelistKindFor } from '../events/index';
import { newEventData } from '../events/index';
import type { EventRecord } from '../imports/index';
import { type EventWriter, writeEvents } from '../imports/index';
import { notify } from '../notifications/index';
import { createHuntsRepo, type HuntRow, type ResultRow } from './hunts.repo';
import { type HuntMatch, HuntMatcher } from './matcher';
import { checkText, containerOf, HuntInputError, scanFile, scanRange, scanStream, splitRanges } from './reader';
import { accountFinding } from './results';
import { huntKey } from './verdict';

export const LOCK_HUNT = 0x1f4;
export const HUNT_MSG = {
  failed: 'Поиск утечек прерван из-за внутренней ошибки; запустите его снова',
  noLeak: 'Утечка не найдена в каталоге',
  noFile: 'Файл дампа не найден в хранилище',
  empty: 'Файл дампа пуст',
  notify: 'новые скомпрометированные учётные записи',
  notFound: 'Поиск утечек не найден',
} as const;

/** Bytes per range of a plain-text dump (each range a job; any number of workers take them). */
export const RANGE_BYTES = 64 * 1024 * 1024;
/** Matches per batch transaction, and at most this long between two commits of a range's progress. */
const BATCH = 500;
const BATCH_MS = 1000;

export interface HuntEngine {
  events: EventsRepo;
  refs: Refs;
  vault: CardVault;
  guards: CreateGuards;
  whitelistKindFor: WhitelistKindFor;
}

export interface HuntsDeps {
  db: Db;
  pool: pg.Pool;
  store: DocStore;
  secret: string;
  dataDir: string;
  engine: () => HuntEngine;
  audit: Audit;
  log: Pick<Logger, 'info' | 'warn'>;
  /** Queues the range jobs (pg-boss send inside the creating transaction when given a client). */
  enqueue?: (rangeIds: number[]) => Promise<void>;
}

export interface RunHooks {
  /** Called after each committed batch (tests: a worker dying mid-range throws here). */
  afterBatch?: (n: number) => void | Promise<void>;
  /** Matches per batch (default BATCH). */
  batch?: number;
}

export function createHuntsService(deps: HuntsDeps) {
  const repo = createHuntsRepo(deps.db);
  const key = huntKey(deps.secret);
  const m = getModule('accounts');

  async function create(p: {
    leakId: number;
    docKey: string;
    fileName: string;
    createdBy: number | null;
    actor?: AuditActor;
    rangeBytes?: number;
  }) {
    if (!(await repo.leakExists(p.leakId))) throw new ApiError(404, HUNT_MSG.noLeak);
    let size: number;
    try {
      size = await deps.store.size(p.docKey);
    } catch {
      throw new ApiError(404, HUNT_MSG.noFile);
    }
    if (size === 0) throw new ApiError(400, HUNT_MSG.empty);
    const head = await readHead(p.docKey, size);
    // Ranges spread a dump over machines, which share a bucket; a dump on this machine's disk is one range,
    // which grep reads from the disk itself (at its own speed: bench/README.md) unless a test asks for ranges
    const spread = p.rangeBytes !== undefined || !deps.store.localPath;
    const ranges =
      containerOf(head) === 'text' && spread
        ? splitRanges(size, Math.ceil(size / (p.rangeBytes ?? RANGE_BYTES)))
        : [{ start: 0, end: size }];
    const { id, rangeIds } = await deps.db.transaction(async (tx) => {
      const id = await repo.insertHunt(tx, {
        leakId: p.leakId,
        docKey: p.docKey,
        fileName: p.fileName,
        size,
        createdBy: p.createdBy,
      });
      const rangeIds = await repo.insertRanges(tx, id, ranges);
      await deps.audit.record(
        p.actor ?? { userId: p.createdBy },
        {
          action: 'hunt.create',
          entity: 'hunt',
          entityId: id,
          after: { leak_id: p.leakId, file_name: p.fileName, size, ranges: ranges.length },
        },
        tx,
      );
      return { id, rangeIds };
    });
    await deps.enqueue?.(rangeIds);
    return { id, rangeIds };
  }

  async function readHead(docKey: string, size: number): Promise<Buffer> {
    const parts: Buffer[] = [];
    for await (const c of await deps.store.get(docKey, { start: 0, end: Math.min(size, 64 * 1024) - 1 })) parts.push(c as Buffer);
    return Buffer.concat(parts);
  }

  /** A job's body: scans range `rangeId` holding its lock. Returns false when another worker holds it. */
  async function runRange(rangeId: number, hooks: RunHooks = {}): Promise<boolean> {
    const ran = await withJobLock(deps.pool, LOCK_HUNT, rangeId, async () => {
      const range = await repo.range(rangeId);
      if (!range || range.status === 'done' || range.status === 'failed') return true;
      const hunt = await repo.hunt(range.hunt_id);
      if (!hunt || hunt.status === 'done' || hunt.status === 'failed') return true;
      await repo.beginRange(rangeId);
      try {
        await scan(hunt, range, hooks);
      } catch (e) {
        if (e instanceof HuntInputError) {
          deps.log.info({ huntId: hunt.id, rangeId, code: e.code }, 'hunt refused its input');
          await repo.fail(hunt.id, e.message);
          return true;
        }
        throw e;
      }
      return true;
    });
    return ran === true;
  }

  async function scan(hunt: HuntRow, range: { id: number; start: number; end: number }, hooks: RunHooks) {
    const companies = await repo.identities();
    let pending: HuntMatch[] = [];
    let last = Date.now();
    let batches = 0;
    const matcher = new HuntMatcher(companies, { key, onMatch: (x) => pending.push(x) });
    let bytes = 0;
    const size = hooks.batch ?? BATCH;
    /** Commits the pending matches a batch at a time (the range's counters with each; `done` with the last). */
    const flush = async (done: boolean) => {
      do {
        const batch = pending.slice(0, size);
        pending = pending.slice(size);
        await writeBatch(hunt, range.id, batch, { ...matcher.stats, bytes }, done && !pending.length);
        last = Date.now();
        batches++;
        await hooks.afterBatch?.(batches);
      } while (pending.length);
    };
    const onProgress = async (read: number) => {
      bytes = read;
      if (pending.length >= size || Date.now() - last >= BATCH_MS) await flush(false);
    };
    const whole = range.start === 0 && range.end >= hunt.size;
    const head = await readHead(hunt.doc_key, hunt.size);
    const container = containerOf(head);
    if (container === 'zip') {
      const file = await tempPath(deps.dataDir, '.zip');
      try {
        await pipeline(await deps.store.get(hunt.doc_key), createWriteStream(file, { mode: 0o600 }));
        await scanFile(file, matcher, { onProgress });
      } finally {
        await dropTemp(file);
      }
    } else if (container === 'text' && whole && deps.store.localPath) {
      await scanFile(deps.store.localPath(hunt.doc_key), matcher, { onProgress, size: hunt.size });
    } else if (container !== 'text' || whole) {
      if (container === 'text') checkText(head);
      await scanStream(await deps.store.get(hunt.doc_key), matcher, { onProgress, size: hunt.size });
    } else {
      if (range.start === 0) checkText(head);
      await scanRange(async (s, e) => deps.store.get(hunt.doc_key, { start: s, end: e }), range, hunt.size, matcher, {
        onProgress: (read) => onProgress(read),
      });
    }
    if (container === 'text') bytes = whole ? hunt.size : range.end - range.start;
    await flush(true);
    const st = matcher.stats;
    deps.log.info(
      { huntId: hunt.id, rangeId: range.id, bytes, lines: st.lines, unrecognized: st.unrecognized, matches: st.matches },
      'hunt range done',
    );
  }

  /** One transaction: the batch's events and linked leaks, its results (exactly once), the range's counters. */
  async function writeBatch(
    hunt: HuntRow,
    rangeId: number,
    batch: HuntMatch[],
    stats: { bytes: number; lines: number; unrecognized: number; parsed: number; samples: string[] },
    done: boolean,
  ) {
    const eng = deps.engine();
    const writer: EventWriter = { m, ...eng };
    const leak = { name: hunt.leak_name, leakedAt: hunt.leaked_at };
    const notifyCompanies: number[] = [];
    await deps.db.transaction(async (tx) => {
      // one finding per company and login (case-folded) within the batch
      const byKey = new Map<string, ReturnType<typeof accountFinding>>();
      for (const x of batch) {
        const f = accountFinding(x, leak);
        const k = `${f.companyId}:${f.input.login.toLowerCase()}`;
        const had = byKey.get(k);
        if (!had || (f.corporateUrl && !had.corporateUrl)) byKey.set(k, f);
      }
      const keys = [...byKey.keys()].map((k) => {
        const i = k.indexOf(':');
        return { companyId: Number(k.slice(0, i)), login: k.slice(i + 1) };
      });
      const written = await repo.knownResults(tx, hunt.id, keys);
      const todo = keys.filter((k) => !written.has(`${k.companyId}:${k.login}`));
      const known = await repo.accountEvents(tx, todo);
      const fresh = todo.filter((k) => !known.has(`${k.companyId}:${k.login}`));
      if (fresh.length) {
        const records: EventRecord[] = fresh.map((k, i) => {
          const f = byKey.get(`${k.companyId}:${k.login}`)!;
          return { row: i + 1, companyId: f.companyId, input: f.input, ...newEventData(m, f.input, eng.vault), source: 'Other' };
        });
        await writeEvents(writer, tx, records, { mode: 'skip', authorId: null, authorKeyId: null, importId: null });
      }
      const created = await repo.accountEvents(tx, fresh);
      const results: ResultRow[] = todo.map((k) => {
        const kk = `${k.companyId}:${k.login}`;
        const f = byKey.get(kk)!;
        const eventId = known.get(kk) ?? created.get(kk) ?? null;
        return {
          companyId: k.companyId,
          login: k.login,
          eventId,
          isNew: !known.has(kk) && eventId !== null,
          corporateUrl: f.corporateUrl,
          service: f.input.service ?? null,
          passwordKind: f.input.password_kind,
          masked: f.verdict.masked,
          hmac: f.verdict.hmac,
          strength: f.verdict.strength,
          hashType: f.verdict.hash_type,
        };
      });
      await repo.linkLeak(
        tx,
        results.flatMap((r) => (r.eventId === null ? [] : [r.eventId])),
        hunt.leak_id,
        null,
      );
      await repo.insertResults(tx, hunt.id, results);
      await repo.progress(tx, rangeId, stats, done);
      if (done && (await repo.finishIfDone(tx, hunt.id))) notifyCompanies.push(...(await notifyNew(tx, hunt.id)));
    });
    return notifyCompanies;
  }

  /** The bell of every member of a company the finished hunt found new accounts for. */
  async function notifyNew(tx: Db, huntId: number): Promise<number[]> {
    const rows = await repo.newPerMember(tx, huntId);
    await notify(
      tx,
      rows.map((x) => ({
        userId: x.user_id,
        kind: 'hunt' as const,
        eventId: null,
        companyId: x.company_id,
        module: 'accounts',
        text: `Поиск утечек: ${HUNT_MSG.notify} — ${x.n}`,
        actorId: null,
      })),
    );
    return [...new Set(rows.map((x) => x.company_id))];
  }

  /** A hunt as the API shows it: progress (speed, ETA) and the per-company summary. */
  async function item(id: number) {
    const [h] = await repo.items(id, 1);
    if (!h) throw new ApiError(404, HUNT_MSG.notFound);
    const s = await repo.summary(id, null);
    return {
      ...shape(h),
      progress: { ...shape(h).progress, unrecognized_samples: s.progress.samples ?? [] },
      companies: s.companies.map((c) => ({
        company_id: c.company_id,
        company_name: c.name,
        found: c.found,
        new: c.fresh,
        corporate_urls: c.corporate,
      })),
    };
  }
  function shape(h: Awaited<ReturnType<typeof repo.items>>[number]) {
    const { bytes, lines, unrecognized, parsed, ranges, ranges_done, elapsed, ...rest } = h;
    const speed = elapsed && elapsed > 0 && lines > 0 ? lines / elapsed : null;
    const byteSpeed = elapsed && elapsed > 0 && bytes > 0 ? bytes / elapsed : null;
    const running = h.status === 'running';
    return {
      ...rest,
      progress: {
        bytes,
        lines,
        unrecognized,
        parsed_lines: parsed,
        unrecognized_samples: [] as string[],
        ranges,
        ranges_done,
        lines_per_second: speed === null ? null : Math.round(speed),
        eta_seconds: running && byteSpeed ? Math.max(0, Math.round((h.size - bytes) / byteSpeed)) : null,
      },
    };
  }

  return {
    repo,
    create,
    item,
    list: async () => ({ items: (await repo.items(null)).map(shape) }),
    runRange,
    fail: (huntId: number, message: string) => repo.fail(huntId, message),
    summary: repo.summary,
    hunt: repo.hunt,
  };
}
export type HuntsService = ReturnType<typeof createHuntsService>;
