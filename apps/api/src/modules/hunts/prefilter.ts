import { type ChildProcessByStdio, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { domainToUnicode } from 'node:url';
import { type CompanyIdentities, foldHost, HuntMatcher, MAX_LINE, providerDomains, type ScanStats } from './matcher';

/**
 * The grep prefilter of a hunt (#34). The matcher parses every line it is given at ≈ 130 MB/s per core; GNU grep
 * finds fixed strings at 1.5–2.4 GB/s (Aho–Corasick/Commentz–Walter over bytes). In a real dump 99.9 % of the
 * lines belong to nobody, so the dump's bytes go through `grep -F -i` with every string a matching line must
 * contain, and the matcher parses only what grep returns — with CONTEXT lines around each hit, so a stealer-log
 * block (`URL:`/`Username:`/`Password:` on separate lines) reaches it whole whichever of its lines holds the
 * company's name. The matcher's rules decide, as on the full parse: grep only narrows the lines it looks at.
 *
 * What a line must contain to be able to match (`prefilterPatterns`): the distinctive label of a company domain
 * (as punycode, and as Unicode in lower, upper and capitalised case), an exact login (the same cases when not
 * ASCII), the longest literal run of a login format (`corp-*` → `corp-`), and for companies that fold `+tags` at
 * public providers, the provider's domains. A login format without a literal run of 3 characters (`##########`)
 * has no such string: a hunt with one is parsed in full.
 *
 * The rest of the counters come from the Node side: every line is counted (newlines of the bytes the range owns),
 * and one window of SAMPLE_BYTES in every SAMPLE_EVERY bytes is parsed in full by a second matcher that only
 * counts, so `unrecognized` is that sample's share of the lines and `parsed` says how many lines it rests on.
 */

/** Lines of context before and after a hit: a stealer-log block longer than that is read as separate lines. */
export const CONTEXT = 8;
/** A hunt whose bytes are fewer than this is parsed in full (the sample would be all of it anyway). */
export const PREFILTER_MIN_BYTES = 4 * 1024 * 1024;
export const SAMPLE_BYTES = 512 * 1024;
export const SAMPLE_EVERY = 64 * 1024 * 1024;

/** HUNT_PREFILTER: `auto` (default) from PREFILTER_MIN_BYTES on, `always` whatever the size, `off` never. */
export function prefilterSetting(): 'auto' | 'always' | 'off' {
  const v = process.env.HUNT_PREFILTER;
  return v === 'off' || v === 'always' ? v : 'auto';
}

let gnuGrep: boolean | undefined;
/** GNU grep on PATH, unless HUNT_PREFILTER=off. */
export function prefilterAvailable(): boolean {
  if (prefilterSetting() === 'off') return false;
  if (gnuGrep === undefined) {
    try {
      gnuGrep = /GNU grep/.test(execFileSync('grep', ['-V'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
    } catch {
      gnuGrep = false;
    }
  }
  return gnuGrep;
}

const NON_ASCII = /[^ -~\t]/; // anything but printable ASCII
const NEWLINE = Buffer.from('\n');
const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The longest label of a host but its last (the rightmost of equals): `mail.sber.ru` → `sber`. */
export function distinctLabel(host: string): string {
  const labels = host.split('.');
  if (labels.length === 1) return host;
  let best = labels[0]!;
  for (const l of labels.slice(1, -1)) if (l.length >= best.length) best = l;
  return best;
}

const LOOKAHEAD = /^\(\?=\.\{1,\d+\}\$\)/;
/**
 * The longest run of literal characters (≥ 3) of a login format as `loginPatternRegex` writes it (`.*`, `.`,
 * `\d`, escaped `.+-`, letters and digits), which every login it matches holds; null for any other regular
 * expression or a format without such a run (`##########`): those need every line parsed.
 */
export function patternLiteral(re: string): string | null {
  const src = re.replace(LOOKAHEAD, '');
  let best = '';
  let run = '';
  const cut = () => {
    if (run.length > best.length) best = run;
    run = '';
  };
  for (let i = 0; i < src.length; i++) {
    const ch = src[i]!;
    if (ch === '.' && src[i + 1] === '*') {
      cut();
      i++;
    } else if (ch === '.') cut();
    else if (ch === '\\') {
      const nx = src[i + 1];
      if (nx === 'd') cut();
      else if (nx === '.' || nx === '+' || nx === '-') run += nx;
      else return null;
      i++;
    } else if (/[\p{L}\p{N}_@]/u.test(ch)) run += ch;
    else return null;
  }
  cut();
  return best.length >= 3 ? best : null;
}

/** Strings one of which every line that can match holds (case-insensitively for ASCII); null: none exists. */
export function prefilterPatterns(companies: CompanyIdentities[]): string[] | null {
  const out = new Set<string>();
  const unicode = (s: string) => {
    const l = s.toLowerCase();
    out.add(l);
    out.add(s.toUpperCase());
    out.add(capital(l));
  };
  for (const c of companies) {
    for (const p of c.patterns ?? []) {
      if (!p.trim()) continue;
      const lit = patternLiteral(p);
      if (!lit) return null;
      if (NON_ASCII.test(lit)) unicode(lit);
      else out.add(lit.toLowerCase());
    }
    for (const d of c.domains) {
      const host = foldHost(d);
      if (!host) continue;
      // the domain's distinctive label, not the domain: it is in an email, a URL host and an Android package
      // (`ru.sber.online`) alike, and patterns sharing a common start (`ru.`, `com.`) would make grep 4× slower
      out.add(distinctLabel(host));
      if (host.includes('xn--')) unicode(distinctLabel(domainToUnicode(host)));
    }
    for (const raw of c.logins ?? []) {
      const l = raw.trim();
      if (!l) continue;
      if (NON_ASCII.test(l)) unicode(l);
      else out.add(l.toLowerCase());
      const at = l.lastIndexOf('@');
      if (at <= 0) continue;
      const host = foldHost(l.slice(at + 1));
      if (host && host !== l.slice(at + 1).toLowerCase()) {
        // an IDN email: its punycode form, and its domain's label in any case the dump may write it
        out.add(`${l.slice(0, at).toLowerCase()}@${host}`);
        unicode(distinctLabel(domainToUnicode(host)));
      }
      if (c.foldProviders && host) for (const p of providerDomains(host)) out.add(p);
    }
  }
  out.delete('');
  return [...out];
}

/** Newlines of a file, counted by `wc -l` (native, ≈ 4 GB/s from the page cache). */
function countLines(path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const wc = spawn('wc', ['-l', '--', path], { env: { ...process.env, LC_ALL: 'C' }, stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    wc.stdout.on('data', (d) => {
      out += d;
    });
    wc.on('error', reject);
    wc.on('close', (code) => {
      const n = Number.parseInt(out.trim(), 10);
      if (code === 0 && Number.isFinite(n)) resolve(n);
      else reject(new Error(`wc -l exited with code ${code}`));
    });
  });
}

/** Where the lines a scan owns start and end: [firstOwned, end) by their first byte (whole file: 0, ∞). */
export interface OwnedSpan {
  firstOwned: number;
  end: number;
  /** One SAMPLE_BYTES window of full parse in every this many bytes (SAMPLE_EVERY). */
  sampleEvery?: number;
  /** A plain-text file grep reads itself (`PrefilterScan.file`): no bytes through this process. */
  file?: string;
  /** The span starts inside the file: lines that finish a block of the range before are skipped. */
  skipOrphans: boolean;
}

/**
 * Bytes in, grep's candidate lines out to the matcher. Write the span's bytes from `firstOwned` on (and, for a
 * range, the tail past `end` that may finish its last block); `close` waits for grep and returns the stats.
 *
 * Lines are counted by grep (`-n`): after the span's last line the scan writes a marker line no dump holds
 * (holding the shortest pattern, so grep prints it), so the marker's line number is the span's line count; lines
 * after it are the tail. The marker is invisible to the matcher: offsets past it are read as if it were not there.
 * A file grep reads itself (`file`) has no marker: `wc -l` counts its lines.
 */
export class PrefilterScan {
  private readonly child: ChildProcessByStdio<Writable, Readable, null>;
  private readonly patDir: string;
  private readonly sampler: HuntMatcher;
  private readonly exited: Promise<number | null>;
  private readonly marker: Buffer;
  private carry: Buffer | null = null;
  private discarding = false;
  /** Absolute offset the next written byte has (the marker not counted). */
  private written: number;
  /** grep's offset of the marker line, once written. */
  private markerAt = -1;
  private nextLine = -1; // absolute offset just after the last line given to the matcher
  private tailDone = false;
  private lastByte = 10;
  /** The span's line count once grep has passed the marker; before, the last line number grep reported. */
  private lines = 0;
  private counted = false;
  // sampling window: absolute [winStart, winStart + SAMPLE_BYTES), fed from the first line start in it
  private winStart: number;
  private sampling = false;
  private failed: Error | null = null;
  /** Offset of grep's latest output line: how far a grep reading the file itself has come. */
  private seen = 0;

  constructor(
    private readonly matcher: HuntMatcher,
    patterns: string[],
    private readonly span: OwnedSpan,
  ) {
    this.written = span.firstOwned;
    this.winStart = span.firstOwned;
    this.sampling = true; // the owned span starts at a line start
    this.sampler = new HuntMatcher(matcher.companies, { key: Buffer.alloc(32), onMatch: () => undefined });
    // grep reads its patterns from a file (a pipe on fd 3 is a socket here, which /dev/fd cannot open): private
    // to this process's user, removed when grep has read it
    this.patDir = mkdtempSync(join(tmpdir(), 'forpost-hunt-'));
    const patFile = join(this.patDir, 'patterns');
    // the marker holds a pattern rather than being one: a long extra pattern makes grep twice as slow
    const hook = patterns.reduce((a, b) => (b.length < a.length ? b : a), patterns[0] ?? '');
    this.marker = Buffer.from(`\x01forpost-hunt-end-${randomBytes(12).toString('hex')}\x01${hook}`);
    writeFileSync(patFile, `${(hook ? patterns : [this.marker.toString('latin1')]).join('\n')}\n`, { mode: 0o600 });
    // -n only when grep counts the lines (a file read by grep itself is counted by wc: -n costs grep ≈ 35 %)
    const args = ['-a', '-F', '-i', '-b', '--no-group-separator', `-B${CONTEXT}`, `-A${CONTEXT}`, '-f', patFile];
    if (span.file) args.push('--', span.file);
    else args.unshift('-n');
    this.child = spawn('grep', args, {
      env: { ...process.env, LC_ALL: 'C' },
      stdio: [span.file ? 'ignore' : 'pipe', 'pipe', 'ignore'],
    }) as ChildProcessByStdio<Writable, Readable, null>;
    this.exited = new Promise((resolve) => {
      this.child.on('error', (e) => {
        this.failed = e;
        resolve(null);
      });
      this.child.on('close', (code) => {
        this.dropPatterns();
        resolve(code);
      });
    });
    this.child.stdin?.on('error', () => undefined);
    this.child.stdout.on('data', (c: Buffer) => this.output(c));
    // a span without a line of its own: the marker first
    if (!span.file && span.firstOwned >= span.end) this.writeMarker(0);
  }

  /**
   * A whole plain-text file through the prefilter with grep reading it from disk: this process reads only the
   * sample windows, `wc -l` counts the lines, progress is the offset of grep's latest output line. Piping the
   * bytes through Node costs ≈ 0.5 s of CPU per GB and halves the speed (bench/README.md, hunt.bench.ts).
   */
  static async file(
    matcher: HuntMatcher,
    patterns: string[],
    path: string,
    size: number,
    opts: { sampleEvery?: number; onProgress?: (bytesIn: number, stats: ScanStats) => void | Promise<void> } = {},
  ): Promise<ScanStats> {
    const pre = new PrefilterScan(matcher, patterns, {
      firstOwned: 0,
      end: Number.POSITIVE_INFINITY,
      skipOrphans: false,
      sampleEvery: opts.sampleEvery,
      file: path,
    });
    try {
      return await pre.runFile(path, size, opts.onProgress);
    } catch (e) {
      pre.abort();
      throw e;
    }
  }

  private async runFile(
    path: string,
    size: number,
    onProgress?: (bytesIn: number, stats: ScanStats) => void | Promise<void>,
  ): Promise<ScanStats> {
    const counted = countLines(path);
    counted.catch(() => undefined);
    const every = this.span.sampleEvery ?? SAMPLE_EVERY;
    for (let w = 0; w < size; w += every) {
      const from = Math.max(0, w - 1);
      const to = Math.min(size, w + SAMPLE_BYTES + MAX_LINE + 1) - 1;
      let base = from;
      for await (const c of createReadStream(path, { start: from, end: to, highWaterMark: 1 << 20 })) {
        this.sample(c as Buffer, base);
        base += (c as Buffer).length;
      }
      if (this.sampling) this.endWindow();
    }
    const fd = await open(path, 'r');
    try {
      const b = Buffer.alloc(1);
      if (size > 0) await fd.read(b, 0, 1, size - 1);
      this.lastByte = size > 0 ? b[0]! : 10;
    } finally {
      await fd.close();
    }
    let exited = false;
    void this.exited.then(() => {
      exited = true;
    });
    while (!exited) {
      await Promise.race([this.exited, new Promise((r) => setTimeout(r, 500))]);
      this.publish();
      if (onProgress) await onProgress(this.seen, this.matcher.stats);
    }
    await this.drained();
    this.lines = (await counted) + (this.lastByte !== 10 ? 1 : 0);
    this.counted = true;
    return this.publish();
  }

  /** The next bytes of the span (absolute offsets continue from the last write). */
  async write(chunk: Buffer): Promise<void> {
    if (this.failed) throw this.failed;
    const base = this.written;
    this.written += chunk.length;
    this.sample(chunk, base);
    if (chunk.length) this.lastByte = chunk[chunk.length - 1]!;
    let ok: boolean;
    const last = this.span.end - 1; // the span's last line is the one holding this byte
    if (this.markerAt < 0 && base + chunk.length > last) {
      const nl = chunk.indexOf(10, Math.max(0, last - base));
      if (nl < 0) ok = this.child.stdin.write(chunk);
      else {
        this.child.stdin.write(chunk.subarray(0, nl + 1));
        this.writeMarker(base + nl + 1 - this.span.firstOwned);
        ok = this.child.stdin.write(chunk.subarray(nl + 1));
      }
    } else ok = this.child.stdin.write(chunk);
    if (!ok) {
      await new Promise<void>((resolve) => {
        const done = () => {
          this.child.stdin.off('drain', done);
          this.child.off('close', done);
          resolve();
        };
        this.child.stdin.once('drain', done);
        this.child.once('close', done);
      });
    }
  }

  /** The marker line, starting at grep's offset `at`. */
  private writeMarker(at: number): void {
    this.markerAt = at;
    this.child.stdin.write(Buffer.concat([this.marker, NEWLINE]));
  }

  /** Lines counted so far and the sample's figures, written into the matcher's stats (what progress shows). */
  publish(): ScanStats {
    const st = this.matcher.stats;
    const sm = this.sampler.stats;
    st.lines = this.lines;
    st.parsed = Math.min(sm.parsed, this.lines);
    st.blank = sm.blank;
    st.tooLong = sm.tooLong;
    st.unrecognized =
      sm.parsed >= this.lines ? sm.unrecognized : Math.round((sm.unrecognized * this.lines) / Math.max(sm.parsed, 1));
    st.samples = sm.samples;
    return st;
  }

  /** No more bytes: waits for grep's last lines and returns the scan's stats. */
  async close(): Promise<ScanStats> {
    if (this.markerAt < 0) {
      // the file ended inside the span (or a whole file): its last line, then the marker
      // (a newline first when the file lacks its last one)
      const pad = this.lastByte !== 10 ? 1 : 0;
      if (pad) this.child.stdin.write(NEWLINE);
      this.writeMarker(this.written - this.span.firstOwned + pad);
    }
    this.child.stdin!.end();
    await this.drained();
    if (this.sampling) this.sampler.end();
    if (!this.counted) throw new Error('grep prefilter: the end marker was not seen');
    return this.publish();
  }

  /** grep has exited: its status checked, its last unterminated output line read, no block left open. */
  private async drained(): Promise<void> {
    const code = await this.exited;
    if (this.failed) throw this.failed;
    if (code !== 0 && code !== 1) throw new Error(`grep prefilter exited with code ${code}`);
    if (this.carry && !this.discarding) this.candidate(this.carry, 0, this.carry.length);
    this.carry = null;
    this.matcher.breakBlock();
  }

  abort(): void {
    this.child.kill('SIGKILL');
    this.dropPatterns();
  }

  private dropPatterns(): void {
    rmSync(this.patDir, { recursive: true, force: true });
  }

  // ------------------------------------------------------------------ counting and sampling

  private endWindow(): void {
    this.sampler.end();
    this.sampler.breakBlock();
    this.sampling = false;
    this.winStart += this.span.sampleEvery ?? SAMPLE_EVERY;
  }

  private sample(chunk: Buffer, base: number): void {
    const end = this.span.end;
    let off = 0;
    while (off < chunk.length) {
      const abs = base + off;
      if (abs >= end) {
        if (this.sampling) {
          this.sampler.end();
          this.sampling = false;
        }
        return;
      }
      if (this.sampling) {
        // feed up to the window's end, then through the newline that finishes the line holding its last byte
        const winEnd = this.winStart + SAMPLE_BYTES;
        let stop = chunk.length;
        if (base + chunk.length > winEnd) {
          const nl = chunk.indexOf(10, Math.max(off, winEnd - 1 - base));
          stop = nl < 0 ? chunk.length : nl + 1;
        }
        if (base + stop > end) {
          const nl = chunk.indexOf(10, Math.max(off, end - 1 - base));
          stop = Math.min(stop, nl < 0 ? chunk.length : nl + 1);
        }
        this.sampler.feed(chunk.subarray(off, stop));
        off = stop;
        if (base + stop >= winEnd && (stop < chunk.length || chunk[stop - 1] === 10)) this.endWindow();
      } else {
        if (base + chunk.length <= this.winStart) return;
        const nl = chunk.indexOf(10, Math.max(off, this.winStart - 1 - base));
        if (nl < 0) return;
        off = nl + 1;
        this.sampling = true;
      }
    }
  }

  // ------------------------------------------------------------------ grep's output

  private output(c: Buffer): void {
    let pos = 0;
    if (this.carry || this.discarding) {
      const nl = c.indexOf(10);
      if (nl < 0) {
        if (this.discarding) return;
        if (this.carry!.length + c.length > MAX_LINE + 32) {
          this.carry = null;
          this.discarding = true;
        } else this.carry = Buffer.concat([this.carry!, c]);
        return;
      }
      if (this.discarding) this.discarding = false;
      else {
        const line = Buffer.concat([this.carry!, c.subarray(0, nl)]);
        this.candidate(line, 0, line.length);
      }
      this.carry = null;
      pos = nl + 1;
    }
    for (;;) {
      const nl = c.indexOf(10, pos);
      if (nl < 0) break;
      this.candidate(c, pos, nl);
      pos = nl + 1;
    }
    if (pos < c.length) {
      if (c.length - pos > MAX_LINE + 32) this.discarding = true;
      else this.carry = Buffer.from(c.subarray(pos));
    }
  }

  /**
   * One output line `LINE:OFFSET:text` (a hit) or `LINE-OFFSET-text` (context) — without `LINE` when grep reads
   * a file itself — without its newline.
   */
  private candidate(buf: Buffer, s: number, e: number): void {
    let lineNo = 0;
    let i = s;
    let sep = 0;
    if (!this.span.file) {
      while (i < e && buf[i]! >= 48 && buf[i]! <= 57) lineNo = lineNo * 10 + buf[i++]! - 48;
      if (i === s || i >= e || (buf[i]! !== 58 && buf[i]! !== 45)) return;
      sep = buf[i++]!;
    }
    const o = i;
    let off = 0;
    while (i < e && buf[i]! >= 48 && buf[i]! <= 57) off = off * 10 + buf[i++]! - 48;
    if (i === o || i >= e || (sep ? buf[i]! !== sep : buf[i]! !== 58 && buf[i]! !== 45)) return;
    const hit = buf[i++]! === 58;
    if (this.markerAt >= 0 && off >= this.markerAt) {
      if (off === this.markerAt) {
        this.lines = lineNo - 1;
        this.counted = true;
        return;
      }
      off -= this.marker.length + 1;
    } else if (!this.counted && lineNo) this.lines = lineNo;
    const abs = this.span.firstOwned + off;
    this.seen = abs;
    const contiguous = abs === this.nextLine;
    this.nextLine = abs + (e - i) + 1;
    if (abs === 0 && e - i >= 3 && buf[i]! === 0xef && buf[i + 1]! === 0xbb && buf[i + 2]! === 0xbf) i += 3;
    const m = this.matcher;
    if (abs < this.span.end) {
      if (!contiguous) m.breakBlock();
      // a range's first lines that finish the block of the range before are skipped while they continue it
      if (abs === this.span.firstOwned) m.skipOrphans = this.span.skipOrphans;
      else if (!contiguous) m.skipOrphans = false;
      if (e - i > MAX_LINE) return; // counted by the sample only
      // a context line holds no pattern, so it can matter only as part of a stealer-log block (a line that is
      // not a block key leaves the block as it is on the full parse too)
      if (!hit && !m.keyKind(buf, i, e)) {
        m.skipOrphans = false;
        return;
      }
      m.line(buf, i, e); // its counters are overwritten by publish(): the sample's are the scan's
      return;
    }
    // past the span: only lines that continue the span's last block, without a gap
    if (this.tailDone) return;
    if (!contiguous || !m.inBlock || !m.isContinuation(buf, i, e)) {
      this.tailDone = true;
      return;
    }
    m.skipOrphans = false;
    m.line(buf, i, e);
  }
}
