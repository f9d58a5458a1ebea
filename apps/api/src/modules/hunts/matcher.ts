import { unicodeToPunycode } from '@forpost/contract';
import { type PasswordVerdict, verdictOf } from './verdict';

/**
 * The hunt matcher (#34): one pass over a dump's bytes matching every protected company at once.
 *
 * Works on Buffers; the hot path (a line that matches nobody — 99.9 % of a dump) allocates nothing:
 * - the line end is found with `indexOf(10)` (memchr);
 * - one loop over the login field finds the separator and the `@` through a byte-class table;
 * - the email domain (or the URL host) is hashed right to left, lower-cased on the fly, and at every label
 *   boundary the hash of that suffix is looked up in an open-addressing table of the companies' domains
 *   (`sber.ru` finds `sber.ru`, `mail.sber.ru`, never `notsber.ru`); a hit is verified byte by byte;
 * - exact logins are one forward hash of the login field and the same kind of table.
 * Strings are made only for a match (or for a non-ASCII host, which is folded to punycode first).
 * The password is never turned into a string: `verdictOf` reads its bytes in place.
 *
 * Formats, sniffed per line: `email:password`, `login:password` with `:` `;` `|` tab `,` (or a space when
 * there is none of them), `"quoted","csv"`, `email;hash`, `email:hash:salt`, `url:login:password` and
 * `url|login|password` (any scheme incl. `android://HASH@com.package/`, ports), an email alone, and the block
 * form of stealer logs (`URL:`/`Host:`, `Username:`/`Login:`, `Password:` lines; `Soft:` and dividers are
 * parts of a block). Blank lines are skipped; other lines are counted as unrecognised and the first few kept
 * as a shape (letters → a/A, digits → 9), never as text: such a line may hold a password.
 */

export interface CompanyIdentities {
  companyId: number;
  /** Email domains; their subdomains match too. Unicode or punycode. */
  domains: string[];
  /** Exact logins or emails. */
  logins?: string[];
  /** Login formats (regular expressions, matched against the whole login), e.g. a customer id `\d{10}`. */
  patterns?: string[];
  /** Fold `+tags` (and dots, for Gmail) of the providers that ignore them, in logins and exact logins. */
  foldProviders?: boolean;
}

export type Via = 'email' | 'login' | 'url' | 'pattern';
export type LineFormat = 'email' | 'login' | 'url' | 'block';
export type PasswordKind = 'plain' | 'hash' | 'none';

export interface HuntMatch {
  companyId: number;
  via: Via[];
  login: string;
  /** The login's email domain (ASCII, lower case), or null for a login that is not an email. */
  domain: string | null;
  /** The URL host (or the Android package) the credential was for. */
  service: string | null;
  /** True when that host is one of the company's domains: a corporate SSO/VPN/mail login page. */
  corporateUrl: boolean;
  format: LineFormat;
  passwordKind: PasswordKind;
  /** Hash algorithm guessed from the form (`md5`, `sha1`, `bcrypt`, …) when passwordKind is hash. */
  hashType: string | null;
  salted: boolean;
  verdict: PasswordVerdict | null;
}

export interface ScanStats {
  bytes: number;
  /** Every line read, blank and too long ones included. */
  lines: number;
  /**
   * Lines parsed one by one, whose shapes give `unrecognized`: all of them on the full parse; with the grep
   * prefilter (prefilter.ts) the sampled ones, and `unrecognized` is then that sample's share of `lines`.
   */
  parsed: number;
  blank: number;
  records: number;
  unrecognized: number;
  tooLong: number;
  matches: number;
  perCompany: Map<number, number>;
  samples: string[];
}

export const MAX_LINE = 64 * 1024;
const MAX_SAMPLES = 20;
/** A stealer-log block's URL and login are kept (copied) up to this many bytes. */
const BLOCK_FIELD = 2048;

// byte classes of the login field
const C_OK = 0;
const C_SEP = 1;
const C_AT = 2;
const C_CTRL = 3;
const C_SPACE = 4;
const CLS = new Uint8Array(256);
for (let i = 0; i < 32; i++) CLS[i] = C_CTRL;
CLS[9] = C_SEP;
CLS[127] = C_CTRL;
for (const c of ':;|,') CLS[c.charCodeAt(0)] = C_SEP;
CLS[64] = C_AT;
CLS[32] = C_SPACE;

const LOWER = new Uint8Array(256);
for (let i = 0; i < 256; i++) LOWER[i] = i >= 65 && i <= 90 ? i + 32 : i;

// host characters: letters, digits, '-', '.', '_' and any non-ASCII byte (IDN in UTF-8)
const HOST = new Uint8Array(256);
for (let i = 0; i < 256; i++)
  HOST[i] =
    (i >= 97 && i <= 122) || (i >= 65 && i <= 90) || (i >= 48 && i <= 57) || i === 45 || i === 46 || i === 95 || i >= 128 ? 1 : 0;

// where a URL's authority stops, and the field separators after a URL
const URL_STOP = new Uint8Array(256);
for (const c of '/?#:|;\t, ') URL_STOP[c.charCodeAt(0)] = 1;
const URL_SEP = new Uint8Array(256);
for (const c of ':|;\t, ') URL_SEP[c.charCodeAt(0)] = 1;

const FNV = 0x811c9dc5 | 0;
const PRIME = 16777619;

/** An open-addressing table of byte strings (lower-case ASCII) by 32-bit FNV-1a hash, each with owners. */
class ByteTable {
  private hashes: Int32Array;
  private slots: Int32Array; // entry index + 1, 0 = empty
  private mask: number;
  readonly entries: Buffer[] = [];
  readonly owners: number[][] = [];
  constructor(expected: number) {
    let cap = 16;
    while (cap < expected * 2) cap <<= 1;
    this.hashes = new Int32Array(cap);
    this.slots = new Int32Array(cap);
    this.mask = cap - 1;
  }
  get size() {
    return this.entries.length;
  }
  add(bytes: Buffer, h: number, owner: number) {
    let i = h & this.mask;
    while (this.slots[i]! !== 0) {
      const e = this.slots[i]! - 1;
      if (this.hashes[i]! === h && this.entries[e]!.equals(bytes)) {
        if (!this.owners[e]!.includes(owner)) this.owners[e]!.push(owner);
        return;
      }
      i = (i + 1) & this.mask;
    }
    if (this.entries.length * 2 >= this.mask) throw new Error('ByteTable full');
    this.entries.push(bytes);
    this.owners.push([owner]);
    this.hashes[i] = h;
    this.slots[i] = this.entries.length;
  }
  /** Entry index of buf[s, e) compared lower-cased, or -1. */
  find(h: number, buf: Uint8Array, s: number, e: number): number {
    let i = h & this.mask;
    for (;;) {
      const slot = this.slots[i]!;
      if (slot === 0) return -1;
      if (this.hashes[i]! === h) {
        const ent = this.entries[slot - 1]!;
        if (ent.length === e - s) {
          let k = 0;
          while (k < ent.length && ent[k]! === LOWER[buf[s + k]!]!) k++;
          if (k === ent.length) return slot - 1;
        }
      }
      i = (i + 1) & this.mask;
    }
  }
}

function hashForward(b: Uint8Array, s: number, e: number): number {
  let h = FNV;
  for (let i = s; i < e; i++) h = Math.imul(h ^ LOWER[b[i]!]!, PRIME);
  return h;
}
function hashBackward(b: Uint8Array, s: number, e: number): number {
  let h = FNV;
  for (let i = e - 1; i >= s; i--) h = Math.imul(h ^ LOWER[b[i]!]!, PRIME);
  return h;
}

/** A host as the table keeps it: lower case, punycode, no trailing dot. Null when it is not a host. */
export function foldHost(host: string): string | null {
  let h = host.trim().replace(/\.+$/, '');
  if (!h) return null;
  try {
    h = unicodeToPunycode(h);
  } catch {
    return null;
  }
  return /^[a-z0-9_.-]+$/.test(h) && !h.startsWith('.') && !h.includes('..') ? h : null;
}

/** Providers that ignore `+tag` in the local part; Gmail also ignores dots. Canonical domain for each. */
const TAG_PROVIDERS: Record<string, string> = {
  'gmail.com': 'gmail.com',
  'googlemail.com': 'gmail.com',
  'outlook.com': 'outlook.com',
  'hotmail.com': 'hotmail.com',
  'live.com': 'live.com',
  'icloud.com': 'icloud.com',
  'me.com': 'icloud.com',
  'yandex.ru': 'yandex.ru',
  'ya.ru': 'yandex.ru',
  'fastmail.com': 'fastmail.com',
  'protonmail.com': 'protonmail.com',
  'proton.me': 'proton.me',
};
const DOT_PROVIDERS = new Set(['gmail.com']);

/** An exact login as the table keeps it: lower case, an email's domain as punycode. */
function normLogin(t: string): string {
  const at = t.lastIndexOf('@');
  const host = at > 0 ? foldHost(t.slice(at + 1)) : null;
  return (at > 0 && host ? `${t.slice(0, at)}@${host}` : t).toLowerCase();
}

/** Every domain of the provider `domain` belongs to when it ignores `+tags` (`me.com` → icloud.com, me.com). */
export function providerDomains(domain: string): string[] {
  const canon = TAG_PROVIDERS[domain.toLowerCase()];
  return canon ? Object.keys(TAG_PROVIDERS).filter((d) => TAG_PROVIDERS[d] === canon) : [];
}

/** `I.Van+work@GoogleMail.com` → `ivan@gmail.com`; other providers' addresses only lower-cased. */
export function foldLogin(login: string): string {
  const l = login.trim().toLowerCase();
  const at = l.lastIndexOf('@');
  if (at < 1) return l;
  const canon = TAG_PROVIDERS[l.slice(at + 1)];
  if (!canon) return l;
  let local = l.slice(0, at);
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  if (DOT_PROVIDERS.has(canon)) local = local.replaceAll('.', '');
  return `${local}@${canon}`;
}

const HASH_FORMS: [RegExp, string][] = [
  [/^\$2[abxy]?\$\d\d\$[./A-Za-z0-9]{53}$/, 'bcrypt'],
  [/^\$argon2(id|i|d)\$/, 'argon2'],
  [/^\$1\$/, 'md5crypt'],
  [/^\$5\$/, 'sha256crypt'],
  [/^\$6\$/, 'sha512crypt'],
  [/^\{SSHA?\d*\}/i, 'ldap'],
  [/^[a-f0-9]{32}$/i, 'md5'],
  [/^[a-f0-9]{40}$/i, 'sha1'],
  [/^[a-f0-9]{56}$/i, 'sha224'],
  [/^[a-f0-9]{64}$/i, 'sha256'],
  [/^[a-f0-9]{96}$/i, 'sha384'],
  [/^[a-f0-9]{128}$/i, 'sha512'],
];
/** Hash type of a secret that looks like one; only the form is read (latin1: no password string is kept). */
function hashTypeOf(buf: Uint8Array, s: number, e: number): string | null {
  const n = e - s;
  if (n < 13 || n > 200) return null;
  const c = buf[s]!;
  // quick refusal: hashes start with '$', '{' or a hex digit
  if (!(c === 36 || c === 123 || (c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70))) return null;
  const text = Buffer.from(buf.buffer, buf.byteOffset + s, n).toString('latin1');
  for (const [re, name] of HASH_FORMS) if (re.test(text)) return name;
  return null;
}

function shapeOf(buf: Uint8Array, s: number, e: number): string {
  const n = Math.min(e - s, 120);
  let out = '';
  for (let i = s; i < s + n; i++) {
    const c = buf[i]!;
    if (c >= 97 && c <= 122) out += 'a';
    else if (c >= 65 && c <= 90) out += 'A';
    else if (c >= 48 && c <= 57) out += '9';
    else if (c < 32 || c >= 127) out += '?';
    else out += String.fromCharCode(c);
  }
  return e - s > n ? `${out}…(${e - s})` : out;
}

const BLOCK_URL = 1;
const BLOCK_LOGIN = 2;
const BLOCK_PASSWORD = 3;
const BLOCK_NOISE = 4;
const BLOCK_KEYS: Record<string, number> = {
  url: BLOCK_URL,
  host: BLOCK_URL,
  hostname: BLOCK_URL,
  site: BLOCK_URL,
  username: BLOCK_LOGIN,
  login: BLOCK_LOGIN,
  user: BLOCK_LOGIN,
  password: BLOCK_PASSWORD,
  pass: BLOCK_PASSWORD,
  soft: BLOCK_NOISE,
  software: BLOCK_NOISE,
  browser: BLOCK_NOISE,
  application: BLOCK_NOISE,
  profile: BLOCK_NOISE,
  storage: BLOCK_NOISE,
};
const MAX_KEY = 11;
const KEY_BYTES = Object.keys(BLOCK_KEYS).map((k) => Buffer.from(k, 'latin1'));
const KEY_KINDS = Object.values(BLOCK_KEYS);

export interface MatcherOptions {
  /** Per-installation HMAC key of password verdicts (`huntKey(SECRET)`). */
  key: Buffer;
  onMatch: (m: HuntMatch) => void;
}

export class HuntMatcher {
  private readonly domains: ByteTable;
  private readonly logins: ByteTable;
  private readonly folded = new Map<string, number[]>();
  private readonly patterns: { re: RegExp; companyId: number }[] = [];
  private readonly key: Buffer;
  private readonly onMatch: (m: HuntMatch) => void;
  private readonly scratch = Buffer.alloc(512);
  private readonly hits: number[] = []; // companyId, viaBits pairs of the current line
  private carry: Buffer | null = null;
  private discarding = false;
  private atStart = true;
  /** Set for a byte range that does not start the file: see `line`. */
  skipOrphans = false;
  // stealer-log block in progress
  private readonly blockUrlBuf = Buffer.alloc(BLOCK_FIELD);
  private readonly blockLoginBuf = Buffer.alloc(BLOCK_FIELD);
  private blockUrlLen = -1;
  private blockLoginLen = -1;
  readonly stats: ScanStats = {
    bytes: 0,
    lines: 0,
    parsed: 0,
    blank: 0,
    records: 0,
    unrecognized: 0,
    tooLong: 0,
    matches: 0,
    perCompany: new Map(),
    samples: [],
  };

  constructor(
    readonly companies: CompanyIdentities[],
    opts: MatcherOptions,
  ) {
    this.key = opts.key;
    this.onMatch = opts.onMatch;
    let nd = 0;
    let nl = 0;
    for (const c of companies) {
      nd += c.domains.length;
      nl += c.logins?.length ?? 0;
    }
    this.domains = new ByteTable(nd);
    this.logins = new ByteTable(nl);
    for (const c of companies) {
      for (const d of c.domains) {
        const h = foldHost(d);
        if (!h) continue;
        const b = Buffer.from(h, 'latin1');
        this.domains.add(b, hashBackward(b, 0, b.length), c.companyId);
      }
      for (const l of c.logins ?? []) {
        const t = l.trim();
        if (!t) continue;
        const at = t.lastIndexOf('@');
        const norm = normLogin(t);
        const b = Buffer.from(norm, 'utf8');
        this.logins.add(b, hashForward(b, 0, b.length), c.companyId);
        if (c.foldProviders && at > 0) {
          const f = foldLogin(norm);
          const owners = this.folded.get(f) ?? [];
          if (!owners.includes(c.companyId)) owners.push(c.companyId);
          this.folded.set(f, owners);
        }
      }
      for (const p of c.patterns ?? []) this.patterns.push({ re: new RegExp(`^(?:${p})$`, 'i'), companyId: c.companyId });
    }
  }

  // ------------------------------------------------------------------ chunks

  /** Feed the next chunk of the dump (any boundaries). */
  feed(chunk: Buffer): void {
    this.stats.bytes += chunk.length;
    let pos = 0;
    if (this.atStart) {
      this.atStart = false;
      if (chunk.length >= 3 && chunk[0]! === 0xef && chunk[1]! === 0xbb && chunk[2]! === 0xbf) pos = 3;
    }
    if (this.carry || this.discarding) {
      const nl = chunk.indexOf(10, pos);
      if (nl < 0) {
        if (this.discarding) return;
        const carry = this.carry as Buffer;
        if (carry.length + chunk.length - pos > MAX_LINE) {
          this.carry = null;
          this.discarding = true;
        } else this.carry = Buffer.concat([carry, chunk.subarray(pos)]);
        return;
      }
      if (this.discarding) {
        this.discarding = false;
        this.tooLongLine();
      } else {
        const carry = this.carry as Buffer;
        if (carry.length + nl - pos > MAX_LINE) this.tooLongLine();
        else {
          const line = Buffer.concat([carry, chunk.subarray(pos, nl)]);
          this.line(line, 0, line.length);
        }
      }
      this.carry = null;
      pos = nl + 1;
    }
    const last = this.scan(chunk, pos, chunk.length);
    if (last < chunk.length) {
      if (chunk.length - last > MAX_LINE) this.discarding = true;
      else this.carry = Buffer.from(chunk.subarray(last)); // copy: the caller may reuse its buffer
    }
  }

  /** The end of the dump: the last line without a newline. */
  end(): ScanStats {
    if (this.discarding) this.tooLongLine();
    else if (this.carry) this.line(this.carry, 0, this.carry.length);
    this.carry = null;
    this.discarding = false;
    this.blockUrlLen = this.blockLoginLen = -1;
    return this.stats;
  }

  /** Whole lines of buf[s, e); returns where the unfinished last line starts. */
  scan(buf: Buffer, s: number, e: number): number {
    let pos = s;
    while (pos < e) {
      let nl = buf.indexOf(10, pos);
      if (nl < 0 || nl >= e) return pos;
      if (nl - pos > MAX_LINE) {
        this.tooLongLine();
      } else {
        this.line(buf, pos, nl);
      }
      pos = nl + 1;
      nl = 0;
    }
    return pos;
  }

  // ------------------------------------------------------------------ one line

  /** One line buf[s, e) without its '\n'. */
  line(buf: Buffer, s: number, e: number): void {
    if (e > s && buf[e - 1]! === 13) e--;
    while (s < e && (buf[s]! === 32 || buf[s]! === 9)) s++;
    if (s === e) {
      this.stats.blank++;
      this.stats.lines++;
      this.stats.parsed++;
      return;
    }
    if (this.skipOrphans) {
      // a byte range's first lines that finish a block begun in the range before: that range read them
      const kind = this.keyKind(buf, s, e);
      if (kind === BLOCK_LOGIN || kind === BLOCK_PASSWORD || kind === BLOCK_NOISE) return;
      this.skipOrphans = false;
    }
    this.stats.lines++;
    this.stats.parsed++;
    // scheme "://" or a stealer-log key "Key: "
    let j = s;
    while (j < e && j - s <= MAX_KEY) {
      const c = buf[j]!;
      if (!((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57 && j > s) || c === 43 || c === 45)) break;
      j++;
    }
    if (j > s && j < e && buf[j]! === 58) {
      if (j + 2 < e && buf[j + 1]! === 47 && buf[j + 2]! === 47) {
        this.urlLine(buf, s, j + 3, e);
        return;
      }
      if (j + 1 === e || buf[j + 1]! === 32) {
        const kind = this.blockKey(buf, s, j);
        if (kind) {
          this.blockLine(kind, buf, Math.min(j + 2, e), e);
          return;
        }
      }
    }
    const c0 = buf[s]!;
    if (c0 === 61 || c0 === 45 || c0 === 42 || c0 === 35) {
      // ===== / ----- / ***** dividers of stealer logs, # comments
      let k = s;
      while (k < e && buf[k]! === c0) k++;
      if (k - s >= 3 || c0 === 35) {
        this.stats.records++;
        return;
      }
    }
    this.credLine(buf, s, e);
  }

  /** The stealer-log key of the line buf[s, e) (`Username: …` → BLOCK_LOGIN), 0 when it is not a key line. */
  keyKind(buf: Buffer, s: number, e: number): number {
    while (s < e && (buf[s]! === 32 || buf[s]! === 9)) s++;
    let j = s;
    while (j < e && j - s <= MAX_KEY && ((buf[j]! >= 97 && buf[j]! <= 122) || (buf[j]! >= 65 && buf[j]! <= 90))) j++;
    if (j === s || j >= e || buf[j]! !== 58 || (j + 1 < e && buf[j + 1]! !== 32 && buf[j + 1]! !== 13)) return 0;
    return this.blockKey(buf, s, j);
  }

  private tooLongLine(): void {
    this.stats.tooLong++;
    this.stats.lines++;
    this.stats.parsed++;
  }

  /** Forgets a stealer-log block in progress: the next line does not follow the last one (prefilter gaps). */
  breakBlock(): void {
    this.blockUrlLen = this.blockLoginLen = -1;
  }

  /** True while a stealer-log block has its URL or login but not yet its password. */
  get inBlock(): boolean {
    return this.blockUrlLen >= 0 || this.blockLoginLen >= 0;
  }

  /** A line that continues a block (login, password, `Soft:`…), as opposed to one that starts one. */
  isContinuation(buf: Buffer, s: number, e: number): boolean {
    const k = this.keyKind(buf, s, e);
    return k === BLOCK_LOGIN || k === BLOCK_PASSWORD || k === BLOCK_NOISE;
  }

  private blockKey(buf: Uint8Array, s: number, e: number): number {
    const n = e - s;
    if (n > MAX_KEY) return 0;
    for (let k = 0; k < KEY_BYTES.length; k++) {
      const key = KEY_BYTES[k]!;
      if (key.length !== n || key[0]! !== LOWER[buf[s]!]!) continue;
      let i = 1;
      while (i < n && key[i]! === LOWER[buf[s + i]!]!) i++;
      if (i === n) return KEY_KINDS[k]!;
    }
    return 0;
  }

  private blockLine(kind: number, buf: Buffer, s: number, e: number): void {
    this.stats.records++;
    while (s < e && buf[s]! === 32) s++;
    if (kind === BLOCK_URL) {
      this.blockUrlLen = Math.min(e - s, BLOCK_FIELD);
      buf.copy(this.blockUrlBuf, 0, s, s + this.blockUrlLen);
      this.blockLoginLen = -1;
    } else if (kind === BLOCK_LOGIN) {
      this.blockLoginLen = Math.min(e - s, BLOCK_FIELD);
      buf.copy(this.blockLoginBuf, 0, s, s + this.blockLoginLen);
    } else if (kind === BLOCK_PASSWORD) {
      const urlLen = this.blockUrlLen;
      const loginLen = this.blockLoginLen;
      this.blockUrlLen = this.blockLoginLen = -1;
      if (loginLen <= 0) return;
      // a block's URL may lack a scheme ("Host: vpn.sber.ru")
      const hits = this.hits;
      hits.length = 0;
      let host: [number, number] | null = null;
      if (urlLen > 0) host = this.urlHost(this.blockUrlBuf, 0, urlLen, hits);
      this.loginHits(this.blockLoginBuf, 0, loginLen, hits);
      if (hits.length > 0) this.emit('block', this.blockLoginBuf, 0, loginLen, this.blockUrlBuf, host, buf, s, e, false);
    }
  }

  /** `url<sep>login<sep>password`; p is just after "://". */
  private urlLine(buf: Buffer, s: number, p: number, e: number): void {
    // authority ends at '/', '?', '#', ':' or a field separator
    let k = p;
    while (k < e && URL_STOP[buf[k]!]! === 0) k++;
    // a port: ":digits" followed by '/', a separator other than ':', or ':' with one more ':' after it
    if (k < e && buf[k]! === 58) {
      let d = k + 1;
      while (d < e && buf[d]! >= 48 && buf[d]! <= 57) d++;
      if (d > k + 1 && d - k - 1 <= 5 && d < e) {
        const c = buf[d]!;
        if (c === 47 || (c !== 58 && URL_SEP[c]! === 1)) k = d;
        else if (c === 58) {
          const n2 = buf.indexOf(58, d + 1);
          if (n2 > 0 && n2 < e) k = d;
        }
      }
    }
    // the URL ends at the first field separator: ':' '|' ';' tab ',' space
    let urlEnd = k;
    while (urlEnd < e && URL_SEP[buf[urlEnd]!]! === 0) urlEnd++;
    if (urlEnd >= e) {
      this.unrecognized(buf, s, e);
      return;
    }
    const sep = buf[urlEnd]!;
    const ls = urlEnd + 1;
    let le = buf.indexOf(sep, ls);
    if (le < 0 || le > e) le = e;
    if (le === ls) {
      this.unrecognized(buf, s, e);
      return;
    }
    this.stats.records++;
    const hits = this.hits;
    hits.length = 0;
    const host = this.urlHost(buf, s, urlEnd, hits);
    this.loginHits(buf, ls, le, hits);
    if (hits.length > 0) this.emit('url', buf, ls, le, buf, host, buf, Math.min(le + 1, e), e, false);
  }

  /**
   * The host of a URL in buf[s, e) (scheme optional), looked up as a company domain; adds url hits.
   * Returns the host range relative to buf, or null. Android: `android://HASH@com.bank.app/` → the package,
   * read right to left as a host (`app.bank.com` finds `bank.com`).
   */
  private urlHost(buf: Uint8Array, s: number, e: number, hits: number[]): [number, number] | null {
    let p = s;
    let dss = -1;
    for (let i = s; i + 2 < e && i - s <= 16; i++)
      if (buf[i]! === 58) {
        if (buf[i + 1]! === 47 && buf[i + 2]! === 47) dss = i;
        break;
      }
    const android = dss - s === 7 && LOWER[buf[s]!]! === 97 && LOWER[buf[s + 1]!]! === 110;
    if (dss >= 0) p = dss + 3;
    let hs = p;
    let k = p;
    while (k < e) {
      const c = buf[k]!;
      if (c === 64) hs = k + 1;
      else if (c === 47 || c === 63 || c === 35 || c === 58) break;
      k++;
    }
    if (k <= hs) return null;
    if (android) {
      // reverse the labels into the scratch buffer
      const n = k - hs;
      if (n > this.scratch.length) return null;
      let w = 0;
      let end = k;
      for (let i = k - 1; i >= hs - 1; i--) {
        if (i < hs || buf[i]! === 46) {
          if (w > 0) this.scratch[w++] = 46;
          this.scratch.set(buf.subarray(i + 1, end), w);
          w += end - i - 1;
          end = i;
        }
      }
      this.suffixHits(this.scratch, 0, w, 4, hits);
    } else this.suffixHits(buf, hs, k, 4, hits);
    return [hs, k];
  }

  /** login:password / email:password / email;hash / email:hash:salt / email alone. */
  private credLine(buf: Buffer, s: number, e: number): void {
    let ls = s;
    let k = s;
    let at = -1;
    let space = -1;
    let sepAt = -1;
    if (buf[s]! === 34) {
      // "quoted","csv"
      ls = s + 1;
      const q = buf.indexOf(34, ls);
      if (q < 0 || q >= e) {
        this.unrecognized(buf, s, e);
        return;
      }
      for (let i = ls; i < q; i++) if (buf[i]! === 64) at = i;
      k = q;
      sepAt = q + 1 < e && CLS[buf[q + 1]!]! === C_SEP ? q + 1 : -1;
      if (sepAt < 0 && q + 1 !== e) {
        this.unrecognized(buf, s, e);
        return;
      }
    } else {
      for (; k < e; k++) {
        const cls = CLS[buf[k]!]!;
        if (cls === C_OK) continue;
        if (cls === C_SEP) {
          sepAt = k;
          break;
        }
        if (cls === C_AT) at = k;
        else if (cls === C_SPACE) {
          if (space < 0) space = k;
        } else {
          this.unrecognized(buf, s, e);
          return;
        }
      }
      if (sepAt < 0 && space > 0) {
        // "email password": a space is the separator only when there is no other
        k = space;
        sepAt = space;
        at = buf.lastIndexOf(64, space);
        if (at < s) at = -1;
      } else if (space > 0) {
        this.unrecognized(buf, s, e); // a login with a space in it
        return;
      }
    }
    const le = k;
    if (le === ls || le - ls > 320) {
      this.unrecognized(buf, s, e);
      return;
    }
    if (sepAt < 0 && at < 0) {
      this.unrecognized(buf, s, e); // a lone word
      return;
    }
    if (at >= 0 && (at === ls || at === le - 1)) {
      this.unrecognized(buf, s, e);
      return;
    }
    this.stats.records++;
    const hits = this.hits;
    hits.length = 0;
    this.loginHits(buf, ls, le, hits);
    if (hits.length === 0) return;
    let ps = sepAt < 0 ? e : sepAt + 1;
    let pe = e;
    if (ps < e && buf[ps]! === 34 && buf[e - 1]! === 34) {
      ps++;
      pe--;
    }
    this.emit(at >= 0 ? 'email' : 'login', buf, ls, le, null, null, buf, ps, pe, true);
  }

  /** Company hits of a login: email domain suffixes, exact logins, folded logins, login patterns. */
  private loginHits(buf: Uint8Array, s: number, e: number, hits: number[]): void {
    let at = -1;
    for (let i = e - 1; i >= s; i--)
      if (buf[i]! === 64) {
        at = i;
        break;
      }
    if (at >= 0) this.suffixHits(buf, at + 1, e, 1, hits);
    if (this.logins.size > 0) {
      let ascii = true;
      for (let i = s; i < e; i++)
        if (buf[i]! >= 128) {
          ascii = false;
          break;
        }
      if (ascii) {
        const idx = this.logins.find(hashForward(buf, s, e), buf, s, e);
        if (idx >= 0) for (const c of this.logins.owners[idx]!) addHit(hits, c, 2);
      } else {
        // non-ASCII (rare): folded as the exact logins were — Unicode lower case, the domain as punycode
        const b = Buffer.from(normLogin(Buffer.from(buf.buffer, buf.byteOffset + s, e - s).toString('utf8')), 'utf8');
        const idx = this.logins.find(hashForward(b, 0, b.length), b, 0, b.length);
        if (idx >= 0) for (const c of this.logins.owners[idx]!) addHit(hits, c, 2);
      }
    }
    if (this.folded.size > 0 && at > s) {
      const domain = Buffer.from(buf.buffer, buf.byteOffset + at + 1, e - at - 1)
        .toString('latin1')
        .toLowerCase();
      if (TAG_PROVIDERS[domain]) {
        const f = foldLogin(Buffer.from(buf.buffer, buf.byteOffset + s, e - s).toString('utf8'));
        for (const c of this.folded.get(f) ?? []) addHit(hits, c, 2);
      }
    }
    if (this.patterns.length > 0 && at < 0) {
      const text = Buffer.from(buf.buffer, buf.byteOffset + s, e - s).toString('utf8');
      for (const p of this.patterns) if (p.re.test(text)) addHit(hits, p.companyId, 8);
    }
  }

  /** Looks every label suffix of the host buf[s, e) up in the domain table. */
  private suffixHits(buf: Uint8Array, s: number, e: number, via: number, hits: number[]): void {
    if (e - s > 253 || e <= s) return;
    let h = FNV;
    for (let i = e - 1; i >= s; i--) {
      const c = buf[i]!;
      if (HOST[c]! === 0) return; // not a host
      if (c >= 128) {
        this.idnHits(buf, s, e, via, hits);
        return;
      }
      h = Math.imul(h ^ LOWER[c]!, PRIME);
      if (i === s || buf[i - 1]! === 46) {
        const idx = this.domains.find(h, buf, i, e);
        if (idx >= 0) for (const c2 of this.domains.owners[idx]!) addHit(hits, c2, via);
      }
    }
  }

  /** A host with non-ASCII bytes: folded to punycode, then looked up (rare: made strings are fine). */
  private idnHits(buf: Uint8Array, s: number, e: number, via: number, hits: number[]): void {
    const host = foldHost(Buffer.from(buf.buffer, buf.byteOffset + s, e - s).toString('utf8'));
    if (!host) return;
    const b = Buffer.from(host, 'latin1');
    this.suffixHits(b, 0, b.length, via, hits);
  }

  private emit(
    format: LineFormat,
    lbuf: Uint8Array,
    ls: number,
    le: number,
    hostBuf: Uint8Array | null,
    host: [number, number] | null,
    pbuf: Buffer,
    ps: number,
    pe: number,
    splitSalt: boolean,
  ): void {
    const login = Buffer.from(lbuf.buffer, lbuf.byteOffset + ls, le - ls).toString('utf8');
    const at = login.lastIndexOf('@');
    const domain = at >= 0 ? foldHost(login.slice(at + 1)) : null;
    let service: string | null = null;
    if (hostBuf && host) {
      const raw = Buffer.from(hostBuf.buffer, hostBuf.byteOffset + host[0], host[1] - host[0]).toString('utf8');
      service = foldHost(raw) ?? raw.toLowerCase();
    }
    // the secret: password, hash, or hash:salt
    let passwordKind: PasswordKind = pe > ps ? 'plain' : 'none';
    let hashType: string | null = null;
    let salted = false;
    let he = pe;
    if (passwordKind === 'plain') {
      hashType = hashTypeOf(pbuf, ps, pe);
      if (!hashType && splitSalt) {
        const sep = pbuf.indexOf(58, ps);
        if (sep > ps && sep < pe) {
          hashType = hashTypeOf(pbuf, ps, sep);
          if (hashType) {
            salted = true;
            he = sep;
          }
        }
      }
      if (hashType) passwordKind = 'hash';
    }
    const verdict = passwordKind === 'none' ? null : verdictOf(this.key, pbuf, ps, he, passwordKind === 'hash');
    const hits = this.hits;
    for (let i = 0; i < hits.length; i += 2) {
      const bits = hits[i + 1]!;
      const via: Via[] = [];
      if (bits & 1) via.push('email');
      if (bits & 2) via.push('login');
      if (bits & 4) via.push('url');
      if (bits & 8) via.push('pattern');
      this.stats.matches++;
      this.stats.perCompany.set(hits[i]!, (this.stats.perCompany.get(hits[i]!) ?? 0) + 1);
      this.onMatch({
        companyId: hits[i]!,
        via,
        login,
        domain,
        service,
        corporateUrl: (bits & 4) !== 0,
        format,
        passwordKind,
        hashType,
        salted,
        verdict,
      });
    }
  }

  private unrecognized(buf: Uint8Array, s: number, e: number): void {
    this.stats.unrecognized++;
    if (this.stats.samples.length < MAX_SAMPLES) this.stats.samples.push(shapeOf(buf, s, e));
  }
}

function addHit(hits: number[], companyId: number, via: number): void {
  for (let i = 0; i < hits.length; i += 2)
    if (hits[i]! === companyId) {
      hits[i + 1] = hits[i + 1]! | via;
      return;
    }
  hits.push(companyId, via);
}
