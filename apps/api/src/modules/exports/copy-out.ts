/*
 * Byte-level helpers for exports produced by `COPY … TO STDOUT`: Node does not look at cell values,
 * it only frames rows (to count them and to turn line ends into CRLF, or to split XLSX sheets).
 */

const LF = 0x0a;
const QUOTE = 0x22;
const CRLF = Buffer.from('\r\n');

/**
 * PostgreSQL's CSV (LF line ends) → CRLF line ends, counting the rows. Line feeds inside quoted
 * cells stay as they are (they are part of the value).
 */
export class CsvFramer {
  rows = 0;
  private inQuote = false;

  push(chunk: Buffer): Buffer {
    const parts: Buffer[] = [];
    let start = 0;
    let pos = 0;
    const len = chunk.length;
    let q = chunk.indexOf(QUOTE, 0);
    while (pos < len) {
      if (this.inQuote) {
        if (q < 0) break;
        this.inQuote = false;
        pos = q + 1;
        q = chunk.indexOf(QUOTE, pos);
        continue;
      }
      const nl = chunk.indexOf(LF, pos);
      if (q >= 0 && (nl < 0 || q < nl)) {
        this.inQuote = true;
        pos = q + 1;
        q = chunk.indexOf(QUOTE, pos);
        continue;
      }
      if (nl < 0) break;
      parts.push(chunk.subarray(start, nl), CRLF);
      this.rows++;
      start = pos = nl + 1;
    }
    if (start === 0 && !parts.length) return chunk;
    if (start < len) parts.push(chunk.subarray(start));
    return Buffer.concat(parts);
  }
}

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');

/**
 * COPY's binary format → rows as field offsets into a buffer (no copies, no strings). Fed with the
 * stream's chunks in order; a row cut between chunks is kept until its end arrives.
 */
export class BinaryTuples {
  private rest: Buffer | null = null;
  private headerDone = false;
  done = false;
  readonly starts: Int32Array;
  /** End offset of each field; -1 start = NULL. */
  readonly ends: Int32Array;

  constructor(readonly columns: number) {
    this.starts = new Int32Array(columns);
    this.ends = new Int32Array(columns);
  }

  /** Calls `onRow` for each complete row of this chunk (offsets in `starts`/`ends`, valid during the call). */
  push(chunk: Buffer, onRow: (b: Buffer, starts: Int32Array, ends: Int32Array) => void): void {
    const b = this.rest ? Buffer.concat([this.rest, chunk]) : chunk;
    this.rest = null;
    let p = 0;
    if (!this.headerDone) {
      if (b.length < 19) {
        this.rest = b;
        return;
      }
      if (!b.subarray(0, 11).equals(SIGNATURE)) throw new Error('COPY binary: bad signature');
      const ext = b.readUInt32BE(15);
      if (b.length < 19 + ext) {
        this.rest = b;
        return;
      }
      p = 19 + ext;
      this.headerDone = true;
    }
    const len = b.length;
    const { starts, ends, columns } = this;
    rows: while (!this.done) {
      if (len - p < 2) break;
      const n = b.readInt16BE(p);
      if (n === -1) {
        this.done = true;
        p += 2;
        break;
      }
      if (n !== columns) throw new Error(`COPY binary: ${n} columns, expected ${columns}`);
      let q = p + 2;
      for (let i = 0; i < columns; i++) {
        if (len - q < 4) break rows;
        const size = b.readInt32BE(q);
        q += 4;
        if (size < 0) {
          starts[i] = -1;
          ends[i] = -1;
          continue;
        }
        if (len - q < size) break rows;
        starts[i] = q;
        ends[i] = q + size;
        q += size;
      }
      onRow(b, starts, ends);
      p = q;
    }
    if (p < len && !this.done) this.rest = Buffer.from(b.subarray(p));
  }
}

/** How a column's bytes become an XLSX cell: text, a number, or tagged per value ('n…' number / 's…' text). */
export type XlsxKind = 's' | 'n' | 't';

/**
 * SheetML `<row>`s from COPY's binary rows of already formatted, XML-escaped cells: the markup is
 * copied around the cell bytes into a growing buffer, split into segments that never cross a sheet.
 */
export class XlsxRowBuilder {
  private buf = Buffer.allocUnsafe(1 << 20);
  private at = 0;
  private segRows = 0;
  /** Rows in the current sheet (the builder's count matches the writer's). */
  private inSheet = 0;
  private readonly open: Buffer[];
  private static readonly MID_S = Buffer.from('" t="inlineStr"><is><t xml:space="preserve">');
  private static readonly END_S = Buffer.from('</t></is></c>');
  private static readonly MID_N = Buffer.from('"><v>');
  private static readonly END_N = Buffer.from('</v></c>');
  readonly segments: { xml: Buffer; rows: number }[] = [];

  constructor(
    cols: readonly string[],
    private readonly kinds: readonly XlsxKind[],
    private readonly rowsPerSheet: number,
  ) {
    this.open = cols.map((c) => Buffer.from(`<c r="${c}`));
  }

  private put(src: Buffer, from: number, to: number) {
    this.at += src.copy(this.buf, this.at, from, to);
  }

  private flush() {
    // The filled part is copied out (a chunk's worth); the working buffer is reused.
    if (this.segRows)
      this.segments.push({ xml: stripXmlInvalid(Buffer.from(this.buf.subarray(0, this.at))), rows: this.segRows });
    this.at = 0;
    this.segRows = 0;
  }

  row(b: Buffer, starts: Int32Array, ends: Int32Array): void {
    const C = XlsxRowBuilder;
    if (this.inSheet >= this.rowsPerSheet) {
      this.flush();
      this.inSheet = 0;
    }
    let need = 32;
    for (let i = 0; i < starts.length; i++)
      if ((starts[i] as number) >= 0) need += (ends[i] as number) - (starts[i] as number) + 80;
    if (this.at + need > this.buf.length) {
      this.flush();
      if (need > this.buf.length) this.buf = Buffer.allocUnsafe(need * 2);
    }
    const r = String(this.inSheet + 2);
    this.at += this.buf.write(`<row r="${r}">`, this.at, 'latin1');
    for (let i = 0; i < starts.length; i++) {
      let s = starts[i] as number;
      if (s < 0) continue;
      const e = ends[i] as number;
      let kind = this.kinds[i] as XlsxKind;
      if (kind === 't') {
        kind = b[s] === 0x6e ? 'n' : 's'; // 'n'
        s++;
      }
      const open = this.open[i] as Buffer;
      this.put(open, 0, open.length);
      this.at += this.buf.write(r, this.at, 'latin1');
      if (kind === 'n') {
        this.put(C.MID_N, 0, C.MID_N.length);
        this.put(b, s, e);
        this.put(C.END_N, 0, C.END_N.length);
      } else {
        this.put(C.MID_S, 0, C.MID_S.length);
        this.put(b, s, e);
        this.put(C.END_S, 0, C.END_S.length);
      }
    }
    this.at += this.buf.write('</row>', this.at, 'latin1');
    this.segRows++;
    this.inSheet++;
  }

  /** The segments built so far (the current one closed). */
  take(): { xml: Buffer; rows: number }[] {
    this.flush();
    return this.segments.splice(0);
  }
}

/** Is byte `c` at `i` the start of something XML 1.0 cannot carry (a C0 control other than tab/LF/CR, U+FFFE, U+FFFF)? */
const badAt = (b: Buffer, i: number, c: number) =>
  (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) ||
  (c === 0xef && b[i + 1] === 0xbf && ((b[i + 2] as number) & 0xfe) === 0xbe);

/**
 * UTF-8 XML text with the characters XML 1.0 forbids removed (markup never has them, so the whole
 * buffer can be scanned). Returns the same buffer when there is nothing to remove (the usual case).
 */
function stripXmlInvalid(b: Buffer): Buffer {
  const len = b.length;
  let i = 0;
  for (; i < len; i++) {
    const c = b[i] as number;
    if ((c < 0x20 || c === 0xef) && badAt(b, i, c)) break;
  }
  if (i === len) return b;
  const out = Buffer.allocUnsafe(len);
  b.copy(out, 0, 0, i);
  let o = i;
  while (i < len) {
    const c = b[i] as number;
    if ((c < 0x20 || c === 0xef) && badAt(b, i, c)) {
      i += c === 0xef ? 3 : 1;
      continue;
    }
    out[o++] = c;
    i++;
  }
  return out.subarray(0, o);
}
