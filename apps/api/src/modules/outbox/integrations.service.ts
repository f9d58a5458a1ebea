/*
 * Integrations as the API sees them (#33): a company's webhook endpoints and syslog outputs, the
 * instance's own syslog outputs (company_id null: staff with integrations.manage), their delivery
 * logs, «Отправить ещё раз» and the rotation of a webhook's secret. Right: integrations.manage —
 * company-scoped, held by administrators only (an endpoint sends the company's events outside, so an
 * analyst's settings.manage is not enough); an API key may use it when its owner may and the key covers
 * every module. Another company's targets are 404. Changes are audited in their transaction; the
 * secret is shown once (at creation and rotation) and kept sealed (lib/secretbox.ts).
 */
import {
  INTEGRATIONS_MSG,
  type IntegrationDelivery,
  type IntegrationTarget,
  type integrationPatch,
  outboxTypeLabel,
  type syslogCreate,
  type webhookCreate,
} from '@forpost/contract/integrations';
import { can } from '@forpost/contract/permissions';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import type { Audit } from '../../lib/audit';
import { type Caller, scopeFor } from '../../lib/caller';
import { ApiError, badRequest, forbidden, notFound } from '../../lib/errors';
import { isForbiddenHost } from '../../lib/outbound';
import type { SecretBox } from '../../lib/secretbox';
import { iso } from '../../lib/serialize';
import { cefOf, formatCef } from './cef';
import type { OutboxRepo, TargetRow } from './outbox.repo';
import { newWebhookSecret, webhookBody, webhookId } from './webhook';

const PERM = 'integrations.manage' as const;

export function createIntegrationsService(deps: {
  db: Db;
  audit: Audit;
  repo: OutboxRepo;
  box: SecretBox;
  /** OUTBOUND_ALLOW_PRIVATE: addresses in the internal network may be saved (tests, e2e). */
  allowPrivate: boolean;
  version: string;
}) {
  const { db, audit, repo, box } = deps;

  function view(t: TargetRow): IntegrationTarget {
    return {
      id: t.id,
      company_id: t.company_id,
      company_name: t.company_name,
      kind: t.kind,
      name: t.name,
      enabled: t.enabled,
      disabled_reason: t.disabled_reason,
      types: t.types,
      modules: t.modules,
      min_priority: t.min_priority,
      url: t.url,
      host: t.host,
      port: t.port,
      tls: t.tls,
      facility: t.facility,
      previous_until: t.previous_until && new Date(t.previous_until) > new Date() ? iso(t.previous_until) : null,
      pending: t.pending,
      failed: t.failed,
      created_at: iso(t.created_at),
    };
  }

  /** A key limited to some modules may not send every module's events elsewhere. */
  function assertWholeKey(c: Caller) {
    const km = c.auth.principal.keyModules;
    if (km && !km.includes('*')) throw forbidden();
  }

  /** The company of a new target (null: the instance's own — staff only). */
  async function companyFor(c: Caller, companyId: number | null) {
    assertWholeKey(c);
    if (companyId === null) {
      if (c.auth.principal.role === 'COMPANY_USER' || !can(c.auth.principal, PERM))
        throw new ApiError(403, INTEGRATIONS_MSG.instanceOnlyStaff);
      return;
    }
    if (!can(c.auth.principal, 'companies.read', companyId)) throw notFound(INTEGRATIONS_MSG.companyNotFound);
    if (!can(c.auth.principal, PERM, companyId)) throw forbidden();
    if (!(await repo.companyExists(companyId))) throw notFound(INTEGRATIONS_MSG.companyNotFound);
  }

  /** A target the caller may manage (another company's: 404). */
  async function target(c: Caller, id: number, tx: Db = db): Promise<TargetRow> {
    assertWholeKey(c);
    const t = await repo.get(id, tx);
    if (!t) throw notFound(INTEGRATIONS_MSG.notFound);
    if (t.company_id === null) {
      if (c.auth.principal.role === 'COMPANY_USER' || !can(c.auth.principal, PERM)) throw notFound(INTEGRATIONS_MSG.notFound);
    } else {
      if (!can(c.auth.principal, 'companies.read', t.company_id)) throw notFound(INTEGRATIONS_MSG.notFound);
      if (!can(c.auth.principal, PERM, t.company_id)) throw forbidden();
    }
    return t;
  }

  function assertUrl(url: string) {
    if (!deps.allowPrivate && isForbiddenHost(new URL(url).hostname))
      throw badRequest(INTEGRATIONS_MSG.url, { url: 'Адрес во внутренней сети недоступен для интеграций' });
  }
  function assertHost(host: string) {
    if (!deps.allowPrivate && isForbiddenHost(host))
      throw badRequest(INTEGRATIONS_MSG.host, { host: 'Адрес во внутренней сети недоступен для интеграций' });
  }

  const audited = (t: TargetRow) => ({
    kind: t.kind,
    name: t.name,
    enabled: t.enabled,
    url: t.url,
    host: t.host,
    port: t.port,
    tls: t.tls,
    types: t.types,
    modules: t.modules,
    min_priority: t.min_priority,
  });

  async function created(id: number, secret: string | null) {
    const t = (await repo.get(id)) as TargetRow;
    return { target: view(t), secret };
  }

  return {
    async list(c: Caller, companyId?: number): Promise<IntegrationTarget[]> {
      assertWholeKey(c);
      const scope = scopeFor(c, PERM, companyId);
      return (await repo.list(scope, companyId)).map(view);
    },

    async get(c: Caller, id: number): Promise<IntegrationTarget> {
      return view(await target(c, id));
    },

    async createWebhook(c: Caller, b: z.infer<typeof webhookCreate>) {
      await companyFor(c, b.company_id);
      assertUrl(b.url);
      const secret = newWebhookSecret();
      const id = await db.transaction(async (tx) => {
        const id = await repo.insert(tx, {
          companyId: b.company_id,
          kind: 'webhook',
          name: b.name,
          types: b.types,
          modules: b.modules,
          minPriority: b.min_priority,
          url: b.url,
          secret: box.seal(secret),
        });
        await audit.record(
          c.actor,
          {
            action: 'integration.create',
            entity: 'integration',
            entityId: id,
            companyId: b.company_id,
            after: { kind: 'webhook', name: b.name, url: b.url, types: b.types },
          },
          tx,
        );
        return id;
      });
      return created(id, secret);
    },

    async createSyslog(c: Caller, b: z.infer<typeof syslogCreate>) {
      await companyFor(c, b.company_id);
      assertHost(b.host);
      const id = await db.transaction(async (tx) => {
        const id = await repo.insert(tx, {
          companyId: b.company_id,
          kind: 'syslog',
          name: b.name,
          types: b.types,
          modules: b.modules,
          minPriority: b.min_priority,
          host: b.host,
          port: b.port,
          tls: b.tls,
          facility: b.facility,
        });
        await audit.record(
          c.actor,
          {
            action: 'integration.create',
            entity: 'integration',
            entityId: id,
            companyId: b.company_id,
            after: { kind: 'syslog', name: b.name, host: b.host, port: b.port, tls: b.tls, types: b.types },
          },
          tx,
        );
        return id;
      });
      return created(id, null);
    },

    async update(c: Caller, id: number, b: z.infer<typeof integrationPatch>): Promise<IntegrationTarget> {
      const before = await target(c, id);
      if (b.url !== undefined) {
        if (before.kind !== 'webhook') throw badRequest(INTEGRATIONS_MSG.url, { url: INTEGRATIONS_MSG.url });
        assertUrl(b.url);
      }
      if (b.host !== undefined) assertHost(b.host);
      await db.transaction(async (tx) => {
        await repo.update(tx, id, b);
        const after = (await repo.get(id, tx)) as TargetRow;
        await audit.record(
          c.actor,
          {
            action: 'integration.update',
            entity: 'integration',
            entityId: id,
            companyId: before.company_id,
            before: audited(before),
            after: audited(after),
          },
          tx,
        );
      });
      return view((await repo.get(id)) as TargetRow);
    },

    async remove(c: Caller, id: number): Promise<void> {
      const t = await target(c, id);
      await db.transaction(async (tx) => {
        await repo.remove(tx, id);
        await audit.record(
          c.actor,
          { action: 'integration.delete', entity: 'integration', entityId: id, companyId: t.company_id, before: audited(t) },
          tx,
        );
      });
    },

    /** A new secret; the previous one still signs for `graceHours` (both signatures are sent). */
    async rotate(c: Caller, id: number, graceHours: number) {
      const t = await target(c, id);
      if (t.kind !== 'webhook') throw new ApiError(400, INTEGRATIONS_MSG.notWebhook);
      const secret = newWebhookSecret();
      await db.transaction(async (tx) => {
        await repo.rotate(tx, id, box.seal(secret), new Date(Date.now() + graceHours * 3_600_000));
        await audit.record(
          c.actor,
          {
            action: 'integration.rotate',
            entity: 'integration',
            entityId: id,
            companyId: t.company_id,
            after: { grace_hours: graceHours },
          },
          tx,
        );
      });
      return created(id, secret);
    },

    async deliveries(
      c: Caller,
      id: number,
      state: 'pending' | 'delivered' | 'failed' | undefined,
      limit: number,
    ): Promise<IntegrationDelivery[]> {
      const t = await target(c, id);
      const rows = await repo.deliveries(id, state, limit);
      return rows.map((d) => {
        const createdAt = new Date(d.created_at);
        const request =
          t.kind === 'webhook'
            ? `POST ${t.url}\nwebhook-id: ${webhookId(d.message_id)}\ncontent-type: application/json\n\n${webhookBody({ type: d.type, createdAt, payload: d.payload })}`
            : formatCef(
                cefOf(
                  { id: d.message_id, type: d.type, createdAt, priorityLevel: d.priority_level, payload: d.payload },
                  deps.version,
                ),
              );
        return {
          id: d.id,
          message_id: webhookId(d.message_id),
          type: d.type,
          type_label: outboxTypeLabel(d.type),
          state: d.state,
          attempts: d.attempts,
          next_at: d.state === 'pending' ? iso(d.next_at) : null,
          last_at: iso(d.last_at),
          last_status: d.last_status,
          last_error: d.last_error,
          last_ms: d.last_ms,
          last_response: d.last_response,
          request,
          created_at: iso(createdAt),
        };
      });
    },

    async resend(c: Caller, id: number, deliveryId: number): Promise<void> {
      const t = await target(c, id);
      await db.transaction(async (tx) => {
        if (!(await repo.resend(tx, id, deliveryId))) throw notFound(INTEGRATIONS_MSG.deliveryNotFound);
        await audit.record(
          c.actor,
          {
            action: 'integration.resend',
            entity: 'integration',
            entityId: id,
            companyId: t.company_id,
            after: { delivery_id: deliveryId },
          },
          tx,
        );
      });
    },
  };
}
export type IntegrationsService = ReturnType<typeof createIntegrationsService>;
