import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { XLSX_MAX_ENTRIES, XLSX_MAX_RATIO } from '@forpost/contract/imports';
import { Decompress } from 'fzstd';
import yauzl from 'yauzl';
import { type HuntMatcher, MAX_LINE, type ScanStats } from './matcher';
import { PREFILTER_MIN_BYTES, PrefilterScan, prefilterAvailable, prefilterPatterns, prefilterSetting } from './prefilter';

/**
 * A dump's bytes into the matcher (#34): the container is recognised by its first bytes (gzip, zstd, zip of
 * one text file, plain text), decompressed as a stream, and checked at its start (UTF-16 and binary files are
 * refused, not scanned as garbage). Limits of the XLSX checks apply to archives: an inflation ratio above
 * XLSX_MAX_RATIO past the first 16 MB is an archive bomb; a zip with more than XLSX_MAX_ENTRIES entries, or
 * encrypted, is refused before a byte is inflated. Every refusal is a HuntInputError with a Russian message.
 */

export const HUNT_INPUT_MSG = {
  utf16: 'Дамп в кодировке UTF-16: сохраните его в UTF-8 или Windows-1251 и загрузите снова',
  binary: 'Файл не похож на текстовый дамп: в нём двоичные данные',
  truncated: 'Архив обрывается: файл загружен не полностью или повреждён',
  corrupt: 'Архив повреждён: распаковать его не удалось',
  bomb: 'Архив распаковывается в слишком большой объём относительно своего размера (похоже на «архивную бомбу»)',
  zipEntries: 'В ZIP-архиве должен быть один текстовый файл дампа',
  zipEncrypted: 'ZIP-архив зашифрован: загрузите его без пароля',
  zipStream: 'ZIP читается только из загруженного файла; для объекта хранилища сожмите дамп в .gz или .zst',
} as const;
export type HuntInputCode = keyof typeof HUNT_INPUT_MSG;

export class HuntInputError extends Error {
  constructor(readonly code: HuntInputCode) {
    super(HUNT_INPUT_MSG[code]);
  }
}

const BOMB_FLOOR = 16 * 1024 * 1024;

export type Container = 'text' | 'gzip' | 'zstd' | 'zip';
export function containerOf(head: Uint8Array): Container {
  if (head[0] === 0x1f && head[1] === 0x8b) return 'gzip';
  if (head[0] === 0x28 && head[1] === 0xb5 && head[2] === 0x2f && head[3] === 0xfd) return 'zstd';
  if (head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04) return 'zip';
  return 'text';
}

/** Refuses UTF-16 and binary text at the start of the decompressed stream. */
export function checkText(head: Uint8Array): void {
  if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff)) throw new HuntInputError('utf16');
  const n = Math.min(head.length, 64 * 1024);
  let nulEven = 0;
  let nulOdd = 0;
  let ctrl = 0;
  for (let i = 0; i < n; i++) {
    const c = head[i]!;
    if (c === 0) {
      if (i & 1) nulOdd++;
      else nulEven++;
    } else if (c < 9 || (c > 13 && c < 32 && c !== 27)) ctrl++;
  }
  // UTF-16 without a BOM: a NUL in every other byte of ASCII text
  if (n >= 16 && (nulOdd > n * 0.3 || nulEven > n * 0.3) && Math.min(nulOdd, nulEven) < n * 0.02)
    throw new HuntInputError('utf16');
  if (nulOdd + nulEven > 0 || ctrl > n * 0.05) throw new HuntInputError('binary');
}

export interface ScanOptions {
  /** Called after every chunk with the compressed bytes read so far. */
  onProgress?: (bytesIn: number, stats: ScanStats) => void | Promise<void>;
  /**
   * `parse`: every line through the matcher; `grep`: the grep prefilter (prefilter.ts) whatever the size;
   * `auto` (default): the prefilter from PREFILTER_MIN_BYTES stored bytes on when GNU grep is there.
   */
  engine?: 'auto' | 'parse' | 'grep';
  /** Stored bytes of the dump (or the range), for `auto`. */
  size?: number;
  /** With the prefilter: one window of full parse (for the unrecognised lines) in this many bytes. */
  sampleEvery?: number;
}

/** The prefilter's patterns when this scan uses it, else null (full parse). */
function prefilterFor(matcher: HuntMatcher, opts: ScanOptions, bytes: number): string[] | null {
  const engine = opts.engine ?? 'auto';
  if (engine === 'parse') return null;
  if (!prefilterAvailable()) {
    if (engine === 'grep') throw new Error('GNU grep is not available for the hunt prefilter');
    return null;
  }
  if (engine === 'auto' && bytes < PREFILTER_MIN_BYTES && prefilterSetting() !== 'always') return null;
  return prefilterPatterns(matcher.companies);
}

/** Scans a stream of the dump's stored bytes (any container but zip). */
export async function scanStream(
  source: AsyncIterable<Uint8Array>,
  matcher: HuntMatcher,
  opts: ScanOptions = {},
): Promise<ScanStats> {
  const it = source[Symbol.asyncIterator]();
  const first = await it.next();
  if (first.done) return matcher.end();
  const head = first.value as Uint8Array;
  const container = containerOf(head);
  if (container === 'zip') throw new HuntInputError('zipStream');
  let bytesIn = 0;
  async function* raw(): AsyncGenerator<Uint8Array> {
    bytesIn += head.length;
    yield head;
    for (;;) {
      const r = await it.next();
      if (r.done) return;
      bytesIn += r.value.length;
      yield r.value;
    }
  }
  const decoded = container === 'gzip' ? gunzip(raw()) : container === 'zstd' ? unzstd(raw()) : raw();
  return pump(decoded, matcher, container !== 'text', () => bytesIn, opts);
}

/** Scans a dump file on disk (zip needs random access: it is read only this way). */
export async function scanFile(path: string, matcher: HuntMatcher, opts: ScanOptions = {}): Promise<ScanStats> {
  const fd = createReadStream(path, { start: 0, end: 3 });
  let head = Buffer.alloc(0);
  for await (const c of fd) head = Buffer.concat([head, c as Buffer]);
  const size = opts.size ?? (await stat(path)).size;
  const container = containerOf(head);
  if (container === 'text') {
    const patterns = prefilterFor(matcher, opts, size);
    if (patterns) {
      // grep reads the file itself; the start is checked here as the stream's first chunk would be
      let start = Buffer.alloc(0);
      for await (const c of createReadStream(path, { start: 0, end: Math.min(size, 64 * 1024) - 1 }))
        start = Buffer.concat([start, c as Buffer]);
      if (start.length) checkText(start);
      matcher.stats.bytes = size;
      return PrefilterScan.file(matcher, patterns, path, size, { sampleEvery: opts.sampleEvery, onProgress: opts.onProgress });
    }
  }
  if (container !== 'zip') return scanStream(createReadStream(path, { highWaterMark: 1 << 20 }), matcher, { ...opts, size });
  const { stream, compressed } = await openZipEntry(path);
  let bytesIn = 0;
  async function* counted(): AsyncGenerator<Uint8Array> {
    try {
      for await (const c of stream) {
        bytesIn = compressed; // yauzl inflates; the entry's compressed size bounds what was read
        yield c as Uint8Array;
      }
    } catch (e) {
      if (e instanceof HuntInputError) throw e;
      throw new HuntInputError(/too (few|many)|end|unexpected/i.test(String((e as Error).message)) ? 'truncated' : 'corrupt');
    }
  }
  return pump(counted(), matcher, true, () => bytesIn, { ...opts, size });
}

async function pump(
  decoded: AsyncIterable<Uint8Array>,
  matcher: HuntMatcher,
  archive: boolean,
  bytesIn: () => number,
  opts: ScanOptions,
): Promise<ScanStats> {
  let out = 0;
  let checked = false;
  const patterns = prefilterFor(matcher, opts, opts.size ?? Number.POSITIVE_INFINITY);
  const pre = patterns
    ? new PrefilterScan(matcher, patterns, {
        firstOwned: 0,
        end: Number.POSITIVE_INFINITY,
        skipOrphans: false,
        sampleEvery: opts.sampleEvery,
      })
    : null;
  try {
    for await (const c of decoded) {
      const chunk = Buffer.isBuffer(c) ? c : Buffer.from(c.buffer, c.byteOffset, c.length);
      if (!checked) {
        checkText(chunk);
        checked = true;
      }
      out += chunk.length;
      if (archive && out > BOMB_FLOOR && out > XLSX_MAX_RATIO * Math.max(bytesIn(), 1)) throw new HuntInputError('bomb');
      if (pre) {
        await pre.write(chunk);
        pre.publish();
      } else matcher.feed(chunk);
      if (opts.onProgress) await opts.onProgress(bytesIn(), matcher.stats);
    }
  } catch (e) {
    pre?.abort();
    throw e;
  }
  return pre ? pre.close() : matcher.end();
}

async function* gunzip(src: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const z = createGunzip({ chunkSize: 1 << 20 });
  const input = Readable.from(src, { objectMode: false });
  input.on('error', (e) => z.destroy(e));
  input.pipe(z);
  try {
    for await (const c of z) yield c as Buffer;
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === 'Z_BUF_ERROR' || /unexpected end/i.test(String((e as Error).message))) throw new HuntInputError('truncated');
    if (code === 'Z_DATA_ERROR') throw new HuntInputError('corrupt');
    throw e;
  } finally {
    input.destroy();
  }
}

async function* unzstd(src: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const queue: Uint8Array[] = [];
  let finished = false;
  const d = new Decompress((chunk, final) => {
    queue.push(chunk);
    if (final) finished = true;
  });
  try {
    for await (const c of src) {
      d.push(c);
      while (queue.length) yield queue.shift()!;
    }
  } catch (e) {
    if (e instanceof HuntInputError) throw e;
    throw new HuntInputError('corrupt');
  }
  try {
    d.push(new Uint8Array(0), true);
  } catch {
    throw new HuntInputError('truncated'); // the frame wanted more bytes than the file has
  }
  while (queue.length) yield queue.shift()!;
  if (!finished) throw new HuntInputError('truncated');
}

function openZipEntry(path: string): Promise<{ stream: Readable; compressed: number }> {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true, autoClose: true }, (err, zf) => {
      if (err || !zf) {
        reject(
          /end of central directory/i.test(String(err?.message))
            ? new HuntInputError('truncated')
            : new HuntInputError('corrupt'),
        );
        return;
      }
      if (zf.entryCount > XLSX_MAX_ENTRIES) {
        zf.close();
        reject(new HuntInputError('zipEntries'));
        return;
      }
      zf.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName.endsWith('/')) {
          zf.readEntry();
          return;
        }
        if (entry.isEncrypted()) {
          zf.close();
          reject(new HuntInputError('zipEncrypted'));
          return;
        }
        if (entry.uncompressedSize > BOMB_FLOOR && entry.uncompressedSize > XLSX_MAX_RATIO * Math.max(entry.compressedSize, 1)) {
          zf.close();
          reject(new HuntInputError('bomb'));
          return;
        }
        zf.openReadStream(entry, (e2, stream) => {
          if (e2 || !stream) reject(new HuntInputError('corrupt'));
          else {
            stream.on('error', () => undefined);
            resolve({ stream, compressed: entry.compressedSize });
          }
        });
      });
      zf.on('end', () => reject(new HuntInputError('zipEntries')));
      zf.on('error', () => reject(new HuntInputError('corrupt')));
      zf.readEntry();
    });
  });
}

/** Reads stored bytes [start, end] (inclusive, as DocStore.get with a range). */
export type RangeOpen = (start: number, end: number) => Promise<AsyncIterable<Uint8Array>>;

/**
 * Splits a plain-text dump of `size` bytes into `parts` byte ranges for separate jobs. Each range owns the
 * lines that start inside it; `scanRange` finds the line boundaries itself, so the cut points are plain offsets.
 */
export function splitRanges(size: number, parts: number): { start: number; end: number }[] {
  const n = Math.max(1, Math.min(parts, Math.ceil(size / (1024 * 1024))));
  const step = Math.ceil(size / n);
  const out: { start: number; end: number }[] = [];
  for (let s = 0; s < size; s += step) out.push({ start: s, end: Math.min(size, s + step) });
  return out;
}

/**
 * Scans the lines that start in [start, end) of a plain-text dump: skips the tail of the line begun before
 * `start`, reads past `end` to finish the last line, and past it while a stealer-log block begun in the range
 * has its continuation lines (the next range skips those: `skipOrphans`). So every line and every block is
 * read by exactly one range, whatever the cut points. Reads at most MAX_LINE + 64 KB past `end`.
 */
export async function scanRange(
  open: RangeOpen,
  range: { start: number; end: number },
  size: number,
  matcher: HuntMatcher,
  opts: ScanOptions = {},
): Promise<ScanStats> {
  const { start, end } = range;
  const from = start > 0 ? start - 1 : 0;
  const to = Math.min(size, end + MAX_LINE + 64 * 1024) - 1;
  if (from > to) return matcher.end();
  const patterns = prefilterFor(matcher, opts, end - start);
  if (patterns) return scanRangePrefiltered(open, { start, end, from, to }, matcher, patterns, opts);
  matcher.skipOrphans = start > 0;
  let phase = start > 0 ? 0 : 1; // 0 skip the first partial line, 1 body, 2 finish the last line, 3 block tail, 4 done
  let pos = from;
  let pending: Buffer | null = null;
  let prevLast = -1;
  for await (const c of await open(from, to)) {
    let chunk: Buffer = Buffer.isBuffer(c) ? c : Buffer.from(c.buffer, c.byteOffset, c.length);
    const base = pos;
    pos += chunk.length;
    const prev = prevLast;
    prevLast = chunk.length > 0 ? chunk[chunk.length - 1]! : prevLast;
    let off = 0;
    if (phase === 0) {
      const nl = chunk.indexOf(10);
      if (nl < 0) continue;
      off = nl + 1;
      phase = 1;
      if (base + off >= end) phase = 4;
    }
    if (phase === 1) {
      const lim = end - base;
      if (lim >= chunk.length) {
        matcher.feed(chunk.subarray(off));
        if (opts.onProgress) await opts.onProgress(pos - from, matcher.stats);
        continue;
      }
      // the range's last line is the one holding byte end - 1; when that byte ended the previous chunk and is
      // a newline, the range was complete before this chunk
      if (lim > 0 || prev !== 10) {
        const nl = chunk.indexOf(10, Math.max(off, lim - 1));
        if (nl < 0) {
          matcher.feed(chunk.subarray(off));
          phase = 2;
          continue;
        }
        matcher.feed(chunk.subarray(off, nl + 1));
        off = nl + 1;
      }
      phase = 3;
    }
    if (phase === 2) {
      const nl = chunk.indexOf(10, off);
      if (nl < 0) {
        matcher.feed(chunk.subarray(off));
        continue;
      }
      matcher.feed(chunk.subarray(off, nl + 1));
      off = nl + 1;
      phase = 3;
    }
    if (phase === 3) {
      if (pending) {
        chunk = Buffer.concat([pending, chunk.subarray(off)]);
        off = 0;
        pending = null;
      }
      while (matcher.inBlock) {
        const nl = chunk.indexOf(10, off);
        if (nl < 0) {
          pending = Buffer.from(chunk.subarray(off));
          break;
        }
        if (!matcher.isContinuation(chunk, off, nl)) {
          phase = 4;
          break;
        }
        matcher.feed(chunk.subarray(off, nl + 1));
        off = nl + 1;
      }
      if (!matcher.inBlock) phase = 4;
    }
    if (phase === 4) break;
  }
  if (pending && matcher.inBlock && matcher.isContinuation(pending, 0, pending.length)) matcher.feed(pending);
  if (opts.onProgress) await opts.onProgress(pos - from, matcher.stats);
  return matcher.end();
}

/**
 * scanRange through the grep prefilter: the same lines are the range's (those starting in [start, end), and the
 * continuation lines past `end` of a block begun before it), but grep reads all of [start - 1, to] and the
 * prefilter decides by each line's offset (PrefilterScan.candidate).
 */
async function scanRangePrefiltered(
  open: RangeOpen,
  r: { start: number; end: number; from: number; to: number },
  matcher: HuntMatcher,
  patterns: string[],
  opts: ScanOptions,
): Promise<ScanStats> {
  let pos = r.from;
  let firstOwned = r.start > 0 ? -1 : 0;
  let pre: PrefilterScan | null = null;
  try {
    for await (const c of await open(r.from, r.to)) {
      const chunk: Buffer = Buffer.isBuffer(c) ? c : Buffer.from(c.buffer, c.byteOffset, c.length);
      const base = pos;
      pos += chunk.length;
      let off = 0;
      if (firstOwned < 0) {
        // the line begun before the range is the range before's
        const nl = chunk.indexOf(10);
        if (nl < 0) continue;
        firstOwned = base + nl + 1;
        off = nl + 1;
      }
      pre ??= new PrefilterScan(matcher, patterns, {
        firstOwned,
        end: r.end,
        skipOrphans: r.start > 0,
        sampleEvery: opts.sampleEvery,
      });
      if (off < chunk.length) await pre.write(off ? chunk.subarray(off) : chunk);
      pre.publish();
      if (opts.onProgress) await opts.onProgress(pos - r.from, matcher.stats);
    }
  } catch (e) {
    pre?.abort();
    throw e;
  }
  return pre ? pre.close() : matcher.end();
}
