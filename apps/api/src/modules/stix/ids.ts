/*
 * STIX 2.1 identifiers (spec §2.9): SCO ids are UUIDv5 in the STIX namespace over the canonical JSON
 * (RFC 8785, JCS) of the object's ID-contributing properties, so the same domain, URL or address gets
 * the same id from every export and every instance. Objects that stand for one event (its SDO, its
 * indicator, their relationships) get ids from the instance's own namespace and the event id: the
 * last 12 hex digits are the event id, so an id found in a TAXII request leads back to its event.
 */
import { createHash } from 'node:crypto';

/** The STIX 2.1 namespace for SCO ids (spec §2.9). */
export const STIX_NAMESPACE = '00abedb4-aa42-466c-9c01-fed23315a9b7';

const hex = (b: Buffer) => b.toString('hex');
const uuidBytes = (u: string) => Buffer.from(u.replaceAll('-', ''), 'hex');
const format = (h: string) => `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;

/** RFC 4122 UUID version 5 (SHA-1) of `name` in `namespace`. */
export function uuidv5(namespace: string, name: string): string {
  const h = createHash('sha1').update(uuidBytes(namespace)).update(name, 'utf8').digest().subarray(0, 16);
  h[6] = ((h[6] ?? 0) & 0x0f) | 0x50;
  h[8] = ((h[8] ?? 0) & 0x3f) | 0x80;
  return format(hex(h));
}

/**
 * RFC 8785 canonical JSON for the values STIX ids are made of (strings, integers, arrays, objects):
 * keys sorted by UTF-16 code units, no whitespace, strings as JSON.stringify writes them (which is
 * JCS's escaping), integers in their shortest form.
 */
export function canonicalJson(v: unknown): string {
  if (v === null || typeof v === 'boolean' || typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new Error('canonical JSON: not a finite number');
    return JSON.stringify(v);
  }
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (typeof v === 'object') {
    const keys = Object.keys(v as object)
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((v as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  throw new Error(`canonical JSON: unsupported ${typeof v}`);
}

/** ID-contributing properties per SCO type (spec §2.9 and each object's «ID Contributing Properties»). */
export const SCO_ID_PROPERTIES = {
  'domain-name': ['value'],
  'ipv4-addr': ['value'],
  'ipv6-addr': ['value'],
  url: ['value'],
  'email-addr': ['value'],
  'user-account': ['account_type', 'user_id', 'account_login'],
  'network-traffic': ['start', 'end', 'src_ref', 'dst_ref', 'src_port', 'dst_port', 'protocols', 'extensions'],
} as const;
export type ScoType = keyof typeof SCO_ID_PROPERTIES;

/** `<type>--<UUIDv5>` of an SCO with these properties (only the contributing ones count). */
export function scoId(type: ScoType, props: Record<string, unknown>): string {
  const picked: Record<string, unknown> = {};
  for (const k of SCO_ID_PROPERTIES[type]) if (props[k] !== undefined) picked[k] = props[k];
  return `${type}--${uuidv5(STIX_NAMESPACE, canonicalJson(picked))}`;
}

/** UUIDv5 of names that repeat for every event (type and role heads, identities, the extension), remembered. */
const repeated = new Map<string, string>();
function uuidv5Repeated(namespace: string, name: string): string {
  const key = `${namespace}|${name}`;
  let v = repeated.get(key);
  if (v === undefined) {
    if (repeated.size >= 10_000) repeated.clear();
    v = uuidv5(namespace, name);
    repeated.set(key, v);
  }
  return v;
}

/** The largest event id an id can carry (12 hex digits). */
const MAX_EVENT_ID = 0xffff_ffff_ffff;

/**
 * `<type>--<uuid>` of an object that stands for event `eventId` (`role` tells several objects of one
 * type apart, e.g. two relationships): version-5 form whose first 20 hex digits come from the instance
 * namespace, type and role, and whose last 12 are the event id.
 */
export function eventObjectId(namespace: string, type: string, role: string, eventId: number): string {
  if (!Number.isSafeInteger(eventId) || eventId < 0 || eventId > MAX_EVENT_ID) throw new Error('event id out of range');
  // Roles of relationships name their ends (unique per event): only the fixed roles are remembered.
  const name = `${type}:${role}`;
  const head = (role.includes('--') ? uuidv5(namespace, name) : uuidv5Repeated(namespace, name)).replaceAll('-', '').slice(0, 20);
  return `${type}--${format(head + eventId.toString(16).padStart(12, '0'))}`;
}

/** The event id an event object's id carries, or null (not such an id). */
export function eventIdOf(id: string): number | null {
  const m = /--[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-([0-9a-f]{12})$/.exec(id);
  return m?.[1] ? Number.parseInt(m[1], 16) : null;
}

/** `<type>--<UUIDv5>` of anything else stable in the instance's namespace (the company's identity, the extension). */
export const namedId = (namespace: string, type: string, name: string) => `${type}--${uuidv5Repeated(namespace, name)}`;
