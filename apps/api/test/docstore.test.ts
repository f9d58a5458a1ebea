/*
 * The DocStore contract, run against both stores: local disk and an S3 bucket on a real
 * S3-protocol server (s3-server.ts). Same keys, sizes, ranges, errors and clean-up on failure.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import {
  type ByteRange,
  createDocStore,
  createLocalDocStore,
  createS3DocStore,
  type DocStore,
  openRange,
  storedSize,
} from '../src/lib/docstore';
import { S3_KEYS, startS3, type TestS3 } from './s3-server';

const MiB = 1024 * 1024;
const PART = 5 * MiB;
const KEY = /^[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{32}$/;
/** Bigger than two multipart parts and not a multiple of one: three parts, the last one short. */
const DATA = randomBytes(2 * PART + 1234567);

/** `data` as a stream of 64 KiB chunks; `failAt` bytes in, it fails instead. */
function streamOf(data: Buffer, failAt?: number): Readable {
  let pos = 0;
  return new Readable({
    read() {
      if (failAt !== undefined && pos >= failAt) {
        this.destroy(new Error('источник оборвался'));
        return;
      }
      if (pos >= data.length) {
        this.push(null);
        return;
      }
      const n = Math.min(64 * 1024, data.length - pos, failAt === undefined ? Number.POSITIVE_INFINITY : failAt - pos);
      this.push(data.subarray(pos, pos + n));
      pos += n;
    },
  });
}

async function bytesOf(s: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of s) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

function filesUnder(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true, recursive: true })
      .filter((e) => e.isFile())
      .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
      .sort();
  } catch {
    return [];
  }
}

interface Backend {
  store: DocStore;
  /** What the store holds, as its own listing shows it (files under the folder / objects in the bucket). */
  contents(): Promise<string[]>;
  /** Requests the store sent (S3 only). */
  requests?: string[];
  close(): Promise<void>;
}

const backends: [string, () => Promise<Backend>][] = [
  [
    'local disk',
    async () => {
      const root = mkdtempSync(path.join(tmpdir(), 'forpost-files-'));
      return {
        store: createLocalDocStore(root),
        contents: async () => filesUnder(root),
        close: async () => rmSync(root, { recursive: true, force: true }),
      };
    },
  ],
  [
    'S3',
    async () => {
      const s3 = await startS3();
      const store = createDocStore(loadConfig({ DATA_DIR: mkdtempSync(path.join(tmpdir(), 'forpost-')), ...s3.env }));
      return {
        store,
        contents: () => s3.keys(),
        requests: s3.requests,
        close: async () => {
          store.close?.();
          await s3.close();
        },
      };
    },
  ],
];

describe.each(backends)('DocStore on %s', (_name, make) => {
  let b: Backend;
  let big: { key: string; size: number };
  beforeAll(async () => {
    b = await make();
    await b.store.check();
    big = await b.store.put(streamOf(DATA));
  });
  afterAll(async () => b.close());

  it('stores a multi-part stream under an opaque key, with its size, and gives the same bytes back', async () => {
    expect(big.key).toMatch(KEY);
    expect(big.size).toBe(DATA.length);
    expect(await b.store.size(big.key)).toBe(DATA.length);
    const back = await bytesOf(await b.store.get(big.key));
    expect(back.length).toBe(DATA.length);
    expect(sha(back)).toBe(sha(DATA));
    expect(await b.contents()).toContain(big.key);
    if (b.requests) {
      // A streamed multipart upload: three parts, never one request with the whole body.
      expect(b.requests.filter((r) => r.startsWith('POST ') && r.includes('?uploads'))).toHaveLength(1);
      expect(b.requests.filter((r) => r.startsWith('PUT ') && r.includes('partNumber='))).toHaveLength(3);
    }
  });

  it('keys are new for every put; an empty stream is an empty file', async () => {
    const a = await b.store.put(Readable.from([Buffer.from('один')]));
    const c = await b.store.put(Readable.from([Buffer.from('один')]));
    expect(a.key).not.toBe(c.key);
    expect(a.size).toBe(Buffer.byteLength('один'));
    const empty = await b.store.put(Readable.from([]));
    expect(empty.size).toBe(0);
    expect(await b.store.size(empty.key)).toBe(0);
    expect((await bytesOf(await b.store.get(empty.key))).length).toBe(0);
    await expect(b.store.get(empty.key, { start: 0 })).rejects.toMatchObject({ code: 'ERANGE' });
    for (const k of [a.key, c.key, empty.key]) await b.store.delete(k);
  });

  it('reads byte ranges, across part boundaries and cut at the end of the file', async () => {
    const cases: [ByteRange, number, number][] = [
      [{ start: 0, end: 0 }, 0, 1],
      [{ start: 5, end: 9 }, 5, 10],
      [{ start: PART - 3, end: PART + 3 }, PART - 3, PART + 4],
      [{ start: DATA.length - 10 }, DATA.length - 10, DATA.length],
      [{ start: DATA.length - 2, end: DATA.length + 1000 }, DATA.length - 2, DATA.length],
      [{ start: 1234, end: 1234 + 3 * MiB }, 1234, 1234 + 3 * MiB + 1],
    ];
    for (const [range, from, to] of cases) {
      const got = await bytesOf(await b.store.get(big.key, range));
      expect(got.equals(DATA.subarray(from, to)), JSON.stringify(range)).toBe(true);
    }
    await expect(b.store.get(big.key, { start: DATA.length })).rejects.toMatchObject({ code: 'ERANGE' });
    await expect(b.store.get(big.key, { start: 10, end: 9 })).rejects.toMatchObject({ code: 'ERANGE' });
    await expect(b.store.get(big.key, { start: -1 })).rejects.toMatchObject({ code: 'ERANGE' });
  });

  it('a whole-file stream knows its size and reopens as a range without reading the skipped bytes', async () => {
    const whole = await b.store.get(big.key);
    expect(storedSize(whole)).toBe(DATA.length);
    const part = await openRange(whole, { start: 2 * PART + 10, end: 2 * PART + 19 });
    expect(whole.destroyed).toBe(true);
    expect((await bytesOf(part)).equals(DATA.subarray(2 * PART + 10, 2 * PART + 20))).toBe(true);
    // Any other stream is cut to the range as it is read.
    const cut = await openRange(Readable.from([DATA.subarray(0, 100), DATA.subarray(100, 300)]), { start: 90, end: 109 });
    expect((await bytesOf(cut)).equals(DATA.subarray(90, 110))).toBe(true);
  });

  it('an unknown key is ENOENT; delete is idempotent', async () => {
    const unknown = `${'ab'}/${'cd'}/${'0'.repeat(32)}`;
    await expect(b.store.get(unknown)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(b.store.get(unknown, { start: 0, end: 1 })).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(b.store.size(unknown)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(b.store.delete(unknown)).resolves.toBeUndefined();

    const x = await b.store.put(Readable.from([Buffer.from('удалить')]));
    await b.store.delete(x.key);
    await b.store.delete(x.key);
    await expect(b.store.get(x.key)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await b.contents()).not.toContain(x.key);
  });

  it('a failing input stream leaves nothing behind (the multipart upload is aborted) and its own error comes out', async () => {
    const before = await b.contents();
    const sent = b.requests?.length ?? 0;
    // After the first part went up…
    await expect(b.store.put(streamOf(DATA, PART + 2 * MiB))).rejects.toThrow('источник оборвался');
    // …and before anything did.
    await expect(b.store.put(streamOf(DATA, 1000))).rejects.toThrow('источник оборвался');
    expect(await b.contents()).toEqual(before);
    if (b.requests) {
      const mine = b.requests.slice(sent);
      const upload = mine
        .find((r) => r.includes('?uploads'))
        ?.split(' ')[1]
        ?.split('?')[0];
      expect(mine.some((r) => r.startsWith('PUT ') && r.includes('partNumber=1&'))).toBe(true);
      expect(mine.some((r) => r.startsWith(`DELETE ${upload}?uploadId=`))).toBe(true);
      expect(mine.some((r) => r.includes('CompleteMultipartUpload'))).toBe(false);
    }
  });

  it('refuses keys that are not its own', async () => {
    const canary = await b.store.put(Readable.from([Buffer.from('канарейка')]));
    const bad = [
      '',
      '../../etc/passwd',
      `ab/cd/../../${canary.key}`,
      `/${canary.key}`,
      `${canary.key}/`,
      canary.key.toUpperCase(),
      `${canary.key.slice(0, -1)}g`,
      `${canary.key}.part`,
      canary.key.replaceAll('/', '\\'),
    ];
    for (const key of bad) {
      await expect(b.store.get(key), key).rejects.toMatchObject({ code: 'ENOENT' });
      await expect(b.store.size(key), key).rejects.toMatchObject({ code: 'ENOENT' });
      await expect(b.store.delete(key), key).resolves.toBeUndefined();
    }
    expect((await bytesOf(await b.store.get(canary.key))).toString()).toBe('канарейка');
    await b.store.delete(canary.key);
  });
});

describe('choosing and checking the store', () => {
  let s3: TestS3;
  beforeAll(async () => {
    s3 = await startS3('forpost-check');
  });
  afterAll(async () => s3?.close());
  const dataDir = () => mkdtempSync(path.join(tmpdir(), 'forpost-'));

  it('local disk unless S3_BUCKET is set', async () => {
    const dir = dataDir();
    const local = createDocStore(loadConfig({ DATA_DIR: dir }));
    await local.check();
    const { key } = await local.put(Readable.from([Buffer.from('x')]));
    expect(filesUnder(path.join(dir, 'files'))).toEqual([key]);
    const remote = createDocStore(loadConfig({ DATA_DIR: dir, ...s3.env }));
    await remote.check();
    const r = await remote.put(Readable.from([Buffer.from('y')]));
    expect(await s3.keys()).toEqual([r.key]);
    expect(filesUnder(path.join(dir, 'files'))).toEqual([key]);
    remote.close?.();
  });

  it('reads the AWS SDK variables; AWS_ENDPOINT_URL_S3 wins over AWS_ENDPOINT_URL; the region defaults for other servers', () => {
    const c = loadConfig({
      DATA_DIR: dataDir(),
      S3_BUCKET: 'b',
      AWS_ENDPOINT_URL: 'http://general:9000',
      AWS_ENDPOINT_URL_S3: 'http://s3only:9000',
      AWS_ACCESS_KEY_ID: 'id',
      AWS_SECRET_ACCESS_KEY: 'secret',
      S3_FORCE_PATH_STYLE: 'true',
    });
    expect(c.s3).toEqual({
      bucket: 'b',
      endpoint: 'http://s3only:9000',
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'id', secretAccessKey: 'secret' },
    });
    expect(loadConfig({ DATA_DIR: dataDir(), S3_BUCKET: 'b', AWS_ENDPOINT_URL: 'http://g:1' }).s3?.endpoint).toBe('http://g:1');
    // AWS itself: region and keys from the SDK's own lookup.
    expect(loadConfig({ DATA_DIR: dataDir(), S3_BUCKET: 'b' }).s3).toEqual({ bucket: 'b', forcePathStyle: false });
    expect(loadConfig({ DATA_DIR: dataDir() }).s3).toBeUndefined();
    expect(() => loadConfig({ DATA_DIR: dataDir(), S3_BUCKET: 'b', AWS_ACCESS_KEY_ID: 'id' })).toThrow(/задаются вместе/);
    expect(() => loadConfig({ DATA_DIR: dataDir(), S3_BUCKET: 'b', AWS_ENDPOINT_URL_S3: 'minio:9000' })).toThrow(
      /AWS_ENDPOINT_URL_S3: нужен адрес/,
    );
  });

  it('an unusable bucket stops the start with a Russian reason, never the secret key', async () => {
    const secret = 'очень-секретный-ключ-123';
    const store = (env: Record<string, string>) =>
      createDocStore(loadConfig({ DATA_DIR: dataDir(), ...s3.env, AWS_SECRET_ACCESS_KEY: secret, ...env }));
    const reasons: string[] = [];
    const fail = async (env: Record<string, string>, pattern: RegExp) => {
      const s = store(env);
      const e = (await s.check().then(
        () => undefined,
        (x: Error) => x,
      )) as Error;
      s.close?.();
      expect(e?.message).toMatch(pattern);
      reasons.push(e.message);
    };
    await fail(
      { S3_BUCKET: 'no-such-bucket' },
      /^Хранилище S3 недоступно \(бакет «no-such-bucket», http:\/\/127\.0\.0\.1:\d+\): бакет не найден$/,
    );
    await fail({ AWS_ACCESS_KEY_ID: 'UNKNOWNKEYID' }, /^Хранилище S3 недоступно .*: доступ запрещён/);
    const closed = await new Promise<number>((resolve) => {
      const srv = createServer().listen(0, '127.0.0.1', () => {
        const port = (srv.address() as { port: number }).port;
        srv.close(() => resolve(port));
      });
    });
    await fail(
      { AWS_ENDPOINT_URL_S3: `http://user:pw@127.0.0.1:${closed}` },
      /^Хранилище S3 недоступно .*: сервер не отвечает \(ECONNREFUSED\)$/,
    );
    for (const r of reasons) {
      expect(r).not.toContain(secret);
      expect(r).not.toContain('pw@');
    }
  });

  it('the S3 store refuses a part size under S3’s minimum (5 MiB)', async () => {
    const s = createS3DocStore({
      bucket: s3.bucket,
      endpoint: s3.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: S3_KEYS,
      partSize: 1024,
    });
    const sent = s3.requests.length;
    const { key, size } = await s.put(streamOf(DATA.subarray(0, 6 * MiB)));
    expect(size).toBe(6 * MiB);
    // 6 MiB in parts of at least 5 MiB: two parts.
    expect(s3.requests.slice(sent).filter((r) => r.includes('partNumber='))).toHaveLength(2);
    await s.delete(key);
    s.close?.();
  });
});

// A file named like a key outside the root is never reached (local disk: no path leaves the folder).
it('local disk: no key reaches outside its folder', async () => {
  const parent = mkdtempSync(path.join(tmpdir(), 'forpost-outside-'));
  const root = path.join(parent, 'files');
  writeFileSync(path.join(parent, 'secret'), 'не трогать');
  const s = createLocalDocStore(root);
  await expect(s.get('../secret')).rejects.toMatchObject({ code: 'ENOENT' });
  await s.delete('../secret');
  expect(filesUnder(parent)).toEqual(['secret']);
  rmSync(parent, { recursive: true, force: true });
});
