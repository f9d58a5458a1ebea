/*
 * Where document bytes live. Keys are opaque, random and sharded (`ab/cd/<32 hex>`): the user's
 * file name never reaches the disk or the bucket. Two stores behind one interface:
 *   - local disk under DATA_DIR/files (the default, one machine);
 *   - an S3-compatible bucket (S3_BUCKET set): every instance — API and workers on any machine —
 *     sees the same files. The connection follows the AWS SDK's own conventions (AWS_ENDPOINT_URL_S3
 *     or AWS_ENDPOINT_URL, AWS_REGION, AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY or the SDK's default
 *     credential chain), plus S3_FORCE_PATH_STYLE for MinIO, Ceph RGW, SeaweedFS and the like.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { pipeline as pipelineCb, Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { Config } from '../config';

/** Bytes `start`…`end` of a file, both inclusive (as in HTTP); no `end` = to the end of the file. */
export interface ByteRange {
  start: number;
  end?: number;
}

export interface DocStore {
  /** Stores the stream; returns its key and size. If the stream fails, nothing is kept. */
  put(stream: Readable): Promise<{ key: string; size: number }>;
  /**
   * The stored bytes, or one range of them (an `end` past the file is cut to its last byte); rejects
   * with code ENOENT when the key is unknown, ERANGE when the range starts past the end of the file.
   */
  get(key: string, range?: ByteRange): Promise<Readable>;
  /** The stored size in bytes; rejects with code ENOENT when the key is unknown. */
  size(key: string): Promise<number>;
  /** Removes the bytes; a missing key is not an error. */
  delete(key: string): Promise<void>;
  /** Checks at start that the store can be used; rejects with a Russian message saying why not. */
  check(): Promise<void>;
  /** Lets go of connections (the S3 client's sockets) when the app closes. */
  close?(): void;
  /**
   * The file holding the bytes, when they are on this machine's disk (the local store): for readers that hand
   * a path to a native tool (the hunt's grep prefilter). Undefined for stores without files.
   */
  localPath?(key: string): string;
}

const KEY = /^[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{32}$/;

function newKey(): string {
  const id = randomBytes(16).toString('hex');
  return `${id.slice(0, 2)}/${id.slice(2, 4)}/${id}`;
}

function coded(message: string, code: string): NodeJS.ErrnoException {
  const e = new Error(message) as NodeJS.ErrnoException;
  e.code = code;
  return e;
}
const notFoundError = () => coded('document not found', 'ENOENT');
const rangeError = () => coded('range not satisfiable', 'ERANGE');

/** The range cut to a file of `size` bytes; throws ERANGE when it is malformed or starts past the end. */
function fitRange(range: ByteRange, size: number): { start: number; end: number } {
  const { start } = range;
  const end = range.end ?? size - 1;
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start) throw rangeError();
  if (start >= size) throw rangeError();
  return { start, end: Math.min(end, size - 1) };
}

/**
 * What a store knows about a stream it handed out: the file's size and how to open a range of it.
 * Lets a download route that got the whole stream from a service answer a Range request without
 * reading the skipped bytes (the whole stream is closed unread and the range opened instead).
 */
const opened = new WeakMap<Readable, { size: number; open(range: ByteRange): Promise<Readable> }>();

/** The size of the file behind a stream from `DocStore.get` (undefined for other streams). */
export function storedSize(stream: Readable): number | undefined {
  return opened.get(stream)?.size;
}

/**
 * One range of the file behind `stream` (a whole-file stream from `DocStore.get`, not yet read):
 * reopened at the store when it came from one, else cut out of the stream itself. `stream` is
 * consumed either way.
 */
export async function openRange(stream: Readable, range: ByteRange): Promise<Readable> {
  const o = opened.get(stream);
  if (o) {
    stream.destroy();
    return o.open(range);
  }
  return sliceStream(stream, range);
}

function sliceStream(stream: Readable, range: ByteRange): Readable {
  const end = range.end ?? Number.POSITIVE_INFINITY;
  async function* cut() {
    let pos = 0;
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        const from = Math.max(range.start - pos, 0);
        const to = Math.min(end + 1 - pos, chunk.length);
        pos += chunk.length;
        if (to > from) yield chunk.subarray(from, to);
        if (pos > end) break;
      }
    } finally {
      stream.destroy();
    }
  }
  return Readable.from(cut(), { objectMode: false });
}

/** Local disk under `root` (DATA_DIR/files). Writes go to a temporary file first, then are renamed. */
export function createLocalDocStore(root: string): DocStore {
  const fileOf = (key: string) => {
    if (!KEY.test(key)) throw notFoundError();
    return path.join(root, ...key.split('/'));
  };
  const store: DocStore = {
    async put(stream) {
      const key = newKey();
      const file = fileOf(key);
      await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
      const tmp = `${file}.part`;
      try {
        await pipeline(stream, createWriteStream(tmp, { flags: 'wx', mode: 0o600 }));
        await rename(tmp, file);
      } catch (e) {
        await rm(tmp, { force: true });
        throw e;
      }
      const { size } = await stat(file);
      return { key, size };
    },
    async get(key, range) {
      const file = fileOf(key);
      const { size } = await stat(file);
      const r = range ? fitRange(range, size) : undefined;
      const s = createReadStream(file, r);
      if (!r) opened.set(s, { size, open: (rr) => store.get(key, rr) });
      return s;
    },
    async size(key) {
      return (await stat(fileOf(key))).size;
    },
    localPath: fileOf,
    async delete(key) {
      try {
        await unlink(fileOf(key));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      }
    },
    async check() {
      try {
        await mkdir(root, { recursive: true, mode: 0o700 });
      } catch (e) {
        throw new Error(`Каталог файлов ${root} недоступен: ${(e as Error).message}`);
      }
    },
  };
  return store;
}

export interface S3StoreOptions {
  bucket: string;
  /** AWS_ENDPOINT_URL_S3 / AWS_ENDPOINT_URL; absent = AWS S3 itself (or what the SDK finds in the environment). */
  endpoint?: string;
  /** Absent = the SDK's own lookup (AWS_REGION, the shared config file). */
  region?: string;
  /** `http://host/bucket/key` instead of `http://bucket.host/key` (MinIO, Ceph RGW, SeaweedFS…). */
  forcePathStyle?: boolean;
  /** Absent = the SDK's default credential chain (environment, shared files, instance role…). */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  /** Multipart part size (≥ 5 MiB); a put buffers at most `queueSize` parts in memory. */
  partSize?: number;
  queueSize?: number;
}

/** S3's smallest part (all but the last part of a multipart upload). */
const MIN_PART = 5 * 1024 * 1024;

type S3Failure = { name?: string; code?: string; $metadata?: { httpStatusCode?: number } };
const statusOf = (e: unknown) => (e as S3Failure)?.$metadata?.httpStatusCode;
const isMissing = (e: unknown) => {
  const name = (e as S3Failure)?.name;
  return name === 'NoSuchKey' || name === 'NotFound' || (statusOf(e) === 404 && name !== 'NoSuchBucket');
};

/** The endpoint as it may be shown: no user info, no query. */
function safeEndpoint(endpoint?: string): string {
  if (!endpoint) return 'AWS S3';
  try {
    const u = new URL(endpoint);
    return `${u.protocol}//${u.host}${u.pathname === '/' ? '' : u.pathname}`;
  } catch {
    return 'адрес не разобран';
  }
}

/** Why HeadBucket failed, in Russian, without secrets. */
function whyUnreachable(e: unknown): string {
  const f = e as S3Failure & { message?: string; cause?: S3Failure };
  const status = statusOf(e);
  const net = f.code ?? f.cause?.code;
  if (f.name === 'CredentialsProviderError')
    return 'не найдены ключи доступа (AWS_ACCESS_KEY_ID и AWS_SECRET_ACCESS_KEY или профиль AWS)';
  if (f.name === 'TimeoutError' || f.name === 'AbortError') return 'сервер не ответил вовремя';
  if (net && /^E[A-Z_]+$/.test(net)) return `сервер не отвечает (${net})`;
  if (status === 404) return 'бакет не найден';
  if (status === 403) return 'доступ запрещён: проверьте ключи (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY) и права на бакет';
  if (status === 301 || status === 400)
    return `ответ ${status}: проверьте регион (AWS_REGION) и стиль адресов (S3_FORCE_PATH_STYLE)`;
  return `${f.name ?? 'ошибка'}${status ? ` (ответ ${status})` : ''}${f.message ? `: ${f.message}` : ''}`;
}

/**
 * The asked range out of what the server sent: some S3-compatible servers ignore Range (200 with the
 * whole object) or send more than asked; an empty object has no byte to start at.
 */
function fitServed(body: Readable, range: ByteRange, contentRange?: string, contentLength?: number): Readable {
  const m = contentRange ? /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(contentRange) : null;
  const from = m ? Number(m[1]) : 0;
  const to = m ? Number(m[2]) : (contentLength ?? 0) - 1;
  const total = m && m[3] !== '*' ? Number(m[3]) : m ? undefined : contentLength;
  const end = range.end ?? Number.POSITIVE_INFINITY;
  if ((total !== undefined && range.start >= total) || from > range.start) {
    body.destroy();
    throw rangeError();
  }
  if (from === range.start && to <= end) return body;
  return sliceStream(body, { start: range.start - from, end: end - from });
}

/** Counts the bytes that pass through. */
function counter(): Transform & { bytes: number } {
  const t = new Transform({
    transform(chunk: Buffer, _enc, done) {
      t.bytes += chunk.length;
      done(null, chunk);
    },
  }) as Transform & { bytes: number };
  t.bytes = 0;
  return t;
}

/**
 * An S3-compatible bucket. Puts stream through a multipart upload (`@aws-sdk/lib-storage`): at most
 * `queueSize × partSize` bytes are held in memory, and a failed stream aborts the upload, so no
 * object and no parts are kept.
 */
export function createS3DocStore(opts: S3StoreOptions): DocStore {
  const Bucket = opts.bucket;
  const config: S3ClientConfig = {
    endpoint: opts.endpoint,
    region: opts.region,
    forcePathStyle: opts.forcePathStyle ?? false,
    credentials: opts.credentials,
    requestHandler: { connectionTimeout: 10_000 },
  };
  // S3-compatible servers often reject the SDK's newer default checksums (CRC32 trailers on every
  // upload): send them only where the operation requires one, unless the environment says otherwise.
  if (opts.endpoint && !process.env.AWS_REQUEST_CHECKSUM_CALCULATION) config.requestChecksumCalculation = 'WHEN_REQUIRED';
  if (opts.endpoint && !process.env.AWS_RESPONSE_CHECKSUM_VALIDATION) config.responseChecksumValidation = 'WHEN_REQUIRED';
  const client = new S3Client(config);
  const keyOf = (key: string) => {
    if (!KEY.test(key)) throw notFoundError();
    return key;
  };

  const store: DocStore = {
    async put(stream) {
      const Key = newKey();
      const bytes = counter();
      let sourceError: unknown;
      stream.once('error', (e) => {
        sourceError ??= e;
      });
      pipelineCb(stream, bytes, () => undefined);
      const upload = new Upload({
        client,
        params: { Bucket, Key, Body: bytes },
        partSize: Math.max(opts.partSize ?? MIN_PART, MIN_PART),
        queueSize: opts.queueSize ?? 2,
        leavePartsOnError: false,
      });
      try {
        await upload.done();
      } catch (e) {
        bytes.destroy();
        // A single-request put may have landed before the failure was seen: leave nothing behind.
        await client.send(new DeleteObjectCommand({ Bucket, Key })).catch(() => undefined);
        // The input's own error (an upload refused mid-way, too large…) is what callers act upon.
        throw sourceError ?? e;
      }
      return { key: Key, size: bytes.bytes };
    },
    async get(key, range) {
      const Key = keyOf(key);
      if (range) fitRange(range, Number.MAX_SAFE_INTEGER); // malformed → ERANGE before asking
      try {
        const r = await client.send(
          new GetObjectCommand({
            Bucket,
            Key,
            Range: range ? `bytes=${range.start}-${range.end ?? ''}` : undefined,
          }),
        );
        const body = r.Body as Readable;
        if (!range) {
          opened.set(body, { size: r.ContentLength ?? 0, open: (rr) => store.get(key, rr) });
          return body;
        }
        return fitServed(body, range, r.ContentRange, r.ContentLength);
      } catch (e) {
        if (isMissing(e)) throw notFoundError();
        if ((e as S3Failure).name === 'InvalidRange' || statusOf(e) === 416) throw rangeError();
        throw e;
      }
    },
    async size(key) {
      try {
        const r = await client.send(new HeadObjectCommand({ Bucket, Key: keyOf(key) }));
        return r.ContentLength ?? 0;
      } catch (e) {
        if (isMissing(e)) throw notFoundError();
        throw e;
      }
    },
    async delete(key) {
      if (!KEY.test(key)) return;
      try {
        await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
      } catch (e) {
        if (!isMissing(e)) throw e;
      }
    },
    async check() {
      try {
        await client.send(new HeadBucketCommand({ Bucket }), { abortSignal: AbortSignal.timeout(15_000) });
      } catch (e) {
        throw new Error(`Хранилище S3 недоступно (бакет «${Bucket}», ${safeEndpoint(opts.endpoint)}): ${whyUnreachable(e)}`);
      }
    },
    close() {
      client.destroy();
    },
  };
  return store;
}

/** The store the configuration names: the S3 bucket when S3_BUCKET is set, else local disk (DATA_DIR/files). */
export function createDocStore(config: Pick<Config, 'dataDir' | 's3'>): DocStore {
  if (config.s3) return createS3DocStore(config.s3);
  return createLocalDocStore(path.join(config.dataDir, 'files'));
}
