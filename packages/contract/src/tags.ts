/* Tags: global reference data (managed with settings.manage), attached to events via events.write. */
import { z } from 'zod';
import { bodyId } from './common';
import { pageQuery } from './events';
import { MSG } from './messages';
import { EVENT_MSG } from './modules/common';

export const TAG_COLORS = ['#1677ff', '#52c41a', '#faad14', '#f5222d', '#722ed1', '#13c2c2', '#eb2f96', '#8c8c8c'] as const;
export const TAG_MSG = {
  notFound: 'Тег не найден',
  duplicate: 'Тег с таким названием уже есть',
  mergeSame: 'Выберите другой тег: тег нельзя объединить сам с собой',
  mergeTarget: 'Тег, в который объединяют, не найден',
} as const;

const colorSchema = z
  .string({ error: MSG.required })
  .trim()
  .toLowerCase()
  .regex(/^#[0-9a-f]{6}$/, { error: EVENT_MSG.color });
const nameSchema = z
  .string({ error: MSG.required })
  .trim()
  .min(1, { error: MSG.required })
  .max(64, { error: MSG.tooLong(64) });

export const tagItem = z.object({
  id: z.number().int(),
  name: z.string(),
  color: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Tag = z.infer<typeof tagItem>;
export const tagListQuery = z
  .object({ q: z.string().trim().max(64).optional(), ...pageQuery, page_size: pageQuery.page_size.default(500) })
  .strict();
export const tagListResponse = z.object({
  items: z.array(tagItem),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});
export const tagCreateRequest = z.object({ name: nameSchema, color: colorSchema.default(TAG_COLORS[0]) }).strict();
export const tagPatchRequest = z.object({ name: nameSchema.optional(), color: colorSchema.optional() }).strict();

/** GET /tags/usage: how many events (of the companies the caller may read) carry each tag; unused tags are absent. */
export const tagUsageResponse = z.object({ items: z.array(z.object({ id: z.number().int(), events_count: z.number().int() })) });
/** POST /tags/{id}/merge: every event with tag {id} gets `target_id` instead; tag {id} is deleted. */
export const tagMergeRequest = z.object({ target_id: bodyId(MSG.required) }).strict();
export const tagMergeResponse = z.object({ target: tagItem, events_updated: z.number().int() });
