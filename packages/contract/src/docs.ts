/* Documents (files): screenshots, samples, avatars, import files, reports. */
import { z } from 'zod';
import { BIGSERIAL_MAX, textId } from './common';
import { MSG } from './messages';

export const DOC_KINDS = ['screenshot', 'sample', 'avatar', 'import', 'report'] as const;
export type DocKind = (typeof DOC_KINDS)[number];
export const DOC_KIND_LABELS: Record<DocKind, string> = {
  screenshot: 'Скриншот',
  sample: 'Образец',
  avatar: 'Аватар',
  import: 'Файл импорта',
  report: 'Отчёт',
};

const MB = 1024 * 1024;
/** Size limit per kind, bytes. */
export const DOC_SIZE_LIMITS: Record<DocKind, number> = {
  screenshot: 10 * MB,
  sample: 20 * MB,
  avatar: 5 * MB,
  import: 100 * MB,
  report: 50 * MB,
};
/** Kinds that must be an image (PNG, JPEG, WebP or GIF, checked by content). */
export const IMAGE_KINDS: ReadonlySet<DocKind> = new Set<DocKind>(['screenshot', 'avatar']);
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;

export const DOC_MSG = {
  notFound: 'Файл не найден',
  noFile: 'Прикрепите файл',
  notImage: 'Файл не является изображением PNG, JPEG, WebP или GIF',
  tooLarge: (bytes: number) => `Файл слишком большой: не более ${Math.round(bytes / MB)} МБ`,
  badKind: 'Неизвестный вид файла',
  empty: 'Файл пустой',
  tooManyFiles: 'Можно прикрепить только один файл',
} as const;

export const docItem = z.object({
  id: z.number().int(),
  kind: z.enum(DOC_KINDS),
  name: z.string(),
  mimetype: z.string(),
  size: z.number().int(),
  sha256: z.string(),
  company_id: z.number().int().nullable(),
  event_id: z.number().int().nullable(),
  owner_user_id: z.number().int().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  /** Where to download it. */
  url: z.string(),
});
export type Doc = z.infer<typeof docItem>;

/** Multipart form fields of POST /docs (besides the `file` part). Send them before the file. */
export const docUploadFields = z
  .object({
    kind: z.enum(DOC_KINDS, { error: DOC_MSG.badKind }),
    event_id: textId(BIGSERIAL_MAX).optional(),
    company_id: textId().optional(),
    name: z
      .string()
      .trim()
      .min(1)
      .max(255, { error: MSG.tooLong(255) })
      .optional(),
  })
  .strict();
export type DocUploadFields = z.infer<typeof docUploadFields>;

export const docPatchRequest = z
  .object({
    name: z
      .string({ error: MSG.required })
      .trim()
      .min(1, { error: MSG.required })
      .max(255, { error: MSG.tooLong(255) }),
  })
  .strict();
