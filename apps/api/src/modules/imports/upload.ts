/*
 * Upload: the file is received into a temporary file (size limit, SHA-256), its format, encoding and
 * delimiter detected, its columns mapped automatically; then stored as a doc of kind `import` with
 * the import row (status `uploaded`), and its first rows checked with that mapping. Nothing of a
 * refused upload stays.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { MultipartFile } from '@fastify/multipart';
import {
  autoMapping,
  IMPORT_MSG,
  IMPORT_PREVIEW_ROWS,
  type ImportItem,
  type ImportPreview,
  importUploadFields,
  LEAKS_CATALOGUE,
} from '@forpost/contract/imports';
import { EVENT_MSG, getModule } from '@forpost/contract/modules';
import { dropTemp, tempPath } from '../../db/jobs-kit';
import { assertModule, type Caller, keyCompany, targetCompany } from '../../lib/caller';
import { ApiError, badRequest, notFound } from '../../lib/errors';
import { importScope, toItem } from './access';
import type { ImportsContext, TargetCode } from './context';
import { previewRows } from './preview';
import { type FileHead, readHead } from './rows';
import { type FileMeta, sniffFile } from './sniff';
import { inspectXlsx } from './xlsx';

const MB = 1024 * 1024;
// biome-ignore lint/suspicious/noControlCharactersInRegex: strip control characters from file names
const UNSAFE_NAME = /[\u0000-\u001f\u007f/\\]/g;
const cleanName = (s: string) => s.replace(UNSAFE_NAME, '_').trim().slice(0, 255) || 'import.csv';

const MIME: Record<string, string> = {
  csv: 'text/csv',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** The configured upload limit, bytes (read at run time). */
export const uploadLimit = async (ctx: ImportsContext) => (await ctx.deps.configs.get('import_file_max_mb')) * MB;

export async function upload(
  ctx: ImportsContext,
  c: Caller,
  code: TargetCode,
  part: MultipartFile,
): Promise<ImportItem & { preview: ImportPreview }> {
  if (code !== LEAKS_CATALOGUE) assertModule(c, code);
  const fileName = cleanName(part.filename);
  const maxBytes = await uploadLimit(ctx);
  let temp: string | undefined;
  let storageKey: string | undefined;
  try {
    const companyId = await uploadCompany(ctx, c, code, part);
    temp = await tempPath(ctx.deps.dataDir, '.upload');
    const received = await receive(part, temp, maxBytes);
    const meta = await sniffFile(temp, fileName);
    const plan = meta.format === 'xlsx' ? await inspectXlsx(temp) : undefined;
    const head: FileHead = await readHead(temp, meta, plan, IMPORT_PREVIEW_ROWS);
    const auto = autoMapping(code === LEAKS_CATALOGUE ? null : getModule(code), head.headers);
    const previewCtx = { scope: importScope(c), defaultCompanyId: companyId };
    const { mapping, preview: found } = await withoutStrangers(ctx, code, head, auto, previewCtx);
    // A header made up by rows.ts (a bare list of URLs) is numbered 0: say so above the mapping.
    const preview = head.headerRow === 0 ? { ...found, notes: [IMPORT_MSG.headerInvented, ...(found.notes ?? [])] } : found;
    const put = await ctx.deps.store.put(createReadStream(temp));
    storageKey = put.key;
    const id = await record(ctx, c, code, {
      companyId,
      fileName,
      fileSize: (await stat(temp)).size,
      stored: { key: put.key, size: put.size, sha256: received.sha256 },
      meta,
      head,
      mapping,
      size: received.size,
    });
    storageKey = undefined; // kept: it belongs to the import now
    const row = await ctx.repo.find(id);
    if (!row) throw notFound(IMPORT_MSG.notFound);
    return { ...toItem(row), preview };
  } finally {
    // Whatever went wrong, the rest of the upload is drained (the request completes) and nothing half-stored stays.
    part.file.resume();
    await dropTemp(temp);
    if (storageKey) await ctx.deps.store.delete(storageKey).catch(() => undefined);
  }
}

/**
 * Headers that map to «Компания» but often mean something else: in a threat feed `company` is the
 * brand attacked, not the client. «Компания» itself is never second-guessed (its rows naming an
 * unknown company must fail, not land in the company chosen at start).
 */
const AMBIGUOUS_COMPANY_HEADERS = new Set(['company']);

/**
 * The automatic mapping and its preview, without an ambiguous `company` column none of whose sample
 * values names a company of the caller's: it is left unmapped, with a note saying why.
 */
async function withoutStrangers(
  ctx: ImportsContext,
  code: TargetCode,
  head: FileHead,
  auto: (string | null)[],
  pctx: { scope: 'all' | number[]; defaultCompanyId: number | null },
): Promise<{ mapping: (string | null)[]; preview: ImportPreview }> {
  const preview = await previewRows(ctx, code, head.headers, head.rows, auto, pctx);
  const col = auto.indexOf('company_id');
  if (col < 0 || !AMBIGUOUS_COMPANY_HEADERS.has((head.headers[col] ?? '').trim().toLowerCase()))
    return { mapping: auto, preview };
  const cells = preview.rows.map((r) => r.cells[col]).filter((x) => x?.value);
  if (!cells.length || cells.some((x) => x?.error !== IMPORT_MSG.companyUnknown)) return { mapping: auto, preview };
  const mapping = auto.map((k, i) => (i === col ? null : k));
  const again = await previewRows(ctx, code, head.headers, head.rows, mapping, pctx);
  return {
    mapping,
    preview: { ...again, notes: [IMPORT_MSG.companyNotMapped(head.headers[col] ?? ''), ...(again.notes ?? [])] },
  };
}

/** The company named in the form (staff may name any existing one), the API key's, or none yet. */
async function uploadCompany(ctx: ImportsContext, c: Caller, code: TargetCode, part: MultipartFile): Promise<number | null> {
  if (code === LEAKS_CATALOGUE) return null;
  const raw = (part.fields.company_id as { value?: unknown } | undefined)?.value;
  if (raw === undefined || raw === '') return keyCompany(c);
  const f = importUploadFields.safeParse({ company_id: raw });
  if (!f.success || f.data.company_id === undefined)
    throw badRequest(EVENT_MSG.companyNotFound, { company_id: EVENT_MSG.companyNotFound });
  const companyId = targetCompany(c, 'events.import', f.data.company_id);
  if (!(await ctx.companies.exists(companyId))) throw notFound(EVENT_MSG.companyNotFound);
  return companyId;
}

/** The file part into `temp`: refused (413) past `maxBytes`, (400) when empty; its size and SHA-256. */
async function receive(part: MultipartFile, temp: string, maxBytes: number): Promise<{ size: number; sha256: string }> {
  const hash = createHash('sha256');
  let size = 0;
  const tooLarge = () => new ApiError(413, IMPORT_MSG.tooLarge(maxBytes));
  const counter = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      size += chunk.length;
      if (size > maxBytes) return cb(tooLarge());
      hash.update(chunk);
      cb(null, chunk);
    },
  });
  // Busboy stops passing bytes at the limit but would read the rest of the body before ending the
  // part: refuse right there instead (the route closes the connection).
  part.file.once('limit', () => counter.destroy(tooLarge()));
  try {
    await pipeline(part.file, counter, createWriteStream(temp, { mode: 0o600 }));
  } catch (e) {
    if (e instanceof ApiError) throw e;
    if ((e as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
    throw e;
  }
  if (part.file.truncated) throw tooLarge();
  if (size === 0) throw badRequest(IMPORT_MSG.empty);
  return { size, sha256: hash.digest('hex') };
}

/** The stored file's doc, the import row and the audit entry, in one transaction; the import's id. */
async function record(
  ctx: ImportsContext,
  c: Caller,
  code: TargetCode,
  u: {
    companyId: number | null;
    fileName: string;
    fileSize: number;
    stored: { key: string; size: number; sha256: string };
    meta: FileMeta;
    head: FileHead;
    mapping: (string | null)[];
    /** Bytes received. */
    size: number;
  },
): Promise<number> {
  const { repo } = ctx;
  return ctx.deps.db.transaction(async (tx) => {
    const docId = await repo.insertDoc(
      {
        kind: 'import',
        companyId: u.companyId,
        ownerUserId: c.auth.user.id,
        name: u.fileName,
        mimetype: MIME[u.meta.format] ?? 'application/octet-stream',
        size: u.stored.size,
        sha256: u.stored.sha256,
        storageKey: u.stored.key,
      },
      tx,
    );
    const id = await repo.insert(
      {
        module: code,
        companyId: u.companyId,
        docId,
        fileName: u.fileName,
        fileSize: u.fileSize,
        format: u.meta.format,
        encoding: u.meta.encoding,
        delimiter: u.meta.delimiter,
        headers: u.head.headers,
        mapping: u.mapping,
        sample: u.head.rows,
        status: 'uploaded',
        authorId: c.auth.user.id,
        authorKeyId: c.auth.keyId ?? null,
      },
      tx,
    );
    await ctx.deps.audit.record(
      c.actor,
      {
        action: 'import.upload',
        entity: 'import',
        entityId: id,
        companyId: u.companyId,
        after: { module: code, file_name: u.fileName, size: u.size, format: u.meta.format, encoding: u.meta.encoding },
      },
      tx,
    );
    return id;
  });
}
