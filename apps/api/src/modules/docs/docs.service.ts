/*
 * Documents: bytes in the DocStore, metadata in `docs`. Images are recognised by their content
 * (magic bytes), never by the name or the type the client claims; downloads are attachments
 * (inline only for real images) with nosniff.
 */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { DOC_MSG, DOC_SIZE_LIMITS, type Doc, type DocKind, IMAGE_KINDS } from '@forpost/contract/docs';
import { API_MSG } from '@forpost/contract/errors';
import { EVENT_MSG } from '@forpost/contract/modules';
import { can, companiesWith, type Permission } from '@forpost/contract/permissions';
import type { Db } from '../../db/client';
import type { Audit } from '../../lib/audit';
import { type Caller, ownsPersonal, targetCompany } from '../../lib/caller';
import type { DocStore } from '../../lib/docstore';
import { ApiError, badRequest, notFound } from '../../lib/errors';
import type { CompaniesRepo } from '../companies/index';
import { createDocsRepo, type DocRow } from './docs.repo';

const IMAGE_MAGIC: [string, (b: Buffer) => boolean][] = [
  ['image/png', (b) => b.length >= 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))],
  ['image/jpeg', (b) => b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff],
  ['image/gif', (b) => b.length >= 6 && /^GIF8[79]a$/.test(b.subarray(0, 6).toString('latin1'))],
  [
    'image/webp',
    (b) => b.length >= 12 && b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
  ],
];
/** The image type of these first bytes, or null. */
function sniffImage(head: Buffer): string | null {
  for (const [type, test] of IMAGE_MAGIC) if (test(head)) return type;
  return null;
}

/** Types we serve as declared (always as an attachment); anything else is application/octet-stream. */
const SAFE_TYPES = new Set([
  'application/pdf',
  'text/csv',
  'text/plain',
  'application/json',
  'application/zip',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.ms-excel',
]);
const IMAGE_EXT = /\.(png|jpe?g|gif|webp|bmp|svg|ico|tiff?|avif|heic)$/i;
const HEAD_BYTES = 16;

/** Thrown inside the upload stream; mapped to a Russian 400/413. */
class UploadRefused extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Counts, hashes and checks the bytes as they pass: size limit, and the image check once the head is known. */
function inspect(source: Readable, limit: number, mustBeImage: boolean) {
  const hash = createHash('sha256');
  const r = { size: 0, sha256: '', image: null as string | null };
  async function* checked() {
    let head = Buffer.alloc(0);
    let checked = false;
    const check = () => {
      checked = true;
      r.image = sniffImage(head);
      if (mustBeImage && !r.image) throw new UploadRefused(400, DOC_MSG.notImage);
    };
    for await (const chunk of source as AsyncIterable<Buffer>) {
      r.size += chunk.length;
      if (r.size > limit) throw new UploadRefused(413, DOC_MSG.tooLarge(limit));
      if (!checked) {
        head = Buffer.concat([head, chunk.subarray(0, HEAD_BYTES - head.length)]);
        if (head.length >= HEAD_BYTES) check();
      }
      hash.update(chunk);
      yield chunk;
    }
    if (!checked) check();
    if (r.size === 0) throw new UploadRefused(400, DOC_MSG.empty);
    r.sha256 = hash.digest('hex');
  }
  return { stream: Readable.from(checked(), { objectMode: false }), result: () => r };
}

/** A display name: no control characters or path separators, at most 255 characters. */
const cleanName = (s: string) =>
  [...s]
    .map((ch) => (ch.charCodeAt(0) < 0x20 || ch === '\u007f' || ch === '/' || ch === '\\' ? '_' : ch))
    .join('')
    .trim()
    .slice(0, 255) || 'файл';

export interface UploadInput {
  kind: DocKind;
  companyId: number | null;
  eventId?: number | null;
  ownerUserId: number | null;
  filename: string;
  mimetype: string;
  stream: Readable;
}

export function createDocsService(deps: { db: Db; store: DocStore; audit: Audit; companies: CompaniesRepo }) {
  const { db, store, audit, companies } = deps;
  const repo = createDocsRepo(db);

  const toDoc = (d: DocRow): Doc => ({
    id: d.id,
    kind: d.kind,
    name: d.name,
    mimetype: d.mimetype,
    size: d.size,
    sha256: d.sha256,
    company_id: d.companyId,
    event_id: d.eventId,
    owner_user_id: d.ownerUserId,
    created_at: d.createdAt.toISOString(),
    updated_at: d.updatedAt.toISOString(),
    url: `/api/v1/docs/${d.id}/content`,
  });

  const seesAll = (c: Caller) => companiesWith(c.auth.principal, 'events.read') === 'all';
  const isAdmin = (c: Caller) => ['SUPER_ADMIN', 'ADMIN'].includes(c.auth.principal.role) && !c.auth.principal.keyPermissions;

  /** Readable: a company's document by anyone who reads that company's events; a personal one by its owner and staff. */
  function canRead(c: Caller, d: DocRow): boolean {
    if (d.companyId != null) return can(c.auth.principal, 'events.read', d.companyId);
    return ownsPersonal(c, d.ownerUserId) || seesAll(c);
  }
  function canWrite(c: Caller, d: DocRow): boolean {
    if (d.companyId != null) return can(c.auth.principal, 'events.write', d.companyId);
    return ownsPersonal(c, d.ownerUserId) || isAdmin(c);
  }

  async function find(c: Caller, id: number, write = false): Promise<DocRow> {
    const d = await repo.find(id);
    if (!d || !canRead(c, d)) throw notFound(DOC_MSG.notFound);
    if (write && !canWrite(c, d)) throw new ApiError(403, API_MSG.forbidden);
    return d;
  }

  /**
   * Stores a file and its metadata, with no access check (the caller has done it): the profile's avatar
   * upload uses this directly. Refuses non-images for image kinds and files over the kind's limit.
   * `inTx` runs in the row's transaction (its audit entry): if it fails, neither row nor file stays.
   */
  async function upload(u: UploadInput, inTx?: (d: Doc, tx: Db) => Promise<void>): Promise<Doc> {
    const limit = DOC_SIZE_LIMITS[u.kind];
    const claimsImage = u.mimetype.startsWith('image/') || IMAGE_EXT.test(u.filename);
    const insp = inspect(u.stream, limit, IMAGE_KINDS.has(u.kind) || claimsImage);
    let key: string;
    try {
      key = (await store.put(insp.stream)).key;
    } catch (e) {
      if (!u.stream.destroyed) u.stream.resume(); // drain the rest of the upload so the request completes
      const code = (e as { code?: string }).code;
      if (e instanceof UploadRefused) throw new ApiError(e.status, e.message);
      if (code === 'FST_REQ_FILE_TOO_LARGE') throw new ApiError(413, DOC_MSG.tooLarge(limit));
      throw e;
    }
    const r = insp.result();
    const declared = u.mimetype.toLowerCase().split(';')[0]?.trim() ?? '';
    const mimetype = r.image ?? (SAFE_TYPES.has(declared) ? declared : 'application/octet-stream');
    try {
      return await db.transaction(async (tx) => {
        const d = await repo.insert(
          {
            kind: u.kind,
            companyId: u.companyId,
            eventId: u.eventId ?? null,
            ownerUserId: u.ownerUserId,
            name: cleanName(u.filename),
            mimetype,
            size: r.size,
            sha256: r.sha256,
            storageKey: key,
          },
          tx,
        );
        const doc = toDoc(d);
        await inTx?.(doc, tx);
        return doc;
      });
    } catch (e) {
      await store.delete(key);
      throw e;
    }
  }

  /** The company a new document belongs to, checked against the caller's rights (404 for other companies). */
  async function placeFor(
    c: Caller,
    f: { kind: DocKind; event_id?: number; company_id?: number },
  ): Promise<{ companyId: number | null; eventId: number | null }> {
    if (f.kind === 'avatar') {
      // An avatar is the user's own, company-less: a key (bound to one company) makes none.
      if (c.auth.keyId !== null) throw new ApiError(403, API_MSG.sessionOnly);
      if (f.event_id || f.company_id)
        throw badRequest(API_MSG.validation, { kind: 'Аватар не привязывается к событию или компании' });
      return { companyId: null, eventId: null };
    }
    const perm: Permission = f.kind === 'import' ? 'events.import' : f.kind === 'report' ? 'reports.manage' : 'events.write';
    if (f.event_id) {
      const evCompany = await repo.eventCompany(f.event_id);
      if (evCompany === undefined || !can(c.auth.principal, 'events.read', evCompany)) throw notFound(EVENT_MSG.eventNotFound);
      if (!can(c.auth.principal, 'events.write', evCompany)) throw new ApiError(403, API_MSG.forbidden);
      if (f.company_id && f.company_id !== evCompany)
        throw badRequest(API_MSG.validation, { company_id: 'Компания не совпадает с компанией события' });
      return { companyId: evCompany, eventId: f.event_id };
    }
    if (f.company_id === undefined && seesAll(c) && can(c.auth.principal, perm)) return { companyId: null, eventId: null };
    const companyId = targetCompany(c, perm, f.company_id);
    if (!(await companies.exists(companyId))) throw notFound(EVENT_MSG.companyNotFound);
    return { companyId, eventId: null };
  }

  return {
    upload,
    placeFor,
    toDoc,

    async uploadAs(
      c: Caller,
      f: { kind: DocKind; event_id?: number; company_id?: number; name?: string },
      file: { filename: string; mimetype: string; stream: Readable },
    ) {
      const place = await placeFor(c, f);
      return upload(
        {
          kind: f.kind,
          ...place,
          ownerUserId: c.auth.user.id,
          filename: f.name ?? file.filename,
          mimetype: file.mimetype,
          stream: file.stream,
        },
        (d, tx) =>
          audit.record(
            c.actor,
            {
              action: 'doc.upload',
              entity: 'doc',
              entityId: d.id,
              companyId: d.company_id,
              after: { kind: d.kind, name: d.name, size: d.size, event_id: d.event_id },
            },
            tx,
          ),
      );
    },

    async get(c: Caller, id: number) {
      return toDoc(await find(c, id));
    },

    async open(c: Caller, id: number) {
      const d = await find(c, id);
      try {
        return { doc: toDoc(d), stream: await store.get(d.storageKey) };
      } catch (e) {
        if ((e as { code?: string }).code === 'ENOENT') throw notFound(DOC_MSG.notFound);
        throw e;
      }
    },

    async rename(c: Caller, id: number, name: string) {
      const d = await find(c, id, true);
      const u = await db.transaction(async (tx) => {
        const u = await repo.rename(d.id, cleanName(name), tx);
        await audit.record(
          c.actor,
          {
            action: 'doc.rename',
            entity: 'doc',
            entityId: d.id,
            companyId: d.companyId,
            before: { name: d.name },
            after: { name: u?.name },
          },
          tx,
        );
        return u;
      });
      return toDoc(u ?? d);
    },

    async remove(c: Caller, id: number) {
      const d = await find(c, id, true);
      await db.transaction(async (tx) => {
        await repo.remove(d.id, tx);
        await audit.record(
          c.actor,
          { action: 'doc.delete', entity: 'doc', entityId: d.id, companyId: d.companyId, before: { kind: d.kind, name: d.name } },
          tx,
        );
      });
      // The file goes only once the row is gone for good.
      await store.delete(d.storageKey).catch(() => undefined);
    },

    /** For the profile: is `docId` an avatar image owned by `userId`? */
    async avatarOk(userId: number, docId: number): Promise<boolean> {
      const d = await repo.find(docId);
      return Boolean(d && d.kind === 'avatar' && d.ownerUserId === userId);
    },

    /** A document of an event's company, for linking (snapshot screenshots, repository files). */
    async assertUsableFor(docId: number, companyId: number): Promise<void> {
      const d = await repo.find(docId);
      if (!d || d.companyId !== companyId) throw badRequest(DOC_MSG.notFound, { doc_id: DOC_MSG.notFound });
    },
  };
}
export type DocsService = ReturnType<typeof createDocsService>;
