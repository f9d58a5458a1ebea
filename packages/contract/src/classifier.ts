/*
 * The classification pipeline: NotDetermined → InQueueToML → SentToML → Done | Failed (retried with
 * backoff, or re-queued by an analyst). Shapes of its API and of the external classifier's protocol.
 */
import { z } from 'zod';
import { bodyId, companyQuery } from './common';
import { CONNOTATIONS, ML_STATES, type MlState } from './modules/common';
import { MODULE_CODES } from './modules/types';

/** Attempts before a failed event stops being retried automatically (an analyst can still re-queue it). */
export const ML_MAX_ATTEMPTS = 5;
/** Events per worker batch. */
export const ML_BATCH = 200;
/** The external classifier must answer within this. */
export const ML_TIMEOUT_MS = 10_000;
/** Backoff of automatic retries: 1, 2, 4, 8 … minutes, at most an hour. */
export const mlRetryDelayMs = (attempt: number) => Math.min(60, 2 ** Math.max(0, attempt - 1)) * 60_000;

export const ML_PRIORITY_CODES = ['low', 'medium', 'high', 'critical'] as const;
export type MlPriorityCode = (typeof ML_PRIORITY_CODES)[number];

export const CLASSIFIERS = ['builtin', 'external'] as const;
export type ClassifierKind = (typeof CLASSIFIERS)[number];
export const CLASSIFIER_LABELS: Record<ClassifierKind, string> = { builtin: 'Встроенный', external: 'Внешний сервис' };

export const ML_MSG = {
  requeued: 'Событие поставлено в очередь на классификацию',
  timeout: 'Сервис классификации не ответил за 10 секунд',
  badResponse: 'Сервис классификации вернул ответ неверного формата',
  httpError: (status: number) => `Сервис классификации ответил ошибкой HTTP ${status}`,
  unreachable: 'Сервис классификации недоступен',
  noClassifier: 'Для этого модуля автоматическая оценка не предусмотрена',
} as const;

/** What a classifier says about an event (built-in or external). */
export const classificationResult = z
  .object({
    /** Media: sentiment of the publication. */
    connotation: z.enum(CONNOTATIONS).optional(),
    /** 0..1: how likely the event is a threat (domains: phishing score). */
    score: z.number().min(0).max(1).optional(),
    /** Suggested priority; applied when the event has none. */
    priority: z.enum(ML_PRIORITY_CODES).optional(),
    labels: z.array(z.string().max(100)).max(50).optional(),
    /** Human-readable reasons (Russian). */
    reasons: z.array(z.string().max(500)).max(50).optional(),
  })
  .strip();
export type ClassificationResult = z.infer<typeof classificationResult>;

/**
 * The external classifier: POST {classifier_url} with `ExternalClassifierRequest`, answer 200 with an
 * `externalClassifierResponse` within 10 s. Anything else marks the event Failed with the reason.
 */
export interface ExternalClassifierRequest {
  event: { id: number; module: string; company_id: number; title: string; data: Record<string, unknown> };
  company: { id: number; name: string; domains: string[] };
}
export const externalClassifierResponse = classificationResult.refine(
  (r) => r.connotation !== undefined || r.score !== undefined || r.priority !== undefined || (r.labels?.length ?? 0) > 0,
  { error: 'Пустой ответ классификатора' },
);

export const mlInfoResponse = z.object({
  event_id: z.number().int(),
  module: z.string(),
  ml_state: z.enum(ML_STATES),
  attempts: z.number().int(),
  classifier: z.enum(CLASSIFIERS).nullable(),
  result: classificationResult.nullable(),
  last_error: z.string().nullable(),
  next_attempt_at: z.string().nullable(),
  updated_at: z.string().nullable(),
});
export type MlInfo = z.infer<typeof mlInfoResponse>;

export const mlSummaryQuery = z.object({ company_id: companyQuery }).strict();
export const mlSummaryResponse = z.object({
  queued: z.number().int(),
  sent: z.number().int(),
  failed: z.number().int(),
  /** Failed events that will not be retried automatically any more. */
  failed_final: z.number().int(),
});
export type MlSummary = z.infer<typeof mlSummaryResponse>;

export const mlRequeueFailedRequest = z
  .object({
    company_id: bodyId().optional(),
    module: z.enum(MODULE_CODES).optional(),
  })
  .strict();
export const mlRequeueFailedResponse = z.object({ count: z.number().int() });

export const ML_STATE_COLORS: Record<MlState, string> = {
  NotDetermined: 'default',
  InQueueToML: 'blue',
  SentToML: 'processing',
  Failed: 'error',
  Done: 'success',
};
