/*
 * Notification mailings. CRUD is company-scoped (mailings.read / mailings.manage); a mailing of every
 * company (company_id null) is staff-only. The background `tick` collects matching new events into
 * the ledger, builds one delivery per digest and sends it, retrying failures with backoff.
 */
import { API_MSG } from '@forpost/contract/errors';
import { WEEKDAYS_RU } from '@forpost/contract/format';
import {
  type CreateMailingRequest,
  type Delivery,
  MAILING_FORMAT_LABELS,
  MAILING_FREQUENCY_LABELS,
  MAILING_MAX_ATTEMPTS,
  MAILING_MAX_EVENTS_LIMIT,
  MAILING_MSG,
  MAILING_PREVIEW_DAYS,
  MAILING_TZ,
  type Mailing,
  type MailingFilterOptions,
  type MailingFilters,
  type MailingParamOptions,
  type MailingParams,
  type MailingPreview,
  mailingFilters,
  mailingParams,
  mailingRetryDelayMs,
  type PatchMailingRequest,
} from '@forpost/contract/mailings';
import { DEFAULT_PRIORITIES, DEFAULT_STATUSES, MODULE_LIST, SOURCE_LABELS, SOURCES } from '@forpost/contract/modules';
import { can, companiesWith, type Permission } from '@forpost/contract/permissions';
import { TRANSITION_KINDS, transitionLabel } from '@forpost/contract/watch';
import type { z } from 'zod';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { Audit } from '../../lib/audit';
import type { Caller } from '../../lib/caller';
import { createDelivery } from '../../lib/delivery';
import { ApiError, badRequest, notFound } from '../../lib/errors';
import type { Logger } from '../../lib/logger';
import { errInfo } from '../../lib/logger';
import type { Mailer } from '../../lib/mailer';
import { iso } from '../../lib/serialize';
import { createCompaniesRepo } from '../companies/index';
import type { ConfigsService } from '../configs/index';
import { createAssignment, createEventsRepo, moduleEnabled } from '../events/index';
import { createTagsRepo } from '../tags/index';
import { renderDigest } from './mailings.render';
import { createMailingsRepo, type DeliveryRow, type MailingRow, type MailingsRepo } from './mailings.repo';
import { isQuiet, nextDigestAt } from './mailings.schedule';

export interface MailingsServiceDeps {
  db: Db;
  audit: Audit;
  configs: Pick<ConfigsService, 'get'>;
  config: Pick<Config, 'publicUrl' | 'dataDir' | 'mailFrom' | 'smtpUrl' | 'outboundAllowPrivate'>;
  log: Pick<Logger, 'warn' | 'info'>;
  /** A fixed mailer (tests); by default one is made per message from the SMTP settings in configs. */
  mailer?: Mailer;
  repo?: MailingsRepo;
  /** Events taken into the ledger per mailing per pass. */
  collectCap?: number;
  /** A send that takes longer than this is abandoned and retried. */
  sendTimeoutMs?: number;
}

/** An instant mailing sends at most one message per this interval (the rest waits for the next one). */
const INSTANT_MIN_INTERVAL_MS = 60_000;
const PREVIEW_CAP = 10_000;

export function createMailingsService(deps: MailingsServiceDeps) {
  const { db, audit, configs, config, log } = deps;
  const repo = deps.repo ?? createMailingsRepo(db);
  const companyRepo = createCompaniesRepo(db);
  const events = createEventsRepo(db);
  const assignment = createAssignment(db);
  const tagsRepo = createTagsRepo(db);
  const collectCap = deps.collectCap ?? 10_000;

  // The delivery path shared with reports (lib/delivery.ts): the settings' mailer, one time limit.
  const delivery = createDelivery({ configs, config, log, mailer: deps.mailer, timeoutMs: deps.sendTimeoutMs ?? 90_000 });

  /** A PATCH merged over stored values, checked with the full schema (its Russian messages, `params.hour` paths). */
  function validMerged<T>(schema: z.ZodType<T>, prefix: string, merged: unknown): T {
    const r = schema.safeParse(merged);
    if (r.success) return r.data;
    const fields: Record<string, string> = {};
    for (const i of r.error.issues) fields[[prefix, ...i.path.map(String)].join('.')] ??= i.message;
    const entries = Object.values(fields);
    throw badRequest(entries.length === 1 ? entries[0] : API_MSG.validation, fields);
  }

  const sentOnly = (o: object) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

  const parseFilters = (v: unknown): MailingFilters => mailingFilters.parse(v ?? {});
  const parseParams = (v: unknown): MailingParams => mailingParams.parse(v ?? {});

  function toMailing(r: MailingRow): Mailing {
    return {
      id: r.id,
      name: r.name,
      company_id: r.companyId,
      company_name: r.companyName,
      recipients: r.recipients,
      filters: parseFilters(r.filters),
      params: parseParams(r.params),
      is_active: r.isActive,
      is_suspended: r.companyId !== null && r.companyActive === false,
      created_by: r.createdBy !== null && r.createdByName !== null ? { id: r.createdBy, name: r.createdByName } : null,
      created_at: iso(r.createdAt),
      updated_at: iso(r.updatedAt),
      last_sent_at: iso(r.lastSentAt),
      next_digest_at: iso(r.nextDigestAt),
      stats: {
        events_sent: r.eventsSent,
        events_pending: r.eventsPending,
        deliveries_sent: r.deliveriesSent,
        deliveries_failed: r.deliveriesFailed,
      },
    };
  }

  const toDelivery = (d: DeliveryRow): Delivery => ({
    id: d.id,
    status: d.status,
    attempts: d.attempts,
    event_count: d.eventCount,
    listed_count: d.listedCount,
    subject: d.subject,
    recipients: d.recipients,
    last_error: d.lastError,
    next_attempt_at: d.status === 'retry' ? iso(d.nextAttemptAt) : null,
    created_at: iso(d.createdAt),
    sent_at: iso(d.sentAt),
  });

  /** May the caller do `perm` on a mailing of `companyId` (null = every company: staff only)? */
  const allows = (c: Caller, perm: Permission, companyId: number | null) =>
    companyId === null ? companiesWith(c.auth.principal, perm) === 'all' : can(c.auth.principal, perm, companyId);

  async function load(c: Caller, id: number, perm: 'mailings.read' | 'mailings.manage'): Promise<MailingRow> {
    const r = await repo.get(id);
    if (!r || !allows(c, 'mailings.read', r.companyId)) throw notFound(MAILING_MSG.notFound);
    if (perm === 'mailings.manage' && !allows(c, 'mailings.manage', r.companyId)) throw new ApiError(403, API_MSG.forbidden);
    return r;
  }

  /** The company of a mailing being saved: checked against the caller's rights, never trusted. */
  async function companyFor(c: Caller, requested: number | null | undefined, current?: number | null): Promise<number | null> {
    const scope = companiesWith(c.auth.principal, 'mailings.manage');
    let id: number | null;
    if (requested === undefined) {
      if (current !== undefined) return current;
      if (scope === 'all') id = null;
      else if (scope.length === 1 && scope[0] !== undefined) id = scope[0];
      else throw badRequest(MAILING_MSG.companyRequired, { company_id: MAILING_MSG.companyRequired });
    } else id = requested;
    if (id === null) {
      if (scope !== 'all')
        throw new ApiError(403, API_MSG.forbidden, {
          fields: { company_id: 'Рассылка по всем компаниям доступна только сотрудникам' },
        });
      return null;
    }
    if (!can(c.auth.principal, 'mailings.read', id) && !can(c.auth.principal, 'events.read', id)) {
      throw notFound(MAILING_MSG.companyNotFound);
    }
    if (!can(c.auth.principal, 'mailings.manage', id)) throw new ApiError(403, API_MSG.forbidden);
    if (!(await companyRepo.exists(id))) throw notFound(MAILING_MSG.companyNotFound);
    return id;
  }

  /**
   * Filters may name only modules the caller reaches (an API key limited to some modules) that are
   * enabled for the mailing's company (a company with a list of modules has events of those only), and
   * tags that exist.
   */
  async function checkFilters(c: Caller, f: MailingFilters, companyId: number | null): Promise<void> {
    const km = c.auth.principal.keyModules;
    if (km && !km.includes('*')) {
      const denied = f.modules.filter((m) => !km.includes(m));
      if (denied.length || !f.modules.length)
        throw new ApiError(403, MAILING_MSG.moduleForbidden, { fields: { 'filters.modules': MAILING_MSG.moduleForbidden } });
    }
    if (companyId !== null && f.modules.length) {
      const enabled = await companyRepo.modules(companyId);
      const off = f.modules.filter((m) => !moduleEnabled(enabled, m));
      if (off.length) {
        const names = off.map((m) => MODULE_LIST.find((x) => x.code === m)?.name ?? m).join(', ');
        const message = `${MAILING_MSG.moduleDisabled}: ${names}`;
        throw badRequest(message, { 'filters.modules': message });
      }
    }
    // Watch transitions happen to domain events only: a transitions mailing must reach that module.
    if (f.transitions.length) {
      const enabled = companyId !== null ? await companyRepo.modules(companyId) : null;
      if ((f.modules.length && !f.modules.includes('domains')) || !moduleEnabled(enabled, 'domains'))
        throw badRequest(MAILING_MSG.transitionsNeedDomains, { 'filters.transitions': MAILING_MSG.transitionsNeedDomains });
    }
    if (f.tags.length) {
      const found = await events.existingIds('tags', f.tags);
      if (f.tags.some((t) => !found.has(t)))
        throw badRequest(MAILING_MSG.tagNotFound, { 'filters.tags': MAILING_MSG.tagNotFound });
    }
    // An assignee who could never be assigned the mailing's events selects none: refused as the assignment itself is.
    if (typeof f.assignee === 'number') {
      const places = companyId === null ? [] : (f.modules.length ? f.modules : [null]).map((module) => ({ companyId, module }));
      await assignment.assignee(c, f.assignee, places).catch((e: unknown) => {
        throw e instanceof ApiError ? badRequest(e.message, { 'filters.assignee': e.message }) : e;
      });
    }
  }

  async function detail(id: number, tx: Db = db): Promise<Mailing> {
    const r = await repo.get(id, tx);
    if (!r) throw notFound(MAILING_MSG.notFound);
    return toMailing(r);
  }

  const auditView = (m: Mailing) => ({
    name: m.name,
    company_id: m.company_id,
    recipients: m.recipients,
    filters: m.filters,
    params: m.params,
    is_active: m.is_active,
  });

  /* --- sending ---------------------------------------------------------------------------- */

  async function sendDelivery(d: DeliveryRow, now: Date): Promise<'sent' | 'retry' | 'failed' | 'skipped'> {
    const m = await repo.get(d.mailingId);
    if (!m) return 'failed';
    const params = parseParams(m.params);
    const productName = String(await configs.get('product_name')) || 'Форпост';
    const { events, total } = await repo.deliveryEvents(d.id, params.max_events);
    const content = renderDigest({
      productName,
      mailingName: m.name,
      publicUrl: config.publicUrl,
      events,
      total,
      frequencyLabel: MAILING_FREQUENCY_LABELS[params.frequency],
    });
    if (total === 0) {
      // Every event of it was deleted meanwhile: nothing to send, and nothing went wrong.
      await repo.markSkipped({ id: d.id, subject: content.subject, note: MAILING_MSG.eventsDeleted });
      return 'skipped';
    }
    try {
      const html = params.format === 'html' ? { html: content.html } : {};
      const message = { to: d.recipients, subject: content.subject, text: content.text, ...html };
      const { sent } = await delivery.attempt<null, never>(async () => ({ message, keep: null }));
      await db.transaction(async (tx) => {
        await repo.markSent(
          {
            id: d.id,
            subject: content.subject,
            messageId: sent.messageId,
            listed: events.length,
            total,
            // The server took the message for the others: sent, with the refused addresses on record.
            note: sent.rejected?.length ? MAILING_MSG.rejected(sent.rejected) : null,
          },
          tx,
        );
        await repo.stampSent(m.id, tx);
      });
      if (sent.rejected?.length)
        log.warn({ mailingId: m.id, deliveryId: d.id, rejected: sent.rejected.length }, 'mailing recipients refused');
      return 'sent';
    } catch (e) {
      const raw = (e as Error).message || String(e);
      const error = `Ошибка отправки: ${raw.replace(/[\r\n]+/g, ' ').slice(0, 500)}`;
      const retryAt = d.attempts < MAILING_MAX_ATTEMPTS ? new Date(now.getTime() + mailingRetryDelayMs(d.attempts)) : null;
      await repo.markFailed({ id: d.id, subject: content.subject, error, retryAt });
      log.warn({ mailingId: m.id, deliveryId: d.id, attempt: d.attempts, error: raw.slice(0, 300) }, 'mailing delivery failed');
      return retryAt ? 'retry' : 'failed';
    }
  }

  /**
   * Adds the events matching the mailing to its ledger, from a day before the last pass (late
   * commits) but never before the mailing started. A capped pass leaves the watermark where it was,
   * so the rest is picked up next time. A mailing subscribed to watch transitions collects instead
   * the transitions of those kinds that happened (in the same window) to events its filters match.
   */
  async function collect(m: MailingRow, filters: MailingFilters, now: Date): Promise<number> {
    const from = new Date(Math.max(m.startsAt.getTime(), (m.collectedUntil ?? now).getTime() - 86_400_000));
    const companyIds: 'all' | number[] = m.companyId == null ? 'all' : [m.companyId];
    const n = filters.transitions.length
      ? await repo.collectTransitions(m.id, companyIds, filters, from, collectCap)
      : await repo.collect(m.id, companyIds, filters, from, collectCap);
    if (n < collectCap) await repo.setCollectedUntil(m.id, now);
    return n;
  }

  /**
   * One delivery with every waiting ledger row of the mailing, under the mailing's lock (two workers
   * never split or double a digest), and the next digest planned. False when there was nothing to send.
   */
  async function openDelivery(m: MailingRow, nextDigest: Date | null): Promise<boolean> {
    return db.transaction(async (tx) => {
      if (!(await repo.tryLock(m.id, tx))) return false;
      const id = await repo.insertDelivery(m.id, m.recipients, tx);
      if (!(await repo.attachWaiting(m.id, id, tx))) {
        await repo.removeDelivery(id, tx);
        return false;
      }
      await repo.setNextDigest(m.id, nextDigest, tx);
      return true;
    });
  }

  /**
   * One pass of the mailing worker: match new events of every active mailing, open a delivery where
   * one is due (instant: now, at most once a minute; digests: at their time; never in quiet hours),
   * then send what is due (new deliveries and retries).
   */
  async function tick(now: Date = new Date()) {
    const stats = { collected: 0, deliveries: 0, sent: 0, retry: 0, failed: 0, skipped: 0 };
    for (const m of await repo.active()) {
      try {
        const filters = parseFilters(m.filters);
        const params = parseParams(m.params);
        stats.collected += await collect(m, filters, now);
        if (isQuiet(now, params.quiet_hours)) continue;
        let due: boolean;
        if (params.frequency === 'instant') {
          due = !m.lastSentAt || now.getTime() - m.lastSentAt.getTime() >= INSTANT_MIN_INTERVAL_MS;
        } else if (!m.nextDigestAt) {
          await repo.setNextDigest(m.id, nextDigestAt(params, now));
          due = false;
        } else due = now.getTime() >= m.nextDigestAt.getTime();
        if (!due) continue;
        const next = params.frequency === 'instant' ? null : nextDigestAt(params, now);
        if ((await repo.pendingCount(m.id)) === 0) {
          if (next) await repo.setNextDigest(m.id, next); // nothing new: no empty digest
          continue;
        }
        if (await openDelivery(m, next)) stats.deliveries++;
      } catch (err) {
        log.warn({ err: errInfo(err), mailingId: m.id }, 'mailing pass failed');
      }
    }
    for (;;) {
      const due = await repo.claimDue(now);
      if (!due.length) break;
      for (const d of due) stats[await sendDelivery(d, now)]++;
    }
    return stats;
  }

  return {
    tick,

    async list(c: Caller, q: { page: number; page_size: number; company_id?: number; q?: string }) {
      const scope = companiesWith(c.auth.principal, 'mailings.read');
      const companyId = q.company_id === undefined || q.company_id === -1 ? undefined : q.company_id;
      if (companyId !== undefined && scope !== 'all' && !scope.includes(companyId)) throw notFound(MAILING_MSG.companyNotFound);
      const r = await repo.list({ scope, companyId, q: q.q, limit: q.page_size, offset: (q.page - 1) * q.page_size });
      return { items: r.items.map(toMailing), total: r.total, page: q.page, page_size: q.page_size };
    },

    async get(c: Caller, id: number): Promise<Mailing> {
      return toMailing(await load(c, id, 'mailings.read'));
    },

    async create(c: Caller, body: CreateMailingRequest): Promise<Mailing> {
      const companyId = await companyFor(c, body.company_id);
      await checkFilters(c, body.filters, companyId);
      return db.transaction(async (tx) => {
        const id = await repo.insert(
          {
            companyId,
            name: body.name,
            recipients: body.recipients,
            filters: body.filters,
            params: body.params,
            isActive: body.is_active,
            createdBy: c.auth.user.id,
          },
          tx,
        );
        const m = await detail(id, tx);
        await audit.record(
          c.actor,
          { action: 'mailing.create', entity: 'mailing', entityId: id, companyId, after: auditView(m) },
          tx,
        );
        return m;
      });
    },

    async patch(c: Caller, id: number, body: PatchMailingRequest): Promise<Mailing> {
      const r = await load(c, id, 'mailings.manage');
      const before = toMailing(r);
      const companyId = await companyFor(c, body.company_id, r.companyId);
      // Only the fields sent change: merged over the stored ones, then the whole is validated again.
      const filters = body.filters
        ? validMerged(mailingFilters, 'filters', { ...before.filters, ...sentOnly(body.filters) })
        : before.filters;
      const params = body.params
        ? validMerged(mailingParams, 'params', { ...before.params, ...sentOnly(body.params) })
        : before.params;
      if (body.filters || companyId !== r.companyId) await checkFilters(c, filters, companyId);
      const isActive = body.is_active ?? r.isActive;
      const rescheduled =
        params.frequency !== before.params.frequency ||
        params.hour !== before.params.hour ||
        params.weekday !== before.params.weekday;
      return db.transaction(async (tx) => {
        await repo.update(
          id,
          {
            companyId,
            name: body.name ?? r.name,
            recipients: body.recipients ?? r.recipients,
            filters,
            params,
            isActive,
            resetSchedule: rescheduled,
            // Switched back on: it sends what happens from now on, not what it missed.
            restart: isActive && !r.isActive,
          },
          tx,
        );
        const after = await detail(id, tx);
        await audit.record(
          c.actor,
          {
            action: 'mailing.update',
            entity: 'mailing',
            entityId: id,
            companyId,
            before: auditView(before),
            after: auditView(after),
          },
          tx,
        );
        return after;
      });
    },

    async remove(c: Caller, id: number): Promise<void> {
      const r = await load(c, id, 'mailings.manage');
      await db.transaction(async (tx) => {
        await repo.remove(id, tx);
        await audit.record(
          c.actor,
          {
            action: 'mailing.delete',
            entity: 'mailing',
            entityId: id,
            companyId: r.companyId,
            before: auditView(toMailing(r)),
          },
          tx,
        );
      });
    },

    async deliveries(c: Caller, id: number, q: { page: number; page_size: number }) {
      await load(c, id, 'mailings.read');
      const r = await repo.deliveries(id, q.page_size, (q.page - 1) * q.page_size);
      return { items: r.items.map(toDelivery), total: r.total, page: q.page, page_size: q.page_size };
    },

    /** How many events the filters would have matched over the last week (before saving). */
    async preview(c: Caller, body: { company_id?: number | null; filters: MailingFilters }): Promise<MailingPreview> {
      // The company first: the filters' check reads its enabled modules, which a caller who may not
      // see the company must not learn (the same 404 whatever the filters).
      if (body.company_id != null && !can(c.auth.principal, 'events.read', body.company_id))
        throw notFound(MAILING_MSG.companyNotFound);
      await checkFilters(c, body.filters, body.company_id ?? null);
      let companies: 'all' | number[];
      if (body.company_id == null) {
        const scope = companiesWith(c.auth.principal, 'events.read');
        companies = scope;
        if (scope !== 'all' && !scope.length) return { count: 0, capped: false, days: MAILING_PREVIEW_DAYS, sample: [] };
      } else companies = [body.company_id];
      const since = new Date(Date.now() - MAILING_PREVIEW_DAYS * 86_400_000);
      const r = await repo.preview(companies, body.filters, since, PREVIEW_CAP);
      return {
        count: Math.min(r.count, PREVIEW_CAP),
        capped: r.count > PREVIEW_CAP,
        days: MAILING_PREVIEW_DAYS,
        sample: r.sample.map((s) => ({ id: s.id, module: s.module, title: s.title, created_at: iso(s.created_at) })),
      };
    },

    async filterOptions(c: Caller): Promise<MailingFilterOptions> {
      const scope = companiesWith(c.auth.principal, 'mailings.manage');
      const readScope = companiesWith(c.auth.principal, 'mailings.read');
      const km = c.auth.principal.keyModules;
      const companies = await companyRepo.options(scope === 'all' || (Array.isArray(scope) && scope.length) ? scope : readScope);
      // A user of one company sees only the modules enabled for it (the ones a mailing may name).
      const only = scope !== 'all' && companies.length === 1 && companies[0] ? await companyRepo.modules(companies[0].id) : null;
      return {
        companies,
        modules: MODULE_LIST.filter((m) => (!km || km.includes('*') || km.includes(m.code)) && moduleEnabled(only, m.code)).map(
          (m) => ({
            value: m.code,
            label: m.name,
          }),
        ),
        statuses: DEFAULT_STATUSES.map((s) => ({ value: s.code, label: s.name })),
        priorities: [...DEFAULT_PRIORITIES].reverse().map((p) => ({ value: p.code, label: p.name, color: p.color })),
        sources: SOURCES.map((s) => ({ value: s, label: SOURCE_LABELS[s] })),
        tags: await tagsRepo.all(),
        transitions: TRANSITION_KINDS.map((k) => ({ value: k, label: transitionLabel(k) })),
        all_companies_allowed: scope === 'all',
      };
    },

    paramOptions(): MailingParamOptions {
      return {
        frequencies: Object.entries(MAILING_FREQUENCY_LABELS).map(([value, label]) => ({ value, label })),
        formats: Object.entries(MAILING_FORMAT_LABELS).map(([value, label]) => ({ value, label })),
        weekdays: WEEKDAYS_RU.map((label, i) => ({ value: i + 1, label })),
        timezone: MAILING_TZ,
        max_events_limit: MAILING_MAX_EVENTS_LIMIT,
        defaults: mailingParams.parse({}),
      };
    },
  };
}
export type MailingsService = ReturnType<typeof createMailingsService>;
