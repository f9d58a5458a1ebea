/* Schemas of the module extras: snapshots, allowlist, reference lists (media types, leak types, leaks), files, linked leaks. */
import { z } from 'zod';
import { BIGSERIAL_MAX, companyQuery, textId } from './common';
import { pageQuery } from './events';
import { MSG } from './messages';
import { dateSchema, EVENT_MSG, ipSchema } from './modules/index';
import { domainSchema, urlSchema } from './validation';

const posInt = z.number({ error: EVENT_MSG.integer }).int({ error: EVENT_MSG.integer }).positive({ error: EVENT_MSG.integer });
const name = (max = 200) =>
  z
    .string({ error: MSG.required })
    .trim()
    .min(1, { error: MSG.required })
    .max(max, { error: MSG.tooLong(max) });
const optText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, { error: MSG.tooLong(max) })
    .nullish();
const listOf = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), total: z.number().int(), page: z.number().int(), page_size: z.number().int() });

/** A simple reference list: `?q=&page=&page_size=`. */
export const refListQuery = z.object({ q: z.string().trim().max(200).optional(), ...pageQuery }).strict();

// --- domains: snapshots ------------------------------------------------------

export const snapshotItem = z.object({
  id: z.number().int(),
  event_id: z.number().int(),
  taken_at: z.string(),
  screenshot_doc_id: z.number().int().nullable(),
  ip: z.string().nullable(),
  http_status: z.number().int().nullable(),
  page_title: z.string().nullable(),
  /** Where the fetch ended after redirects. */
  final_url: z.string().nullable(),
  /** Why the check failed (Russian); null = the site answered. */
  error: z.string().nullable(),
});
export const snapshotsResponse = z.object({ items: z.array(snapshotItem) });
export const snapshotCreateRequest = z
  .object({
    taken_at: z.iso.datetime({ offset: true, error: EVENT_MSG.datetime }).optional(),
    screenshot_doc_id: posInt.nullish(),
    ip: ipSchema.nullish(),
    http_status: z
      .number()
      .int()
      .min(100, { error: EVENT_MSG.tooSmall(100) })
      .max(599, { error: EVENT_MSG.tooBig(599) })
      .nullish(),
    page_title: optText(500),
    final_url: optText(2000),
    error: optText(500),
  })
  .strict();

// --- domains: allowlist ------------------------------------------------------

export const allowlistItem = z.object({
  id: z.number().int(),
  company_id: z.number().int(),
  company_name: z.string(),
  domain: z.string(),
  domain_punycode: z.string(),
  comment: z.string().nullable(),
  created_by: z.number().int().nullable(),
  created_at: z.string(),
});
export const allowlistListResponse = listOf(allowlistItem);
export const allowlistListQuery = refListQuery.extend({ company_id: companyQuery }).strict();
export const allowlistCreateRequest = z
  .object({ company_id: posInt.optional(), domain: domainSchema, comment: optText(1000) })
  .strict();
export const allowlistPatchRequest = z.object({ domain: domainSchema.optional(), comment: optText(1000) }).strict();

// --- media types ------------------------------------------------------------

export const mediaTypeItem = z.object({ id: z.number().int(), name: z.string(), events_count: z.number().int().optional() });
export const mediaTypeListResponse = listOf(mediaTypeItem);
export const mediaTypeCreateRequest = z.object({ name: name(100) }).strict();
export const mediaTypePatchRequest = z.object({ name: name(100).optional() }).strict();

// --- leak types (seeded; name and description editable) ---------------------

export const leakTypeItem = z.object({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
  description: z.string().nullable(),
});
export const leakTypeListResponse = z.object({ items: z.array(leakTypeItem) });
export const leakTypePatchRequest = z.object({ name: name(100).optional(), description: optText(1000) }).strict();

// --- leaks catalogue ----------------------------------------------------------

export const leakItem = z.object({
  id: z.number().int(),
  name: z.string(),
  leak_type_id: z.number().int().nullable(),
  leaked_at: z.string().nullable(),
  records_count: z.number().int().nullable(),
  source_url: z.string().nullable(),
  description: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export const leakListResponse = listOf(leakItem);
export const leakListQuery = refListQuery.extend({ leak_type_id: textId().optional() }).strict();
const leakFields = {
  leak_type_id: posInt.nullish(),
  leaked_at: dateSchema.nullish(),
  records_count: z
    .number()
    .int({ error: EVENT_MSG.integer })
    .min(0, { error: EVENT_MSG.tooSmall(0) })
    .nullish(),
  source_url: urlSchema.nullish(),
  description: optText(5000),
};
export const leakCreateRequest = z.object({ name: name(300), ...leakFields }).strict();
export const leakPatchRequest = z.object({ name: name(300).optional(), ...leakFields }).strict();

// --- accounts: linked leaks and leak names ---------------------------------------

export const linkLeakRequest = z.object({ leak_id: posInt }).strict();
export const unlinkLeakQuery = z.object({ leak_id: textId() }).strict();
export const linkedLeaksResponse = z.object({
  items: z.array(z.object({ id: z.number().int(), name: z.string(), linked_at: z.string() })),
});
export const leakNamesQuery = z
  .object({ q: z.string().trim().max(200).optional(), limit: z.coerce.number().int().min(1).max(500).default(50) })
  .strict();
export const leakNamesResponse = z.object({ items: z.array(z.object({ id: z.number().int(), name: z.string() })) });

// --- repositories: files ------------------------------------------------------

export const repoFileItem = z.object({
  id: z.number().int(),
  event_id: z.number().int(),
  path: z.string(),
  url: z.string().nullable(),
  matched: z.string().nullable(),
  doc_id: z.number().int().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export const repoFilesResponse = z.object({ items: z.array(repoFileItem) });
export const repoFileParams = z.object({
  id: textId(BIGSERIAL_MAX),
  fileId: textId(BIGSERIAL_MAX),
});
export const repoFileCreateRequest = z
  .object({ path: name(1000), url: urlSchema.nullish(), matched: optText(5000), doc_id: posInt.nullish() })
  .strict();
export const repoFilePatchRequest = z
  .object({ path: name(1000).optional(), url: urlSchema.nullish(), matched: optText(5000), doc_id: posInt.nullish() })
  .strict();
