/* Comments on events: plain text, edited or deleted by the author within 15 minutes, or by an admin. */
import { z } from 'zod';
import { BIGSERIAL_MAX, bodyId, idRule } from './common';
import { pageQuery } from './events';
import { MSG } from './messages';

export const COMMENT_MAX = 5000;
export const COMMENT_EDIT_WINDOW_MS = 15 * 60 * 1000;
export const COMMENT_MSG = {
  notFound: 'Комментарий не найден',
  editWindow: 'Комментарий можно изменить или удалить только в течение 15 минут после публикации',
  notAuthor: 'Изменить или удалить комментарий может только его автор или администратор',
} as const;

const text = z
  .string({ error: MSG.required })
  .trim()
  .min(1, { error: MSG.required })
  .max(COMMENT_MAX, { error: MSG.tooLong(COMMENT_MAX) });

export const commentItem = z.object({
  id: z.number().int(),
  event_id: z.number().int(),
  text: z.string(),
  author_id: z.number().int().nullable(),
  author_name: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  edited: z.boolean(),
  /** The caller may edit or delete it now. */
  can_edit: z.boolean(),
});
export type Comment = z.infer<typeof commentItem>;
export const commentListQuery = z
  .object({
    event_id: idRule(z.coerce.number({ error: MSG.required }), BIGSERIAL_MAX),
    ...pageQuery,
    page_size: pageQuery.page_size.default(100),
  })
  .strict();
export const commentListResponse = z.object({
  items: z.array(commentItem),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});
export const commentCreateRequest = z.object({ event_id: bodyId(undefined, BIGSERIAL_MAX), text }).strict();
export const commentPatchRequest = z.object({ text }).strict();
