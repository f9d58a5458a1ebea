/* Related events: other events sharing an indicator with one event, across modules and companies. */
import { z } from 'zod';
import { INDICATOR_KINDS, MODULE_CODES } from './modules/index';

/** Events listed per indicator (the newest); the count per module stops at RELATED_COUNT_CAP. */
export const RELATED_ITEMS = 10;
export const RELATED_COUNT_CAP = 1000;

export const relatedEventItem = z.object({
  id: z.number().int(),
  module: z.enum(MODULE_CODES),
  company_id: z.number().int(),
  company_name: z.string(),
  title: z.string(),
  status_id: z.number().int(),
  priority_id: z.number().int().nullable(),
  created_at: z.string(),
});

export const relatedIndicator = z.object({
  /** `kind:value`, as the list's `indicator` filter takes it. */
  indicator: z.string(),
  kind: z.enum(INDICATOR_KINDS),
  value: z.string(),
  /** Russian name of the kind («IP-адрес», «ИНН», …). */
  label: z.string(),
  /** Other events with this indicator the caller may see, up to RELATED_COUNT_CAP. */
  total: z.number().int(),
  total_capped: z.boolean(),
  modules: z.array(z.object({ module: z.enum(MODULE_CODES), count: z.number().int() })),
  items: z.array(relatedEventItem),
});

export const relatedEventsResponse = z.object({ items: z.array(relatedIndicator) });
export type RelatedEventsResponse = z.infer<typeof relatedEventsResponse>;
export type RelatedIndicator = z.infer<typeof relatedIndicator>;
