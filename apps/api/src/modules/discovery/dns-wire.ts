/*
 * DNS wire format (RFC 1035 §4) — just what discovery needs: a query with one question, and a message
 * with answer/authority records of the types A, AAAA, CNAME, MX, NS (others are kept as raw bytes).
 * Used by the resolver (queries out, answers in) and by the test DNS server (the reverse), so both
 * sides of the tests speak the same, real protocol over UDP.
 */
import { isIPv4, isIPv6 } from 'node:net';

export const RR_TYPES = { A: 1, NS: 2, CNAME: 5, SOA: 6, MX: 15, AAAA: 28 } as const;
export type RrTypeName = keyof typeof RR_TYPES;
export const RCODES = { NOERROR: 0, FORMERR: 1, SERVFAIL: 2, NXDOMAIN: 3, NOTIMP: 4, REFUSED: 5 } as const;
export type RcodeName = keyof typeof RCODES;

export interface Question {
  name: string;
  type: number;
}
/** `data`: an address for A/AAAA, a domain name for CNAME/NS, `"<preference> <exchange>"` for MX. */
export interface DnsRecord {
  name: string;
  type: number;
  ttl: number;
  data: string;
}
export interface Message {
  id: number;
  response: boolean;
  truncated: boolean;
  authoritative: boolean;
  rcode: number;
  questions: Question[];
  answers: DnsRecord[];
  authorities: DnsRecord[];
}

export class DnsWireError extends Error {}

/** Lower-case, no trailing dot; the root is ''. */
export function normalizeName(name: string): string {
  return name.toLowerCase().replace(/\.$/, '');
}

function encodeName(name: string): Buffer {
  const parts: Buffer[] = [];
  const n = normalizeName(name);
  for (const label of n ? n.split('.') : []) {
    const b = Buffer.from(label, 'ascii');
    if (b.length === 0 || b.length > 63) throw new DnsWireError(`bad label in ${name}`);
    parts.push(Buffer.from([b.length]), b);
  }
  parts.push(Buffer.from([0]));
  const out = Buffer.concat(parts);
  if (out.length > 255) throw new DnsWireError('name too long');
  return out;
}

function encodeRdata(r: DnsRecord): Buffer {
  switch (r.type) {
    case RR_TYPES.A: {
      if (!isIPv4(r.data)) throw new DnsWireError(`bad A ${r.data}`);
      return Buffer.from(r.data.split('.').map(Number));
    }
    case RR_TYPES.AAAA: {
      if (!isIPv6(r.data)) throw new DnsWireError(`bad AAAA ${r.data}`);
      return ipv6ToBytes(r.data);
    }
    case RR_TYPES.CNAME:
    case RR_TYPES.NS:
      return encodeName(r.data);
    case RR_TYPES.MX: {
      const [pref, host] = r.data.split(' ');
      const b = Buffer.alloc(2);
      b.writeUInt16BE(Number(pref) & 0xffff);
      return Buffer.concat([b, encodeName(host ?? '')]);
    }
    default:
      return Buffer.from(r.data, 'hex');
  }
}

/** The WHATWG URL parser writes IPv6 in the canonical form (RFC 5952, embedded IPv4 as hex groups). */
const canonicalIpv6 = (ip: string) => new URL(`http://[${ip}]/`).hostname.slice(1, -1);

function ipv6ToBytes(ip: string): Buffer {
  const [head = '', tail] = canonicalIpv6(ip).split('::');
  const groups = (x: string) => (x ? x.split(':') : []);
  const h = groups(head);
  const t = groups(tail ?? '');
  const all = tail === undefined ? h : [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t];
  const b = Buffer.alloc(16);
  for (const [i, g] of all.entries()) b.writeUInt16BE(Number.parseInt(g, 16), i * 2);
  return b;
}

function bytesToIpv6(b: Buffer): string {
  const g: string[] = [];
  for (let i = 0; i < 16; i += 2) g.push(b.readUInt16BE(i).toString(16));
  return canonicalIpv6(g.join(':'));
}

function header(id: number, flags: number, counts: number[]): Buffer {
  const b = Buffer.alloc(12);
  b.writeUInt16BE(id & 0xffff, 0);
  b.writeUInt16BE(flags, 2);
  for (const [i, c] of counts.entries()) b.writeUInt16BE(c, 4 + i * 2);
  return b;
}

function question(q: Question): Buffer {
  const t = Buffer.alloc(4);
  t.writeUInt16BE(q.type, 0);
  t.writeUInt16BE(1, 2); // class IN
  return Buffer.concat([encodeName(q.name), t]);
}

function record(r: DnsRecord): Buffer {
  const rdata = encodeRdata(r);
  const fixed = Buffer.alloc(10);
  fixed.writeUInt16BE(r.type, 0);
  fixed.writeUInt16BE(1, 2);
  fixed.writeUInt32BE(r.ttl >>> 0, 4);
  fixed.writeUInt16BE(rdata.length, 8);
  return Buffer.concat([encodeName(r.name), fixed, rdata]);
}

/** A standard recursive query (RD set) for one name and type. */
export function encodeQuery(id: number, name: string, type: number): Buffer {
  return Buffer.concat([header(id, 0x0100, [1, 0, 0, 0]), question({ name, type })]);
}

/** A response (QR, RA; AA when `authoritative`). */
export function encodeResponse(m: {
  id: number;
  rcode: number;
  questions: Question[];
  answers?: DnsRecord[];
  authorities?: DnsRecord[];
  authoritative?: boolean;
}): Buffer {
  const answers = m.answers ?? [];
  const authorities = m.authorities ?? [];
  const flags = 0x8000 | (m.authoritative ? 0x0400 : 0) | 0x0100 | 0x0080 | (m.rcode & 0xf);
  return Buffer.concat([
    header(m.id, flags, [m.questions.length, answers.length, authorities.length, 0]),
    ...m.questions.map(question),
    ...answers.map(record),
    ...authorities.map(record),
  ]);
}

function readName(buf: Buffer, start: number): [string, number] {
  const labels: string[] = [];
  let off = start;
  let end = -1;
  let jumps = 0;
  for (;;) {
    if (off >= buf.length) throw new DnsWireError('name past end');
    const len = buf[off] ?? 0;
    if (len === 0) {
      off++;
      break;
    }
    if ((len & 0xc0) === 0xc0) {
      if (off + 1 >= buf.length) throw new DnsWireError('pointer past end');
      if (++jumps > 32) throw new DnsWireError('pointer loop');
      if (end < 0) end = off + 2;
      off = ((len & 0x3f) << 8) | (buf[off + 1] ?? 0);
      continue;
    }
    if (len > 63 || off + 1 + len > buf.length) throw new DnsWireError('bad label');
    labels.push(buf.toString('latin1', off + 1, off + 1 + len));
    off += 1 + len;
  }
  return [labels.join('.').toLowerCase(), end < 0 ? off : end];
}

function readRecord(buf: Buffer, start: number): [DnsRecord, number] {
  const [name, off] = readName(buf, start);
  if (off + 10 > buf.length) throw new DnsWireError('record past end');
  const type = buf.readUInt16BE(off);
  const ttl = buf.readUInt32BE(off + 4);
  const len = buf.readUInt16BE(off + 8);
  const rd = off + 10;
  if (rd + len > buf.length) throw new DnsWireError('rdata past end');
  const raw = buf.subarray(rd, rd + len);
  let data: string;
  if (type === RR_TYPES.A && len === 4) data = [...raw].join('.');
  else if (type === RR_TYPES.AAAA && len === 16) data = bytesToIpv6(raw);
  else if (type === RR_TYPES.CNAME || type === RR_TYPES.NS) data = readName(buf, rd)[0];
  else if (type === RR_TYPES.MX && len >= 3) data = `${raw.readUInt16BE(0)} ${readName(buf, rd + 2)[0]}`;
  else data = raw.toString('hex');
  return [{ name, type, ttl, data }, rd + len];
}

/** Parses a whole message; throws DnsWireError on anything malformed. */
export function decodeMessage(buf: Buffer): Message {
  if (buf.length < 12) throw new DnsWireError('short message');
  const flags = buf.readUInt16BE(2);
  const [qd, an, ns] = [buf.readUInt16BE(4), buf.readUInt16BE(6), buf.readUInt16BE(8)];
  let off = 12;
  const questions: Question[] = [];
  for (let i = 0; i < qd; i++) {
    const [name, o] = readName(buf, off);
    if (o + 4 > buf.length) throw new DnsWireError('question past end');
    questions.push({ name, type: buf.readUInt16BE(o) });
    off = o + 4;
  }
  const section = (n: number) => {
    const out: DnsRecord[] = [];
    for (let i = 0; i < n; i++) {
      const [r, o] = readRecord(buf, off);
      out.push(r);
      off = o;
    }
    return out;
  };
  const answers = section(an);
  const truncated = (flags & 0x0200) !== 0;
  // A truncated message may stop mid-section; what was parsed before that is kept.
  let authorities: DnsRecord[] = [];
  try {
    authorities = section(ns);
  } catch (e) {
    if (!truncated) throw e;
  }
  return {
    id: buf.readUInt16BE(0),
    response: (flags & 0x8000) !== 0,
    truncated,
    authoritative: (flags & 0x0400) !== 0,
    rcode: flags & 0xf,
    questions,
    answers,
    authorities,
  };
}
