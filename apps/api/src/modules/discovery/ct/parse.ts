/*
 * RFC 6962 leaf parser: a log entry's leaf_input (MerkleTreeLeaf → TimestampedEntry) carries either a
 * whole certificate (x509_entry) or a precertificate's TBSCertificate (precert_entry, poison extension
 * already removed by the log). Both are read with the @peculiar/asn1-x509 schemas: a TBSCertificate is
 * not a certificate, so it is parsed as the TBSCertificate type itself, a certificate as Certificate.
 * The issuer is the TBSCertificate's own: for a precertificate the log puts the final issuer there
 * (RFC 6962 §3.2), so extra_data (the precertificate and its chain) is not needed.
 */
import { createHash } from 'node:crypto';
import { domainToASCII } from 'node:url';
import { AsnParser } from '@peculiar/asn1-schema';
import { Certificate, id_ce_subjectAltName, type Name, SubjectAlternativeName, TBSCertificate } from '@peculiar/asn1-x509';

export interface CtEntry {
  index: number;
  /** SAN dNSNames + subject CN: lower case, ASCII (IDN as punycode), a wildcard '*.x' as 'x', deduplicated. */
  names: string[];
  /** The issuer's distinguished name, RFC 4514 order (CN first). */
  issuer: string;
  notBefore: string;
  notAfter: string;
  precert: boolean;
  /** Serial number, lower-case hex without leading zero bytes. */
  serial: string;
  /**
   * SHA-256 (AA:BB:…, as Node's fingerprint256) of the certificate's DER; of a precertificate, of its
   * TBSCertificate (the final certificate differs: the watch matches the two by serial).
   */
  fingerprint: string;
}

const X509_ENTRY = 0;
const PRECERT_ENTRY = 1;

/** Bounds-checked reader of the TLS presentation language (RFC 5246 §4) the leaf is encoded in. */
class Reader {
  private pos = 0;
  constructor(private readonly buf: Buffer) {}
  private need(n: number) {
    if (this.pos + n > this.buf.length) throw new Error('Запись журнала CT обрезана');
  }
  u8() {
    this.need(1);
    return this.buf[this.pos++] as number;
  }
  u16() {
    this.need(2);
    const v = this.buf.readUInt16BE(this.pos);
    this.pos += 2;
    return v;
  }
  u24() {
    this.need(3);
    const v = this.buf.readUIntBE(this.pos, 3);
    this.pos += 3;
    return v;
  }
  bytes(n: number) {
    this.need(n);
    const v = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return v;
  }
  /** opaque<1..2^24-1> */
  opaque24() {
    return this.bytes(this.u24());
  }
}

const ATTRIBUTE_NAMES: Record<string, string> = {
  '2.5.4.3': 'CN',
  '2.5.4.5': 'serialNumber',
  '2.5.4.6': 'C',
  '2.5.4.7': 'L',
  '2.5.4.8': 'ST',
  '2.5.4.9': 'STREET',
  '2.5.4.10': 'O',
  '2.5.4.11': 'OU',
  '0.9.2342.19200300.100.1.25': 'DC',
  '1.2.840.113549.1.9.1': 'E',
};
const CN = '2.5.4.3';

const escapeDn = (v: string) => v.replace(/[,+"\\<>;]/g, (c) => `\\${c}`);

/** RFC 4514 string of a Name: RDNs from last to first (the CN of a certificate's issuer comes first). */
function nameToString(name: Name): string {
  const rdns: string[] = [];
  for (let i = name.length - 1; i >= 0; i--) {
    const parts = (name[i] ?? []).map((atv) => {
      const value = atv.value.anyValue ? `#${Buffer.from(atv.value.anyValue).toString('hex')}` : escapeDn(atv.value.toString());
      return `${ATTRIBUTE_NAMES[atv.type] ?? atv.type}=${value}`;
    });
    rdns.push(parts.join('+'));
  }
  return rdns.join(', ');
}

const IPV4 = /^\d+(\.\d+){3}$/;

/**
 * A certificate name as a host name to match: lower case, no trailing dot, '*.example.com' → 'example.com'
 * (a wildcard certificate is about its base domain), IDN → punycode (UTS #46). Null for what is not a
 * host name (a CN like «Example LLC», an IP address, a wildcard elsewhere than the first label).
 */
export function normalizeCtName(raw: string): string | null {
  let s = raw.trim().toLowerCase();
  if (s.endsWith('.')) s = s.slice(0, -1);
  if (s.startsWith('*.')) s = s.slice(2);
  if (!s.includes('.') || s.includes('*') || /\s/.test(s) || IPV4.test(s)) return null;
  const ascii = domainToASCII(s);
  return ascii.includes('.') ? ascii : null;
}

function namesOf(tbs: TBSCertificate): string[] {
  const out = new Set<string>();
  for (const ext of tbs.extensions ?? []) {
    if (ext.extnID !== id_ce_subjectAltName) continue;
    for (const g of AsnParser.parse(ext.extnValue, SubjectAlternativeName)) {
      const n = g.dNSName === undefined ? null : normalizeCtName(g.dNSName);
      if (n) out.add(n);
    }
  }
  for (const rdn of tbs.subject)
    for (const atv of rdn) {
      const n = atv.type === CN ? normalizeCtName(atv.value.toString()) : null;
      if (n) out.add(n);
    }
  return [...out];
}

/** SHA-256 of DER in Node's fingerprint256 form (upper-case hex pairs joined by colons). */
function fingerprintOf(der: Buffer): string {
  return createHash('sha256').update(der).digest('hex').toUpperCase().match(/../g)?.join(':') ?? '';
}

function serialHex(serial: ArrayBuffer): string {
  const hex = Buffer.from(serial)
    .toString('hex')
    .replace(/^(00)+/, '');
  return hex || '00';
}

/** One log entry → CtEntry. Throws (Russian message) on anything malformed; the caller counts and skips it. */
export function parseLeaf(index: number, leafInput: Buffer): CtEntry {
  const r = new Reader(leafInput);
  const version = r.u8();
  const leafType = r.u8();
  if (version !== 0 || leafType !== 0) throw new Error(`Неизвестная версия записи CT: ${version}/${leafType}`);
  r.bytes(8); // timestamp
  const entryType = r.u16();
  let tbs: TBSCertificate;
  let der: Buffer;
  if (entryType === X509_ENTRY) {
    der = r.opaque24();
    tbs = AsnParser.parse(der, Certificate).tbsCertificate;
  } else if (entryType === PRECERT_ENTRY) {
    r.bytes(32); // issuer_key_hash
    der = r.opaque24();
    tbs = AsnParser.parse(der, TBSCertificate);
  } else throw new Error(`Неизвестный тип записи CT: ${entryType}`);
  return {
    index,
    names: namesOf(tbs),
    issuer: nameToString(tbs.issuer),
    notBefore: tbs.validity.notBefore.getTime().toISOString(),
    notAfter: tbs.validity.notAfter.getTime().toISOString(),
    precert: entryType === PRECERT_ENTRY,
    serial: serialHex(tbs.serialNumber),
    fingerprint: fingerprintOf(der),
  };
}
