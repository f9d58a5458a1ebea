/*
 * CEF (ArcSight Common Event Format, rev. 25) inside RFC 5424 syslog, framed by octet counting (RFC
 * 6587 §3.4.1) — what the syslog outputs send. Pure functions: formatting, escaping, and the parser the
 * tests read rsyslog's file back with.
 *
 * Escaping (CEF): in the header `\` → `\\` and `|` → `\|` (a newline is no part of a header: a space);
 * in extension values `\` → `\\`, `=` → `\=`, CR/LF → `\r`/`\n`. Extension keys are fixed ASCII names.
 */
import { outboxTypeLabel } from '@forpost/contract/integrations';

export const CEF_VENDOR = 'Forpost';
export const CEF_PRODUCT = 'Forpost';

/** Event priority level (1 low … 4 critical) → CEF severity 0–10; no priority: 3. */
export function cefSeverity(level: number | null | undefined): number {
  switch (level) {
    case 1:
      return 3;
    case 2:
      return 5;
    case 3:
      return 8;
    case 4:
      return 10;
    default:
      return level && level > 4 ? 10 : 3;
  }
}

/** CEF severity → syslog severity (RFC 5424 §6.2.1: 0 emergency … 7 debug). */
export function syslogSeverity(cef: number): number {
  if (cef >= 9) return 2; // critical
  if (cef >= 7) return 3; // error
  if (cef >= 4) return 4; // warning
  return 5; // notice
}

export const escapeHeader = (s: string) => s.replace(/[\\|]/g, (c) => `\\${c}`).replace(/\r\n|[\r\n]/g, ' ');
export const escapeExtension = (s: string) =>
  s.replace(/[\\=\r\n]/g, (c) => (c === '\r' ? '\\r' : c === '\n' ? '\\n' : `\\${c}`));

export interface CefRecord {
  version: string;
  signature: string;
  name: string;
  severity: number;
  extensions: [string, string][];
}

export function formatCef(r: CefRecord): string {
  const head = ['CEF:0', CEF_VENDOR, CEF_PRODUCT, r.version, r.signature, r.name, String(r.severity)].map((v, i) =>
    i === 0 ? v : escapeHeader(v),
  );
  const ext = r.extensions.map(([k, v]) => `${k}=${escapeExtension(v)}`).join(' ');
  return `${head.join('|')}|${ext}`;
}

/** What an outbox message becomes in CEF. */
export interface OutboxMessageView {
  id: number;
  type: string;
  createdAt: Date;
  priorityLevel: number | null;
  payload: Record<string, unknown>;
}

const str = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v));
const named = (v: unknown) => (v && typeof v === 'object' && 'name' in v ? str((v as { name: unknown }).name) : '');

export function cefOf(m: OutboxMessageView, version: string): CefRecord {
  const p = m.payload;
  const ext: [string, string][] = [
    ['rt', String(m.createdAt.getTime())],
    ['externalId', `msg_${m.id}`],
  ];
  const add = (k: string, v: unknown) => {
    const s = str(v);
    if (s !== '') ext.push([k, s]);
  };
  add('cat', p.module);
  add('msg', p.title ?? p.text);
  add('cn1', p.event_id);
  if (p.event_id !== undefined) ext.push(['cn1Label', 'Событие']);
  if (p.company !== undefined) ext.push(['cs1Label', 'Компания'], ['cs1', str(p.company)]);
  if (p.status) ext.push(['cs2Label', 'Статус'], ['cs2', named(p.status)]);
  if (p.priority) ext.push(['cs3Label', 'Приоритет'], ['cs3', named(p.priority)]);
  if (p.decision) ext.push(['cs4Label', 'Решение'], ['cs4', named(p.decision)]);
  if (p.change && typeof p.change === 'object') {
    const c = p.change as { before_name?: unknown; after_name?: unknown; kind?: unknown };
    ext.push(['cs5Label', 'Изменение'], ['cs5', [str(c.before_name), str(c.after_name ?? c.kind)].filter(Boolean).join(' → ')]);
  }
  add('request', p.url);
  return { version, signature: m.type, name: outboxTypeLabel(m.type), severity: cefSeverity(m.priorityLevel), extensions: ext };
}

/** RFC 5424 line: `<PRI>1 TIMESTAMP HOST APP PROCID MSGID - MSG` (no structured data; MSG is the CEF). */
export function syslogLine(o: {
  facility: number;
  severity: number;
  at: Date;
  host: string;
  msgId: string;
  msg: string;
}): string {
  const pri = o.facility * 8 + o.severity;
  const token = (s: string) => s.replace(/[^\x21-\x7e]/g, '').slice(0, 48) || '-';
  return `<${pri}>1 ${o.at.toISOString()} ${token(o.host).slice(0, 255)} forpost ${process.pid} ${token(o.msgId).slice(0, 32)} - ${o.msg}`;
}

/** RFC 6587 octet counting: `LEN SP MSG`, LEN in bytes of UTF-8. */
export const octetFrame = (line: string) => {
  const b = Buffer.from(line, 'utf8');
  return Buffer.concat([Buffer.from(`${b.length} `), b]);
};

/** Parses a CEF line back (tests, and anyone checking what a SIEM gets). */
export function parseCef(line: string): CefRecord & { vendor: string; product: string } {
  if (!line.startsWith('CEF:0|')) throw new Error(`not CEF: ${line.slice(0, 40)}`);
  const fields: string[] = [];
  let cur = '';
  let i = 'CEF:0|'.length;
  while (fields.length < 6) {
    const c = line[i];
    if (c === undefined) throw new Error('short CEF header');
    if (c === '\\') {
      cur += line[i + 1] ?? '';
      i += 2;
    } else if (c === '|') {
      fields.push(cur);
      cur = '';
      i++;
    } else {
      cur += c;
      i++;
    }
  }
  const rest = line.slice(i);
  const extensions: [string, string][] = [];
  // key=value pairs: a key is [A-Za-z0-9_.]+ before an unescaped '='; a value runs to the next ' key='.
  const re = /(?:^|\s)([A-Za-z0-9_.]+)=/g;
  const starts: { key: string; at: number; valueAt: number }[] = [];
  let m: RegExpExecArray | null;
  // biome-ignore lint/suspicious/noAssignInExpressions: a regexp walk
  while ((m = re.exec(rest))) {
    // an '=' preceded by an odd run of backslashes is escaped: not a key
    let bs = 0;
    for (let j = m.index + m[0].length - 2; j >= 0 && rest[j] === '\\'; j--) bs++;
    if (bs % 2) continue;
    if (starts.length && isEscapedContext(rest, m.index)) continue;
    starts.push({ key: m[1] as string, at: m.index, valueAt: m.index + m[0].length });
  }
  for (let k = 0; k < starts.length; k++) {
    const s = starts[k] as (typeof starts)[number];
    const end = k + 1 < starts.length ? (starts[k + 1] as (typeof starts)[number]).at : rest.length;
    extensions.push([s.key, unescapeExtension(rest.slice(s.valueAt, end))]);
  }
  const [vendor, product, version, signature, name, severity] = fields as [string, string, string, string, string, string];
  return { vendor, product, version, signature, name, severity: Number(severity), extensions };
}

/** Is position `at` (a space before a would-be key) inside an escape (the space is preceded by a lone backslash)? */
function isEscapedContext(s: string, at: number): boolean {
  let bs = 0;
  for (let j = at - 1; j >= 0 && s[j] === '\\'; j--) bs++;
  return bs % 2 === 1;
}

export function unescapeExtension(s: string): string {
  return s.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c === 'r' ? '\r' : c));
}
