/*
 * Takedown requests (#32): drafting (evidence and recipients found by RDAP), editing the recipients,
 * sending (one message per recipient, PDF + XARF + screenshot attached, under an hourly limit per
 * address), the analyst's steps, and the follower (the watch verifies the site is down: two
 * observations in a row; it came back → «возобновлён» and a new draft proposed; no effect within the
 * company's SLA → «эскалация» with the next recipient proposed). Reads need events.read in the
 * request's company, changes takedown.send. Every step goes to the request's log, the event's history
 * and the audit log in one transaction.
 */
import { buffer } from 'node:stream/consumers';
import { domainToASCII } from 'node:url';
import type { AuditAction } from '@forpost/contract/audit';
import { getModule } from '@forpost/contract/modules';
import {
  DEFAULT_HOSTING_SLA_HOURS,
  DEFAULT_REGISTRAR_SLA_HOURS,
  RECIPIENT_KIND_LABELS,
  TAKEDOWN_ACTIONS,
  TAKEDOWN_MSG,
  TAKEDOWN_OPEN,
  TAKEDOWN_SENDABLE,
  TAKEDOWN_STATE_LABELS,
  type TakedownFigures,
  type TakedownRequest,
  type TakedownSettings,
  type TakedownState,
  type takedownBulk,
  type takedownCreate,
  takedownFiguresOf,
  type takedownListQuery,
  type takedownRecipientsPut,
  type takedownSettingsPut,
  type takedownStep,
  type XarfType,
} from '@forpost/contract/takedown';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import type { Audit, AuditActor } from '../../lib/audit';
import { assertModule, assertOn, type Caller, scopeFor } from '../../lib/caller';
import type { Delivery } from '../../lib/delivery';
import { sendOutcome } from '../../lib/delivery';
import type { DocStore } from '../../lib/docstore';
import { ApiError, notFound } from '../../lib/errors';
import { errInfo, type Logger } from '../../lib/logger';
import type { HistoryEntry } from '../events/index';
import type { AbuseFinder } from './abuse';
import { defaultXarfType, type Evidence, evidencePdf, messageText, xarfReport } from './evidence';
import type { NewRecipient, RecipientRow, RequestRow, TakedownRepo } from './takedown.repo';

const DOMAINS = getModule('domains').code;
const SYSTEM: AuditActor = { userId: null, keyId: null, ip: null, userAgent: null };
export const reference = (id: number) => `FP-TD-${String(id).padStart(6, '0')}`;
const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

export interface TakedownServiceDeps {
  db: Db;
  audit: Audit;
  repo: TakedownRepo;
  /** An abuse finder with the current RDAP settings. */
  finder: () => Promise<AbuseFinder>;
  delivery: Pick<Delivery, 'attempt'>;
  store: Pick<DocStore, 'get'>;
  insertHistory: (h: HistoryEntry[], tx: Db) => Promise<unknown>;
  /** The sender of takedown messages (TAKEDOWN_MAIL_FROM or the mail settings' sender). */
  sender: () => Promise<string>;
  hourlyLimit: number;
  log: Pick<Logger, 'warn' | 'info'>;
  now?: () => Date;
}

export function createTakedownService(deps: TakedownServiceDeps) {
  const { db, audit, repo } = deps;
  const now = deps.now ?? (() => new Date());

  /** One step: the request's log, the event's history and the audit entry, in `tx`. */
  async function step(
    tx: Db,
    r: Pick<RequestRow, 'id' | 'event_id' | 'company_id'>,
    actor: AuditActor,
    v: {
      action: string;
      from: TakedownState | null;
      to: TakedownState | null;
      comment?: string | null;
      audit_action: AuditAction;
    },
  ) {
    await repo.log(
      {
        requestId: r.id,
        action: v.action,
        from: v.from,
        to: v.to,
        comment: v.comment ?? null,
        userId: actor.userId,
        keyId: actor.keyId,
      },
      tx,
    );
    const label = v.to ? TAKEDOWN_STATE_LABELS[v.to] : v.action;
    await deps.insertHistory(
      [
        {
          eventId: r.event_id,
          actorUserId: actor.userId ?? null,
          actorKeyId: actor.keyId ?? null,
          action: 'action',
          field: 'takedown',
          after: { request_id: r.id, state: v.to, comment: `${reference(r.id)}: ${label}${v.comment ? ` — ${v.comment}` : ''}` },
        },
      ],
      tx,
    );
    await audit.record(
      actor,
      {
        action: v.audit_action,
        entity: 'takedown_request',
        entityId: r.id,
        companyId: r.company_id,
        before: v.from ? { state: v.from } : null,
        after: { state: v.to, action: v.action, ...(v.comment ? { comment: v.comment } : {}) },
      },
      tx,
    );
  }

  async function view(id: number): Promise<TakedownRequest> {
    const r = await repo.get(id);
    if (!r) throw notFound(TAKEDOWN_MSG.notFound);
    const recipients = await repo.recipients([id]);
    const log = await repo.logOf(id);
    return {
      ...listItem(r),
      recipients: recipients.map((x) => ({
        id: Number(x.id),
        kind: x.kind,
        email: x.email,
        name: x.name,
        source: x.source,
        status: x.status,
        message_id: x.message_id,
        sent_at: iso(x.sent_at),
        error: x.error,
      })),
      log: log.map((l) => ({
        id: Number(l.id),
        at: new Date(l.at).toISOString(),
        action: l.action,
        from_state: l.from_state,
        to_state: l.to_state,
        comment: l.comment,
        actor: l.actor,
      })),
    };
  }
  function listItem(r: RequestRow) {
    return {
      id: Number(r.id),
      reference: reference(Number(r.id)),
      event_id: Number(r.event_id),
      company_id: r.company_id,
      company_name: r.company_name,
      domain: r.domain,
      state: r.state,
      state_label: TAKEDOWN_STATE_LABELS[r.state],
      xarf_type: r.xarf_type,
      comment: r.comment,
      registrar: r.registrar,
      hosting: r.hosting,
      previous_id: r.previous_id === null ? null : Number(r.previous_id),
      created_at: new Date(r.created_at).toISOString(),
      sent_at: iso(r.sent_at),
      acknowledged_at: iso(r.acknowledged_at),
      down_at: iso(r.down_at),
      escalated_at: iso(r.escalated_at),
      closed_at: iso(r.closed_at),
    };
  }

  async function requestFor(c: Caller, id: number, perm: 'events.read' | 'takedown.send') {
    assertModule(c, DOMAINS);
    const r = await repo.get(id);
    if (!r) throw notFound(TAKEDOWN_MSG.notFound);
    assertOn(c, perm, r.company_id, TAKEDOWN_MSG.notFound);
    return r;
  }

  /** Evidence and proposed recipients of an event (RDAP of the domain and of its address; settings). */
  async function gather(eventId: number, comment: string | null) {
    const e = await repo.event(eventId);
    if (!e) throw notFound(TAKEDOWN_MSG.eventNotFound);
    const d = e.data;
    const domain = String(d.domain ?? '');
    const ascii = String(d.domain_punycode ?? (domainToASCII(domain) || domain));
    const watch = await repo.watchState(eventId);
    const finder = await deps.finder();
    const ip = watch?.state.a[0] ?? watch?.state.aaaa[0] ?? (typeof d.ip === 'string' ? d.ip : null) ?? e.shot_ip;
    const [rdap, network] = await Promise.all([finder.domain(ascii), ip ? finder.network(ip) : Promise.resolve(null)]);
    const evidence: Evidence = {
      domain,
      ascii,
      url: typeof d.url === 'string' ? d.url : null,
      ip: typeof d.ip === 'string' ? d.ip : null,
      company: e.company_name,
      asset: typeof d.asset === 'string' ? d.asset : null,
      similarity: typeof d.similarity === 'number' ? d.similarity : null,
      registrar: typeof d.registrar === 'string' ? d.registrar : null,
      registered_at: typeof d.registered_at === 'string' ? d.registered_at : null,
      page_title: typeof d.page_title === 'string' ? d.page_title : null,
      event_created_at: new Date(e.created_at).toISOString(),
      watch: watch ? { state: watch.state, observed_at: iso(watch.observed_at) } : null,
      rdap,
      network: network && ip ? { ...network, ip } : null,
      screenshot:
        e.shot_doc_id && e.shot_key
          ? {
              doc_id: e.shot_doc_id,
              taken_at: new Date(e.shot_taken_at ?? e.created_at).toISOString(),
              sha256: e.shot_sha256 ?? '',
              size: Number(e.shot_size ?? 0),
              type: e.shot_type ?? 'image/png',
            }
          : null,
      comment,
    };
    const settings = await repo.settings(e.company_id);
    const recipients: NewRecipient[] = [];
    const add = (r: NewRecipient) => {
      if (!recipients.some((x) => x.email.toLowerCase() === r.email.toLowerCase())) recipients.push(r);
    };
    if (rdap?.abuse)
      add({ kind: 'registrar', email: rdap.abuse.email, name: rdap.registrar, source: rdap.abuse.source, status: 'proposed' });
    // The hosting network is the next step after the registrar (escalation), or the first when the registrar has no abuse contact.
    if (network?.abuse)
      add({
        kind: 'hosting',
        email: network.abuse.email,
        name: [network.name, network.owner].filter(Boolean).join(', ') || null,
        source: network.abuse.source,
        status: rdap?.abuse ? 'held' : 'proposed',
      });
    const zones = zonesOf(ascii);
    for (const x of settings.extra_recipients) {
      const zone = x.zone ? domainToASCII(x.zone.toLowerCase().replace(/^\./, '')) || x.zone : null;
      if (zone && !zones.includes(zone)) continue;
      add({
        kind: zone ? 'zone' : 'company',
        email: x.email,
        name: x.name,
        source: zone ? `.${zone}` : null,
        status: 'proposed',
      });
    }
    return { e, evidence, recipients, rdap, network };
  }

  async function draft(
    c: Caller | null,
    actor: AuditActor,
    eventId: number,
    opts: { xarfType?: XarfType; comment?: string | null; previousId?: number | null },
  ) {
    const g = await gather(eventId, opts.comment ?? null);
    const type = opts.xarfType ?? defaultXarfType(g.evidence);
    const hosting = g.network ? (g.network.owner ?? g.network.name) : null;
    return db.transaction(async (tx) => {
      const id = await repo.insertRequest(
        {
          companyId: g.e.company_id,
          eventId,
          domain: g.evidence.domain,
          xarfType: type,
          comment: opts.comment ?? null,
          registrar: g.rdap?.registrar ?? g.evidence.registrar,
          hosting,
          evidence: g.evidence,
          previousId: opts.previousId ?? null,
          createdBy: c?.auth.user.id ?? null,
        },
        tx,
      );
      await repo.setRecipients(id, g.e.company_id, g.recipients, tx);
      const found = g.recipients.map((r) => `${RECIPIENT_KIND_LABELS[r.kind]}: ${r.email}`).join('; ');
      await step(tx, { id, event_id: eventId, company_id: g.e.company_id }, actor, {
        action: opts.previousId ? 'proposed' : 'create',
        from: null,
        to: 'draft',
        comment: found || 'получатели не найдены',
        audit_action: 'takedown.create',
      });
      return id;
    });
  }

  async function checkEvent(c: Caller, eventId: number) {
    const e = await repo.event(eventId);
    if (!e) throw notFound(TAKEDOWN_MSG.eventNotFound);
    assertOn(c, 'takedown.send', e.company_id, TAKEDOWN_MSG.eventNotFound);
    if (e.module !== DOMAINS) throw new ApiError(400, TAKEDOWN_MSG.notDomain);
    if (await repo.openOfEvent(eventId)) throw new ApiError(409, TAKEDOWN_MSG.open);
  }

  /** The pack of a request: PDF, XARF JSON and the screenshot bytes. */
  async function pack(r: RequestRow, sender: string) {
    const ev = r.evidence as unknown as Evidence;
    let shot: Buffer | null = null;
    if (ev.screenshot) {
      const key = (await repo.event(r.event_id))?.shot_key;
      if (key) shot = await buffer(await deps.store.get(key)).catch(() => null);
    }
    const ref = reference(Number(r.id));
    const xarf = xarfReport(ev, r.xarf_type, { sender, reference: ref, screenshot: shot, now: now() });
    const pdf = await evidencePdf(ev, r.xarf_type, ref, shot);
    return { ev, shot, xarf, pdf, ref };
  }

  async function send(c: Caller, id: number) {
    const r0 = await requestFor(c, id, 'takedown.send');
    if (!TAKEDOWN_SENDABLE.includes(r0.state)) throw new ApiError(409, TAKEDOWN_MSG.notSendable);
    const targets = (await repo.recipients([id])).filter(
      (x) => x.status === 'proposed' || x.status === 'limited' || x.status === 'failed',
    );
    if (!targets.length) throw new ApiError(400, TAKEDOWN_MSG.noRecipients);
    const sender = await deps.sender();
    const p = await pack(r0, sender);
    const { subject, text } = messageText(p.ev, r0.xarf_type, p.ref);
    const host = (/@([^>\s]+)/.exec(sender)?.[1] ?? 'forpost.local').toLowerCase();
    const results: { r: RecipientRow; ok: boolean; messageId?: string; error?: string; limited?: boolean }[] = [];
    for (const t of targets) {
      if ((await repo.sentLastHour(t.email)) >= deps.hourlyLimit) {
        results.push({ r: t, ok: false, error: TAKEDOWN_MSG.limited, limited: true });
        continue;
      }
      const messageId = `<${p.ref.toLowerCase()}.${t.id}.${Date.now().toString(36)}@${host}>`;
      try {
        await deps.delivery.attempt(async () => ({
          keep: null,
          message: {
            to: t.email,
            from: sender,
            subject,
            text,
            messageId,
            headers: { 'X-Forpost-Takedown': p.ref },
            attachments: [
              { filename: `${p.ref}.pdf`, content: p.pdf, contentType: 'application/pdf' },
              {
                filename: `${p.ref}.xarf.json`,
                content: Buffer.from(JSON.stringify(p.xarf, null, 2)),
                contentType: 'application/json',
              },
              ...(p.shot
                ? [{ filename: `${p.ref}-screenshot.png`, content: p.shot, contentType: p.ev.screenshot?.type ?? 'image/png' }]
                : []),
            ],
          },
        }));
        results.push({ r: t, ok: true, messageId });
      } catch (e) {
        const err = e as { reason?: unknown; handedOver?: boolean };
        results.push({ r: t, ok: false, error: sendOutcome(err.reason ?? e, err.handedOver ?? false).reason });
      }
    }
    await db.transaction(async (tx) => {
      const r = await repo.lockForUpdate(id, tx);
      if (!r) throw notFound(TAKEDOWN_MSG.notFound);
      for (const x of results)
        await repo.markRecipient(
          Number(x.r.id),
          x.ok ? { status: 'sent', messageId: x.messageId } : { status: x.limited ? 'limited' : 'failed', error: x.error },
          tx,
        );
      const sent = results.filter((x) => x.ok);
      const comment = results.map((x) => `${x.r.email}: ${x.ok ? 'отправлено' : x.error}`).join('; ');
      if (sent.length) {
        await repo.setState(id, 'sent', 'sent_at', tx);
        await step(tx, r, c.actor, { action: 'send', from: r.state, to: 'sent', comment, audit_action: 'takedown.send' });
      } else
        await step(tx, r, c.actor, { action: 'send_failed', from: r.state, to: r.state, comment, audit_action: 'takedown.send' });
    });
    return view(id);
  }

  /**
   * The follower: requests being followed whose domain the watch saw down for two observations in a
   * row → «ресурс недоступен»; down ones that came back → «возобновлён» and a new draft; past the SLA
   * without effect → «эскалация» with the held recipient proposed. `eventIds` limits it (a watch hook).
   */
  async function follow(eventIds: number[] | null = null) {
    const rows = await repo.followed(eventIds);
    if (!rows.length) return { down: 0, reopened: 0, escalated: 0 };
    const status = await repo.downStatus(rows.map((r) => Number(r.event_id)));
    const out = { down: 0, reopened: 0, escalated: 0 };
    const t = now();
    for (const r0 of rows) {
      const s = status.get(Number(r0.event_id));
      const isDown = !!s?.down_since && s.observations >= 2;
      if (TAKEDOWN_OPEN.includes(r0.state) && isDown) {
        await db.transaction(async (tx) => {
          const r = await repo.lockForUpdate(Number(r0.id), tx);
          if (!r || !TAKEDOWN_OPEN.includes(r.state)) return;
          await repo.setState(r.id, 'down', 'down_at', tx);
          await step(tx, r, SYSTEM, {
            action: 'verified_down',
            from: r.state,
            to: 'down',
            comment: `наблюдение: недоступен с ${iso(s?.down_since ?? null)}, наблюдений подряд: ${s?.observations}`,
            audit_action: 'takedown.follow',
          });
          out.down++;
        });
        continue;
      }
      if (r0.state === 'down' && s && !s.down_since) {
        const reopened = await db.transaction(async (tx) => {
          const r = await repo.lockForUpdate(Number(r0.id), tx);
          if (!r || r.state !== 'down') return false;
          await repo.setState(r.id, 'reopened', null, tx);
          await step(tx, r, SYSTEM, {
            action: 'came_back',
            from: 'down',
            to: 'reopened',
            comment: 'наблюдение: сайт снова работает',
            audit_action: 'takedown.follow',
          });
          return true;
        });
        if (reopened) {
          out.reopened++;
          await draft(null, SYSTEM, Number(r0.event_id), {
            xarfType: r0.xarf_type,
            comment: r0.comment,
            previousId: Number(r0.id),
          }).catch((e) => deps.log.warn({ err: errInfo(e), request: r0.id }, 'takedown: new draft after came back failed'));
        }
        continue;
      }
      if ((r0.state === 'sent' || r0.state === 'acknowledged') && r0.sent_at) {
        const settings = await repo.settings(r0.company_id);
        const recipients = await repo.recipients([Number(r0.id)]);
        const sentKinds = new Set(recipients.filter((x) => x.status === 'sent').map((x) => x.kind));
        const hours = sentKinds.has('registrar')
          ? (settings.registrar_sla_hours ?? DEFAULT_REGISTRAR_SLA_HOURS)
          : (settings.hosting_sla_hours ?? DEFAULT_HOSTING_SLA_HOURS);
        const since = new Date(
          Math.max(new Date(r0.sent_at).getTime(), r0.escalated_at ? new Date(r0.escalated_at).getTime() : 0),
        );
        if (t.getTime() - since.getTime() < hours * 3600_000) continue;
        await db.transaction(async (tx) => {
          const r = await repo.lockForUpdate(Number(r0.id), tx);
          if (!r || (r.state !== 'sent' && r.state !== 'acknowledged')) return;
          const promoted = await repo.promoteHeld(r.id, tx);
          await repo.setState(r.id, 'escalated', 'escalated_at', tx);
          const next = recipients.filter((x) => x.status === 'held').map((x) => x.email);
          await step(tx, r, SYSTEM, {
            action: 'escalate',
            from: r.state,
            to: 'escalated',
            comment: `нет результата за ${hours} ч; ${promoted ? `следующий получатель: ${next.join(', ')}` : 'следующего получателя нет — нужен ручной шаг'}`,
            audit_action: 'takedown.follow',
          });
          out.escalated++;
        });
      }
    }
    return out;
  }

  return {
    view,
    follow,
    pack,

    async list(c: Caller, q: z.infer<typeof takedownListQuery>) {
      assertModule(c, DOMAINS);
      const companies = scopeFor(c, 'events.read', q.company_id);
      if (companies !== 'all' && !companies.length) return { items: [], total: 0 };
      const r = await repo.list({
        companies,
        state: q.state,
        eventId: q.event_id,
        q: q.q,
        limit: q.per_page,
        offset: (q.page - 1) * q.per_page,
      });
      return { items: r.items.map((x) => ({ ...listItem(x), recipients: Number(x.recipients ?? 0) })), total: r.total };
    },

    async get(c: Caller, id: number) {
      await requestFor(c, id, 'events.read');
      return view(id);
    },

    async xarf(c: Caller, id: number) {
      const r = await requestFor(c, id, 'events.read');
      return (await pack(r, await deps.sender())).xarf;
    },
    async pdf(c: Caller, id: number) {
      const r = await requestFor(c, id, 'events.read');
      const p = await pack(r, await deps.sender());
      return { pdf: p.pdf, name: `${p.ref}.pdf` };
    },

    async create(c: Caller, b: z.infer<typeof takedownCreate>) {
      assertModule(c, DOMAINS);
      await checkEvent(c, b.event_id);
      const id = await draft(c, c.actor, b.event_id, { xarfType: b.xarf_type, comment: b.comment ?? null });
      return view(id);
    },

    async bulk(c: Caller, b: z.infer<typeof takedownBulk>) {
      assertModule(c, DOMAINS);
      const created: number[] = [];
      const skipped: { event_id: number; reason: string }[] = [];
      const eventIds = [...new Set(b.event_ids)];
      // An event the caller cannot reach refuses the whole request, as a missing one (nothing is drafted).
      for (const eventId of eventIds) {
        const e = await repo.event(eventId);
        if (!e) throw notFound(TAKEDOWN_MSG.eventNotFound);
        assertOn(c, 'takedown.send', e.company_id, TAKEDOWN_MSG.eventNotFound);
      }
      for (const eventId of eventIds) {
        try {
          await checkEvent(c, eventId);
          created.push(await draft(c, c.actor, eventId, { xarfType: b.xarf_type, comment: b.comment ?? null }));
        } catch (e) {
          if (!(e instanceof ApiError)) throw e;
          skipped.push({ event_id: eventId, reason: e.message });
        }
      }
      return { created, skipped };
    },

    async putRecipients(c: Caller, id: number, b: z.infer<typeof takedownRecipientsPut>) {
      const r0 = await requestFor(c, id, 'takedown.send');
      await db.transaction(async (tx) => {
        const r = await repo.lockForUpdate(id, tx);
        if (!r) throw notFound(TAKEDOWN_MSG.notFound);
        if (!TAKEDOWN_SENDABLE.includes(r.state)) throw new ApiError(409, TAKEDOWN_MSG.notEditable);
        const before = await repo.recipients([id], tx);
        const sent = new Set(before.filter((x) => x.status === 'sent').map((x) => x.email.toLowerCase()));
        const list = b.recipients
          .filter((x) => !sent.has(x.email.toLowerCase()))
          .map((x) => {
            const known = before.find((y) => y.email.toLowerCase() === x.email.toLowerCase());
            return {
              kind: x.kind,
              email: x.email.toLowerCase(),
              name: x.name ?? known?.name ?? null,
              source: known?.source ?? null,
              status: x.send ? ('proposed' as const) : ('held' as const),
            };
          });
        await repo.setRecipients(id, r0.company_id, list, tx);
        await step(tx, r, c.actor, {
          action: 'recipients',
          from: r.state,
          to: r.state,
          comment: list.map((x) => `${x.email}${x.status === 'held' ? ' (позже)' : ''}`).join('; ') || 'без получателей',
          audit_action: 'takedown.recipients',
        });
      });
      return view(id);
    },

    send,

    async step(c: Caller, id: number, b: z.infer<typeof takedownStep>) {
      await requestFor(c, id, 'takedown.send');
      const a = TAKEDOWN_ACTIONS[b.action];
      await db.transaction(async (tx) => {
        const r = await repo.lockForUpdate(id, tx);
        if (!r) throw notFound(TAKEDOWN_MSG.notFound);
        if (!(a.from as readonly TakedownState[]).includes(r.state)) throw new ApiError(409, TAKEDOWN_MSG.badStep);
        const stamp = a.to === 'acknowledged' ? 'acknowledged_at' : a.to === 'closed' ? 'closed_at' : null;
        await repo.setState(id, a.to, stamp, tx);
        await step(tx, r, c.actor, {
          action: b.action,
          from: r.state,
          to: a.to,
          comment: b.comment ?? null,
          audit_action: 'takedown.step',
        });
      });
      return view(id);
    },

    async getSettings(c: Caller, companyId: number): Promise<TakedownSettings> {
      assertOn(c, 'events.read', companyId, TAKEDOWN_MSG.companyNotFound);
      if (!(await repo.companyExists(companyId))) throw notFound(TAKEDOWN_MSG.companyNotFound);
      return repo.settings(companyId);
    },
    async putSettings(c: Caller, companyId: number, b: z.infer<typeof takedownSettingsPut>): Promise<TakedownSettings> {
      assertOn(c, 'takedown.send', companyId, TAKEDOWN_MSG.companyNotFound);
      if (!(await repo.companyExists(companyId))) throw notFound(TAKEDOWN_MSG.companyNotFound);
      const next = {
        company_id: companyId,
        registrar_sla_hours: b.registrar_sla_hours,
        hosting_sla_hours: b.hosting_sla_hours,
        extra_recipients: b.extra_recipients.map((x) => ({
          email: x.email.toLowerCase(),
          name: x.name ?? null,
          zone: x.zone ?? null,
        })),
      };
      await db.transaction(async (tx) => {
        const before = await repo.settings(companyId, tx);
        await repo.putSettings(next, tx);
        await audit.record(
          c.actor,
          {
            action: 'takedown_settings.update',
            entity: 'takedown_settings',
            entityId: companyId,
            companyId,
            before,
            after: next,
          },
          tx,
        );
      });
      return repo.settings(companyId);
    },

    async figures(c: Caller, companyId?: number): Promise<TakedownFigures> {
      assertModule(c, DOMAINS);
      const companies = scopeFor(c, 'events.read', companyId);
      const rows = companies !== 'all' && !companies.length ? [] : await repo.forFigures(companies);
      return takedownFiguresOf(rows);
    },
  };
}
export type TakedownService = ReturnType<typeof createTakedownService>;

/** The zones a name ends with, longest first (ASCII): a.b.ru → [b.ru, ru]. */
function zonesOf(ascii: string): string[] {
  const labels = ascii.split('.');
  return labels.slice(1).map((_, i) => labels.slice(i + 1).join('.'));
}
