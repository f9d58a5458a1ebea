/*
 * Discovery of lookalike domains (#17): the assets a company protects (domains and brand keywords),
 * the candidate preview of a domain, and the runs that resolve the candidates and raise domain events.
 */
import { z } from 'zod';
import { bodyId, companyQuery, listResponse, pageQuery, textId } from './common';
import { punycodeToUnicode, unicodeToPunycode } from './helpers';
import { isDomain } from './validation';

export const ASSET_KINDS = ['domain', 'keyword'] as const;
export type AssetKind = (typeof ASSET_KINDS)[number];
export const ASSET_KIND_LABELS: Record<AssetKind, string> = { domain: 'Домен', keyword: 'Ключевое слово' };

export const RUN_TRIGGERS = ['manual', 'schedule'] as const;
export type RunTrigger = (typeof RUN_TRIGGERS)[number];
export const RUN_TRIGGER_LABELS: Record<RunTrigger, string> = { manual: 'Вручную', schedule: 'По расписанию' };

export const RUN_STATUSES = ['queued', 'running', 'done', 'failed', 'cancelled'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
export const RUN_STATUS_LABELS: Record<RunStatus, string> = {
  queued: 'В очереди',
  running: 'Выполняется',
  done: 'Завершён',
  failed: 'Ошибка',
  cancelled: 'Отменён',
};
/** Statuses of a run that has not ended (it counts against the company's limit and may be cancelled). */
export const ACTIVE_RUN_STATUSES = ['queued', 'running'] as const satisfies readonly RunStatus[];
export const isActiveRun = (s: RunStatus) => s === 'queued' || s === 'running';

/**
 * Unfinished (queued or running) runs a company may have at once. One: every run of a company checks
 * the same candidates (all its enabled domains), so a second one would only repeat the first one's
 * queries. Held by the partial unique index `discovery_runs_active_uq`.
 */
export const MAX_ACTIVE_RUNS_PER_COMPANY = 1;

export const DISCOVERY_MSG = {
  domain: 'Укажите домен, например example.ru или пример.рф',
  keyword: 'Ключевое слово: от 3 до 63 букв, цифр или дефисов (латиница или кириллица)',
  kind: 'Выберите вид актива: домен или ключевое слово',
  duplicate: 'Такой актив уже есть у компании',
  assetNotFound: 'Актив не найден',
  companyNotFound: 'Компания не найдена',
  runNotFound: 'Запуск поиска не найден',
  companyRequired: 'Выберите компанию',
  noDomains: 'У компании нет включённых доменов для поиска — добавьте домен в активы',
  alreadyRunning:
    'Поиск для этой компании уже выполняется: одновременно допускается не больше одного запуска на компанию. Дождитесь его окончания или остановите его',
  alreadyFinished: 'Запуск поиска уже завершён — остановить можно только запуск в очереди или выполняющийся',
  noResolvers: 'Не заданы DNS-серверы для поиска доменов (настройки, группа «Поиск доменов»)',
  interrupted: 'Поиск прерван: обработчик задач остановился',
} as const;

/** A keyword: letters of any script, digits and inner hyphens, 3–63 characters. */
export const isKeyword = (s: string) => /^[\p{L}\p{N}](?:[\p{L}\p{N}-]{1,61})[\p{L}\p{N}]$/u.test(s);

/**
 * An asset value as stored: a domain as punycode (`value`) and Unicode (`unicode`); a keyword
 * lower-cased in both. Null when the value is not valid for its kind.
 */
export function normaliseAsset(kind: AssetKind, raw: string): { value: string; unicode: string } | null {
  const s = raw.trim().toLowerCase().replace(/\.$/, '');
  if (kind === 'keyword') return isKeyword(s) ? { value: s, unicode: s } : null;
  if (!isDomain(s)) return null;
  const value = unicodeToPunycode(punycodeToUnicode(s));
  return isDomain(value) ? { value, unicode: punycodeToUnicode(value) } : null;
}

export const assetParams = z.object({ id: textId() });
export const assetItemParams = z.object({ id: textId(), assetId: textId() });

export const createAssetRequest = z
  .strictObject({
    kind: z.enum(ASSET_KINDS, { error: DISCOVERY_MSG.kind }),
    value: z.string({ error: DISCOVERY_MSG.domain }).max(300, { error: DISCOVERY_MSG.domain }),
    enabled: z.boolean().default(true),
  })
  .superRefine((b, ctx) => {
    if (!normaliseAsset(b.kind, b.value))
      ctx.addIssue({
        code: 'custom',
        path: ['value'],
        message: b.kind === 'domain' ? DISCOVERY_MSG.domain : DISCOVERY_MSG.keyword,
      });
  });
export type CreateAssetRequest = z.infer<typeof createAssetRequest>;
export const updateAssetRequest = z.strictObject({ enabled: z.boolean({ error: 'Укажите, включён ли актив' }) });

export const assetListQuery = pageQuery.extend({
  page_size: z.coerce.number().int().min(1).max(500).default(100),
  kind: z.enum(ASSET_KINDS, { error: DISCOVERY_MSG.kind }).optional(),
});
export type AssetListQuery = z.infer<typeof assetListQuery>;

export const assetResponse = z.object({
  id: z.number().int(),
  company_id: z.number().int(),
  kind: z.enum(ASSET_KINDS),
  /** Domain: punycode (ASCII); keyword: as typed, lower-case. */
  value: z.string(),
  unicode: z.string(),
  enabled: z.boolean(),
  created_by: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Asset = z.infer<typeof assetResponse>;
export const assetListResponse = listResponse(assetResponse);

export const previewRequest = z.strictObject({
  domain: z.string({ error: DISCOVERY_MSG.domain }).max(300, { error: DISCOVERY_MSG.domain }),
});
export const previewItem = z.object({ domain: z.string(), unicode: z.string(), fuzzer: z.string() });
export type PreviewItem = z.infer<typeof previewItem>;
export const previewResponse = z.object({ total: z.number().int(), items: z.array(previewItem) });
export type PreviewResponse = z.infer<typeof previewResponse>;

export const startRunRequest = z.strictObject({ company_id: bodyId(DISCOVERY_MSG.companyRequired) });

export const runListQuery = pageQuery.extend({ company_id: companyQuery });
export type RunListQuery = z.infer<typeof runListQuery>;

export const runResponse = z.object({
  id: z.number().int(),
  company_id: z.number().int(),
  company_name: z.string(),
  trigger: z.enum(RUN_TRIGGERS),
  status: z.enum(RUN_STATUSES),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  /** Set once a stop was asked for; a running run ends with «cancelled» within a few seconds. */
  cancel_requested_at: z.string().nullable(),
  /** Candidates generated from the company's enabled domains. */
  candidates: z.number().int(),
  /** Candidates that got a DNS answer (registered or not). */
  resolved: z.number().int(),
  /** Registered candidates (not under a wildcard parent). */
  registered: z.number().int(),
  new_events: z.number().int(),
  errors: z.number().int(),
  error: z.string().nullable(),
  created_by: z.object({ id: z.number().int(), name: z.string() }).nullable(),
});
export type DiscoveryRun = z.infer<typeof runResponse>;
export const runListResponse = listResponse(runResponse);
