/*
 * The classification pipeline: a worker takes queued events (InQueueToML → SentToML), asks the
 * built-in classifier or the external one named in configs, and records Done with the result or
 * Failed with the reason (retried with backoff). Analysts can re-queue an event.
 */
import {
  type ClassificationResult,
  type ExternalClassifierRequest,
  externalClassifierResponse,
  ML_BATCH,
  ML_MAX_ATTEMPTS,
  ML_MSG,
  ML_TIMEOUT_MS,
  type MlInfo,
  mlRetryDelayMs,
} from '@forpost/contract/classifier';
import { EVENT_MSG, getModule, isModuleCode, type MlState, type ModuleCode } from '@forpost/contract/modules';
import type { Db } from '../../db/client';
import { assertModule, assertOn, type Caller, scopeFor } from '../../lib/caller';
import { notFound } from '../../lib/errors';
import type { Logger } from '../../lib/logger';
import { errInfo } from '../../lib/logger';
import { createOutboundFetch, GUARDED, type OutboundFetch, type OutboundPolicy, OutboundRefusedError } from '../../lib/outbound';
import { iso } from '../../lib/serialize';
import type { ConfigsService } from '../configs/index';
import { type ClaimedEvent, type ClassifierRepo, createClassifierRepo, type Outcome } from './classifier.repo';
import { phishingScore } from './phishing';
import { sentimentOf } from './sentiment';

export interface ClassifierServiceDeps {
  db: Db;
  configs: Pick<ConfigsService, 'get'>;
  log: Pick<Logger, 'warn'>;
  repo?: ClassifierRepo;
  /** The SSRF guard of the call to `classifier_url` (lib/outbound.ts); on by default. */
  outbound?: OutboundPolicy;
  /** Replaceable for tests; default the guarded fetch of `outbound`. */
  fetch?: OutboundFetch;
  now?: () => Date;
  /** How long the external classifier may take (ML_TIMEOUT_MS). */
  timeoutMs?: number;
}

/** A classifier failure with a Russian reason that is stored on the event. */
class ClassifyError extends Error {}

type Brand = { name: string; brands: string[]; domains: string[] };

/** What the built-in classifier judges in a module's events (its descriptor's `classify`), if anything. */
const classifyOf = (module: string) => (isModuleCode(module) ? getModule(module).classify : undefined);

/** The sentiment of a text: connotation, strength and the evaluative words found. */
function sentimentResult(text: string): ClassificationResult {
  const s = sentimentOf(text);
  const reasons: string[] = [];
  if (s.negative.length) reasons.push(`Негативные слова: ${[...new Set(s.negative)].slice(0, 8).join(', ')}`);
  if (s.positive.length) reasons.push(`Позитивные слова: ${[...new Set(s.positive)].slice(0, 8).join(', ')}`);
  if (!reasons.length) reasons.push('Оценочной лексики не найдено');
  return { connotation: s.connotation, score: Math.round(Math.abs(s.score) * 100) / 100, reasons };
}

/** The phishing score of a domain against the company's brands, with what it found as labels. */
function phishingResult(domain: string, brand: Brand, importedSimilarity: number | null): ClassificationResult {
  const p = phishingScore(domain, brand, importedSimilarity);
  const labels = [
    ...(p.ownDomain ? ['own_domain'] : []),
    ...(p.homoglyphs ? ['homoglyphs'] : []),
    ...(p.riskyZone ? ['risky_zone'] : []),
    ...p.keywords.map((k) => `keyword:${k}`),
  ];
  return { score: p.score, priority: p.priority, labels, reasons: p.reasons };
}

/**
 * The built-in classifier, as the module's descriptor says: the sentiment of its text fields (with the
 * title), or the phishing score of its first domain field that is set (else the title); other modules
 * have no automatic judgement.
 */
function builtinClassify(ev: Pick<ClaimedEvent, 'module' | 'title' | 'data'>, brand: Brand): ClassificationResult {
  const how = classifyOf(ev.module);
  const d = ev.data ?? {};
  const texts = (how?.fields ?? []).map((k) => d[k]).filter((x): x is string => typeof x === 'string');
  if (how?.kind === 'sentiment') return sentimentResult([...texts, ev.title].join('. '));
  if (how?.kind === 'phishing') {
    const imported = how.similarityField ? d[how.similarityField] : undefined;
    return phishingResult(texts[0] ?? ev.title, brand, typeof imported === 'number' ? imported : null);
  }
  return { reasons: [ML_MSG.noClassifier] };
}

export function createClassifierService(deps: ClassifierServiceDeps) {
  const { db, configs, log } = deps;
  const repo = deps.repo ?? createClassifierRepo(db);
  const doFetch = deps.fetch ?? createOutboundFetch(deps.outbound ?? GUARDED);
  const now = deps.now ?? (() => new Date());
  let priorityIds: Map<string, number> | null = null;

  async function externalFor(module: string): Promise<string | null> {
    const url = (await configs.get('classifier_url')).trim();
    if (!url) return null;
    const list = String(await configs.get('classifier_modules'))
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    return list.length === 0 || list.includes(module) ? url : null;
  }

  async function callExternal(url: string, body: ExternalClassifierRequest): Promise<ClassificationResult> {
    let res: Response;
    try {
      res = await doFetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(deps.timeoutMs ?? ML_TIMEOUT_MS),
        redirect: 'error',
      });
    } catch (e) {
      if (e instanceof OutboundRefusedError) throw new ClassifyError(e.message);
      const name = (e as Error).name;
      throw new ClassifyError(name === 'TimeoutError' || name === 'AbortError' ? ML_MSG.timeout : ML_MSG.unreachable);
    }
    if (!res.ok) {
      await res.body?.cancel().catch(() => undefined);
      throw new ClassifyError(ML_MSG.httpError(res.status));
    }
    let json: unknown;
    try {
      const text = await res.text();
      if (text.length > 1_000_000) throw new Error('too large');
      json = JSON.parse(text);
    } catch (e) {
      const name = (e as Error).name;
      if (name === 'TimeoutError' || name === 'AbortError') throw new ClassifyError(ML_MSG.timeout);
      throw new ClassifyError(`${ML_MSG.badResponse}: не JSON`);
    }
    const parsed = externalClassifierResponse.safeParse(json);
    if (!parsed.success) {
      const i = parsed.error.issues[0];
      throw new ClassifyError(
        `${ML_MSG.badResponse}${i ? `: ${i.path.length ? `${i.path.join('.')} — ` : ''}${i.message}` : ''}`,
      );
    }
    return parsed.data;
  }

  async function classifyOne(ev: ClaimedEvent, brands: Map<number, Promise<Brand>>): Promise<Outcome> {
    let brand = brands.get(ev.company_id);
    if (!brand) {
      brand = repo.brandProfile(ev.company_id);
      brands.set(ev.company_id, brand);
    }
    const url = await externalFor(ev.module);
    const classifier = url ? 'external' : 'builtin';
    try {
      let result: ClassificationResult;
      if (url) {
        const b = await brand;
        result = await callExternal(url, {
          event: { id: ev.id, module: ev.module, company_id: ev.company_id, title: ev.title, data: ev.data ?? {} },
          company: { id: ev.company_id, name: b.name, domains: b.domains },
        });
      } else result = builtinClassify(ev, await brand);
      priorityIds ??= await repo.priorityIds();
      const priorityId = result.priority ? priorityIds.get(`${ev.module}:${result.priority}`) : undefined;
      return {
        id: ev.id,
        ok: true,
        classifier,
        result,
        ...(classifyOf(ev.module)?.kind === 'sentiment' && result.connotation ? { connotation: result.connotation } : {}),
        ...(priorityId ? { priorityId } : {}),
      };
    } catch (e) {
      const reason = e instanceof ClassifyError ? e.message : ML_MSG.unreachable;
      if (!(e instanceof ClassifyError)) log.warn({ err: errInfo(e), eventId: ev.id }, 'classification failed');
      const retry = ev.attempts < ML_MAX_ATTEMPTS ? new Date(now().getTime() + mlRetryDelayMs(ev.attempts)) : null;
      return { id: ev.id, ok: false, classifier, error: reason, nextAttemptAt: retry };
    }
  }

  /** Runs `fn` over `items` with at most `n` at a time. */
  async function pool<T, R>(items: T[], n: number, fn: (t: T) => Promise<R>): Promise<R[]> {
    const out: R[] = new Array(items.length);
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(n, items.length) }, async () => {
        while (next < items.length) {
          const i = next++;
          out[i] = await fn(items[i] as T);
        }
      }),
    );
    return out;
  }

  /** One batch: due retries back to the queue, claim, classify, record. Returns how many were processed. */
  async function runOnce(batch = ML_BATCH): Promise<{ processed: number; done: number; failed: number }> {
    const t = now();
    await repo.requeueDue(t);
    await repo.recoverStuck(new Date(t.getTime() - 10 * 60_000));
    const claimed = await repo.claim(batch);
    if (!claimed.length) return { processed: 0, done: 0, failed: 0 };
    const brands = new Map<number, Promise<Brand>>();
    const outcomes = await pool(claimed, 8, (ev) => classifyOne(ev, brands));
    await repo.record(outcomes);
    const done = outcomes.filter((o) => o.ok).length;
    return { processed: claimed.length, done, failed: claimed.length - done };
  }

  function toInfo(r: NonNullable<Awaited<ReturnType<ClassifierRepo['info']>>>): MlInfo {
    return {
      event_id: r.event_id,
      module: r.module,
      ml_state: r.ml_state as MlState,
      attempts: r.attempts ?? 0,
      classifier: r.classifier,
      result: (r.result as ClassificationResult | null) ?? null,
      last_error: r.last_error,
      next_attempt_at: iso(r.next_attempt_at),
      updated_at: iso(r.updated_at),
    };
  }

  async function load(c: Caller, module: ModuleCode, id: number, perm: 'events.read' | 'events.write') {
    assertModule(c, module);
    getModule(module);
    const r = await repo.info(module, id);
    if (!r) throw notFound(EVENT_MSG.eventNotFound);
    assertOn(c, perm, r.company_id, EVENT_MSG.eventNotFound);
    return r;
  }

  return {
    runOnce,

    /** An import is writing events now (the worker defers classification until it ends). */
    importRunning: () => repo.importRunning(),

    /** Processes batches until the queue is empty or `budgetMs` has passed. */
    async drain(budgetMs = 20_000): Promise<number> {
      const until = Date.now() + budgetMs;
      let total = 0;
      for (;;) {
        const r = await runOnce();
        total += r.processed;
        if (r.processed === 0 || Date.now() > until) return total;
      }
    },

    async info(c: Caller, module: ModuleCode, id: number): Promise<MlInfo> {
      return toInfo(await load(c, module, id, 'events.read'));
    },

    async requeue(c: Caller, module: ModuleCode, id: number): Promise<MlInfo> {
      await load(c, module, id, 'events.write');
      await repo.requeue(id, { userId: c.actor.userId ?? null, keyId: c.actor.keyId ?? null });
      const r = await repo.info(module, id);
      if (!r) throw notFound(EVENT_MSG.eventNotFound);
      return toInfo(r);
    },

    async requeueFailed(c: Caller, body: { company_id?: number; module?: ModuleCode }): Promise<{ count: number }> {
      if (body.module) assertModule(c, body.module);
      const scope = scopeFor(c, 'events.write', body.company_id);
      if (scope !== 'all' && !scope.length) return { count: 0 };
      return { count: await repo.requeueFailed(scope, body.module) };
    },

    async summary(c: Caller, companyId?: number) {
      const scope = scopeFor(c, 'events.read', companyId);
      if (scope !== 'all' && !scope.length) return { queued: 0, sent: 0, failed: 0, failed_final: 0 };
      return repo.summary(scope);
    },
  };
}
export type ClassifierService = ReturnType<typeof createClassifierService>;
