/*
 * TAXII 2.1 server (issue #33): the shapes of the OASIS «TAXII Version 2.1» resources Forpost serves
 * (§3 discovery and API root, §5 collections, objects, manifest, versions) and its error message.
 * One API root; a collection per company and module the caller may read.
 */
import { z } from 'zod';

export const TAXII_MEDIA_TYPE = 'application/taxii+json;version=2.1';
export const STIX_MEDIA_TYPE = 'application/stix+json;version=2.1';
/** The discovery resource and the API root, under the API prefix. */
export const TAXII_PATH = '/taxii2/';
export const TAXII_ROOT_PATH = '/taxii2/forpost/';
/** Objects per page when the client asks for none, and the most it may ask for. */
export const TAXII_DEFAULT_LIMIT = 1000;
export const TAXII_MAX_LIMIT = 10_000;

export const TAXII_MSG = {
  collectionNotFound: 'Коллекция не найдена',
  objectNotFound: 'Объект не найден',
  badAddedAfter: 'added_after: ожидается метка времени RFC 3339',
  badNext: 'next: неизвестная страница, начните выборку заново',
  busy: 'Идут изменения событий, повторите запрос через несколько секунд',
} as const;

export const taxiiDiscovery = z.object({
  title: z.string(),
  description: z.string(),
  default: z.string(),
  api_roots: z.array(z.string()),
});
export const taxiiApiRoot = z.object({
  title: z.string(),
  description: z.string(),
  versions: z.array(z.string()),
  max_content_length: z.number().int(),
});
export const taxiiCollection = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  can_read: z.boolean(),
  can_write: z.boolean(),
  media_types: z.array(z.string()),
});
export const taxiiCollections = z.object({ collections: z.array(taxiiCollection) });
export type TaxiiCollection = z.infer<typeof taxiiCollection>;

const stixObject = z.record(z.string(), z.unknown());
export const taxiiEnvelope = z.object({
  more: z.boolean(),
  next: z.string().optional(),
  objects: z.array(stixObject).optional(),
});
export const taxiiManifest = z.object({
  more: z.boolean(),
  next: z.string().optional(),
  objects: z.array(z.object({ id: z.string(), date_added: z.string(), version: z.string(), media_type: z.string() })).optional(),
});
export const taxiiVersions = z.object({ more: z.boolean(), versions: z.array(z.string()).optional() });

/** TAXII error message (§3.6.1). */
export const taxiiError = z.object({
  title: z.string(),
  description: z.string().optional(),
  http_status: z.string().optional(),
});

export const taxiiCollectionParams = z.object({ collection: z.string().max(100) });
export const taxiiObjectParams = z.object({ collection: z.string().max(100), object: z.string().max(300) });

/** Query of objects and manifest (§3.4): `match[type]`, `match[id]` comma lists, `added_after`, `limit`, `next`. */
export const taxiiObjectsQuery = z
  .object({
    added_after: z.string().max(40).optional(),
    limit: z.coerce.number().int().min(1).max(TAXII_MAX_LIMIT).optional(),
    next: z.string().max(200).optional(),
    'match[type]': z.string().max(2000).optional(),
    'match[id]': z.string().max(20_000).optional(),
    'match[version]': z.string().max(200).optional(),
    'match[spec_version]': z.string().max(200).optional(),
  })
  .loose();
export type TaxiiObjectsQuery = z.infer<typeof taxiiObjectsQuery>;
