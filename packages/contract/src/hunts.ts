/*
 * Credential-leak hunts (#34): staff run a dump (uploaded or an object already in the bucket) against every
 * company's protected identities; the request and response schemas of /hunts/….
 */
import { z } from 'zod';

export const HUNT_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
export const HUNT_STATUS_LABELS: Record<(typeof HUNT_STATUSES)[number], string> = {
  queued: 'В очереди',
  running: 'Идёт',
  done: 'Готов',
  failed: 'Ошибка',
};

/** Start a hunt over an object already in the document store's bucket. */
export const createHuntRequest = z.object({
  leak_id: z.number().int().positive(),
  object_key: z.string().min(1).max(1024),
  file_name: z.string().min(1).max(255).optional(),
});
export type CreateHuntRequest = z.infer<typeof createHuntRequest>;

/** The multipart upload's query: the catalogue entry the dump is. */
export const huntUploadQuery = z.object({ leak_id: z.coerce.number().int().positive() });

export const huntCompany = z.object({
  company_id: z.number(),
  company_name: z.string(),
  /** Accounts the hunt found for the company (each once). */
  found: z.number(),
  /** Of them, new «Аккаунты» events (the rest were known: the leak was linked to them). */
  new: z.number(),
  /** Credentials for one of the company's own hosts (SSO, VPN, mail): critical. */
  corporate_urls: z.number(),
});

export const huntItem = z.object({
  id: z.number(),
  leak_id: z.number(),
  leak_name: z.string(),
  file_name: z.string(),
  size: z.number(),
  status: z.enum(HUNT_STATUSES),
  /** Russian reason of a failed hunt. */
  error: z.string().nullable(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  progress: z.object({
    bytes: z.number(),
    lines: z.number(),
    /** Unrecognised lines: counted when parsed_lines = lines, else estimated from the parsed sample. */
    unrecognized: z.number(),
    /** Lines parsed one by one: all of them, or (a big dump through the grep prefilter) the sample. */
    parsed_lines: z.number(),
    /** Shapes (letters → a/A, digits → 9) of unrecognised lines, never their text. */
    unrecognized_samples: z.array(z.string()),
    ranges: z.number(),
    ranges_done: z.number(),
    lines_per_second: z.number().nullable(),
    /** Seconds left at the current speed (null until measurable or when finished). */
    eta_seconds: z.number().nullable(),
  }),
  companies: z.array(huntCompany),
});
export type HuntItem = z.infer<typeof huntItem>;

export const huntListResponse = z.object({ items: z.array(huntItem.omit({ companies: true })) });
