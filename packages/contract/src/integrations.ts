/*
 * Integrations (#33, parts 3–4): the outbox's message types, webhook endpoints (Standard Webhooks) and
 * syslog/CEF outputs, their delivery logs. Message types are one table: a new area adds a row
 * (the takedown state will, #35) and every target filter, the console's choice and the CEF name follow.
 */
import { z } from 'zod';
import { idParam, isoDate, textId } from './common';

/** Message types: code → the Russian name (the CEF `name`, the console's choice). Add rows, never rename codes. */
export const OUTBOX_TYPES = {
  'event.created': 'Новое событие',
  'event.status_changed': 'Изменён статус события',
  'event.decision_changed': 'Изменено решение по событию',
  'event.priority_changed': 'Изменён приоритет события',
  'event.assigned': 'Назначен исполнитель события',
  'event.sla_breached': 'Нарушен срок SLA',
  'import.finished': 'Импорт завершён',
  'discovery.finding': 'Найден домен-двойник',
  'watch.transition': 'Переход наблюдаемого домена',
  'takedown.state_changed': 'Изменилось состояние запроса на блокировку',
} as const satisfies Record<string, string>;
export type OutboxType = keyof typeof OUTBOX_TYPES;
export const OUTBOX_TYPE_CODES = Object.keys(OUTBOX_TYPES) as OutboxType[];
export const outboxTypeLabel = (t: string) => (OUTBOX_TYPES as Record<string, string>)[t] ?? t;

export const INTEGRATIONS_MSG = {
  notFound: 'Интеграция не найдена',
  deliveryNotFound: 'Доставка не найдена',
  companyNotFound: 'Компания не найдена',
  instanceOnlyStaff: 'Вывод для всего экземпляра может настроить только сотрудник',
  webhookNeedsCompany: 'Веб-хук настраивается для компании',
  url: 'Укажите адрес https:// или http://',
  host: 'Укажите имя или адрес сервера syslog',
  port: 'Порт — от 1 до 65535',
  name: 'Укажите название',
  type: 'Неизвестный тип сообщения',
  notWebhook: 'Смена секрета доступна только для веб-хуков',
  disabled410: 'Получатель ответил 410 Gone: доставка выключена',
} as const;

const name = z.string({ error: INTEGRATIONS_MSG.name }).trim().min(1, INTEGRATIONS_MSG.name).max(200, INTEGRATIONS_MSG.name);
const types = z
  .array(z.string().refine((t) => Object.hasOwn(OUTBOX_TYPES, t), INTEGRATIONS_MSG.type))
  .max(50)
  .default([]);
const modules = z.array(z.string().min(1).max(50)).max(50).default([]);
const minPriority = z.number().int().min(0).max(100).nullable().default(null);
export const webhookUrl = z
  .string({ error: INTEGRATIONS_MSG.url })
  .trim()
  .max(2000, INTEGRATIONS_MSG.url)
  .refine((s) => {
    try {
      const u = new URL(s);
      return (u.protocol === 'https:' || u.protocol === 'http:') && !u.username && !u.password;
    } catch {
      return false;
    }
  }, INTEGRATIONS_MSG.url);
const host = z
  .string({ error: INTEGRATIONS_MSG.host })
  .trim()
  .min(1, INTEGRATIONS_MSG.host)
  .max(253, INTEGRATIONS_MSG.host)
  .regex(/^[A-Za-z0-9.:\-[\]]+$/, INTEGRATIONS_MSG.host);
const port = z
  .number({ error: INTEGRATIONS_MSG.port })
  .int(INTEGRATIONS_MSG.port)
  .min(1, INTEGRATIONS_MSG.port)
  .max(65535, INTEGRATIONS_MSG.port);

export const integrationKind = z.enum(['webhook', 'syslog']);
export type IntegrationKind = z.infer<typeof integrationKind>;

export const webhookCreate = z.object({
  company_id: z.number().int().positive(),
  name,
  url: webhookUrl,
  types,
  modules,
  min_priority: minPriority,
});
export const syslogCreate = z.object({
  /** null: the instance's own output (every company; staff only). */
  company_id: z.number().int().positive().nullable(),
  name,
  host,
  port,
  tls: z.boolean().default(false),
  /** Syslog facility 0–23 (16 = local0). */
  facility: z.number().int().min(0).max(23).default(16),
  types,
  modules,
  min_priority: minPriority,
});
export const integrationPatch = z.object({
  name: name.optional(),
  enabled: z.boolean().optional(),
  url: webhookUrl.optional(),
  host: host.optional(),
  port: port.optional(),
  tls: z.boolean().optional(),
  facility: z.number().int().min(0).max(23).optional(),
  types: z
    .array(z.string().refine((t) => Object.hasOwn(OUTBOX_TYPES, t), INTEGRATIONS_MSG.type))
    .max(50)
    .optional(),
  modules: z.array(z.string().min(1).max(50)).max(50).optional(),
  min_priority: z.number().int().min(0).max(100).nullable().optional(),
});

export const integrationTarget = z.object({
  id: z.number(),
  company_id: z.number().nullable(),
  company_name: z.string().nullable(),
  kind: integrationKind,
  name: z.string(),
  enabled: z.boolean(),
  disabled_reason: z.string().nullable(),
  types: z.array(z.string()),
  modules: z.array(z.string()),
  min_priority: z.number().nullable(),
  url: z.string().nullable(),
  host: z.string().nullable(),
  port: z.number().nullable(),
  tls: z.boolean(),
  facility: z.number(),
  /** webhook: the previous secret still signs until then (rotation). */
  previous_until: isoDate.nullable(),
  pending: z.number(),
  failed: z.number(),
  created_at: isoDate,
});
export type IntegrationTarget = z.infer<typeof integrationTarget>;
export const integrationList = z.object({ items: z.array(integrationTarget) });
export const integrationListQuery = z.object({ company_id: z.coerce.number().int().positive().optional() });

/** Creation and rotation: the secret, shown once. */
export const integrationCreated = z.object({ target: integrationTarget, secret: z.string().nullable() });
export const rotateBody = z.object({
  /** How long the previous secret still signs (hours, 0–168; default 24). */
  grace_hours: z.number().int().min(0).max(168).default(24),
});

export const deliveryState = z.enum(['pending', 'delivered', 'failed']);
export const integrationDelivery = z.object({
  id: z.number(),
  message_id: z.string(),
  type: z.string(),
  type_label: z.string(),
  state: deliveryState,
  attempts: z.number(),
  next_at: isoDate.nullable(),
  last_at: isoDate.nullable(),
  last_status: z.number().nullable(),
  last_error: z.string().nullable(),
  last_ms: z.number().nullable(),
  last_response: z.string().nullable(),
  request: z.string(),
  created_at: isoDate,
});
export type IntegrationDelivery = z.infer<typeof integrationDelivery>;
export const deliveryList = z.object({ items: z.array(integrationDelivery) });
export const deliveryListQuery = z.object({
  state: deliveryState.optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
export const deliveryParams = z.object({ id: textId(), delivery: textId() });
export { idParam };
