/*
 * Building blocks of the fuzz suite (fuzz.test.ts): fast-check arbitraries built from the
 * OpenAPI document's JSON Schemas (valid-looking values, then mutated), the catalogue of hostile
 * values, the wire encoding of a case (path, query, body, content type), the checks every
 * response must pass, and a row-count snapshot of the application tables.
 */

import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { setupApp, type TestContext } from './helpers';

// biome-ignore lint/suspicious/noExplicitAny: JSON Schema objects are open-ended
export type Schema = Record<string, any>;

// ---------------------------------------------------------------------------
// The app, with its error log captured (setupApp builds it with logger: false)
// ---------------------------------------------------------------------------

export interface LogLine {
  level: number;
  msg?: string;
  err?: { type?: string; message?: string; stack?: string; code?: string; query?: string; params?: unknown };
  [k: string]: unknown;
}

/**
 * As setupApp, but the server's error/warn log goes to `logs`, so a 5xx can be reported with the
 * server's own error (message and the top of the stack).
 */
export async function setupFuzzApp(env: Record<string, string> = {}): Promise<TestContext & { logs: LogLine[] }> {
  const logs: LogLine[] = [];
  const ctx = await setupApp(
    { LOG_LEVEL: 'warn', ...env },
    {
      level: 'warn',
      stream: {
        write(line: string) {
          try {
            logs.push(JSON.parse(line) as LogLine);
          } catch {
            logs.push({ level: 50, msg: line });
          }
          if (logs.length > 2000) logs.splice(0, 1000);
        },
      },
    },
  );
  return { ...ctx, logs };
}

// ---------------------------------------------------------------------------
// Raw JSON fragments (deep nesting without building 5000-deep JS objects) and the body encoder
// ---------------------------------------------------------------------------

/** A piece of JSON text spliced verbatim into the encoded body. */
export class RawJson {
  constructor(
    readonly text: string,
    readonly label: string,
  ) {}
  toString() {
    return this.label;
  }
}

/** JSON.stringify that splices RawJson fragments in; lone surrogates and NUL come out as \u escapes (as a client would send them). */
function encodeJson(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_k, v) => {
    if (v instanceof RawJson) {
      raws.push(v.text);
      return `\u0001RAW${raws.length - 1}\u0001`;
    }
    return v;
  });
  if (text === undefined) return '';
  return text.replace(/"\\u0001RAW(\d+)\\u0001"/g, (_m, i: string) => raws[Number(i)] ?? 'null');
}

/** The same value as a readable one-line description for reports (long strings and raw fragments shortened). */
export function describeValue(value: unknown, max = 300): string {
  const text = JSON.stringify(value, (_k, v) => {
    if (v instanceof RawJson) return `<${v.label}>`;
    if (typeof v === 'string' && v.length > 60) return `<${v.length} chars: ${JSON.stringify(v.slice(0, 20)).slice(1, -1)}…>`;
    return v;
  });
  const t = text ?? String(value);
  return t.length > max ? `${t.slice(0, max)}…` : t;
}

// ---------------------------------------------------------------------------
// Hostile values
// ---------------------------------------------------------------------------

/** Markers of the long strings (the response must never contain a run of them). */
const LONG_UNIT = 'Жz';
const LONG_1M = LONG_UNIT.repeat(512 * 1024); // 1 Mi chars, ~1.5 MB as UTF-8
export const LONG_100K = LONG_UNIT.repeat(50_000);
export const LONG_5K = LONG_UNIT.repeat(2_500);
const LONG_ECHO = LONG_UNIT.repeat(100);

const DEEP_ARRAY = new RawJson(`${'['.repeat(5000)}${']'.repeat(5000)}`, 'array nested 5000 deep');
const DEEP_OBJECT = new RawJson(`${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`, 'object nested 5000 deep');
const DEEP_MIXED = new RawJson(`${'[{"a":'.repeat(2500)}null${'}]'.repeat(2500)}`, 'array/object nested 5000 deep');

/** An object that really has an own `__proto__` key (JSON.parse makes one; JSON.stringify keeps it). */
const protoObject = () => JSON.parse('{"__proto__":{"polluted":"yes","is_admin":true,"role":"SUPER_ADMIN"}}') as object;
const ctorObject = () => JSON.parse('{"constructor":{"prototype":{"polluted":"yes"}}}') as object;

/** Strings that break naive code: NUL, lone surrogates, huge, numeric-looking, injection-looking, lists. */
const BAD_TEXT = [
  '\u0000',
  'a\u0000b',
  'fz\u0000nul',
  '\udc00',
  '\ud800',
  'fz\udc00lone',
  'fz\ud800lone',
  '\ud800\ud800',
  '\udfff\ud800',
];
export const HOSTILE_STRINGS: string[] = [
  ...BAD_TEXT,
  '',
  ' ',
  '\t\r\n',
  '__proto__',
  'constructor',
  'prototype',
  '1e3',
  ' 1',
  '0x10',
  '-0',
  'NaN',
  'Infinity',
  '2147483648',
  '9007199254740993',
  '-1',
  'true',
  'null',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '%',
  '%00',
  '%C0%AE',
  '../../../../etc/passwd',
  'fz\r\nX-Injected: 1',
  '\u202eevil',
  '\ufeffbom',
  '😀'.repeat(20),
  'Ж',
  ',',
  '1,,x',
  ',,,,',
  '{"__proto__":{"polluted":1}}',
  `${'['.repeat(3000)}${']'.repeat(3000)}`,
  LONG_5K,
];
const HUGE_STRINGS = [LONG_100K, LONG_1M];

/** Integers out of every range: PostgreSQL int4/int8 edges, beyond 2^53, negative, zero. */
const HOSTILE_NUMBERS = [
  0,
  -1,
  2 ** 31 - 1,
  2 ** 31,
  2 ** 32,
  2 ** 53 - 1,
  2 ** 53,
  2 ** 53 + 2,
  -(2 ** 53),
  2 ** 63,
  1e308,
  -1e308,
  1.5,
  1e-7,
];

/** Path-parameter values of an id. */
export const HOSTILE_IDS = [
  '0',
  '-1',
  '2147483647',
  '2147483648',
  '4294967296',
  '9007199254740991',
  '9007199254740992',
  '9007199254740994',
  '99999999999999999999999',
  'abc',
  '1e3',
  ' 1',
  '1 ',
  '01',
  '0x1F',
  '1.5',
  '+1',
  '１',
  'NaN',
  'Infinity',
  '-0',
  'null',
  '__proto__',
  'constructor',
  '\u0000',
  '1\u0000',
  'x'.repeat(300),
];
/** Raw (already percent-encoded, possibly invalid) path/query fragments. */
export const RAW_FRAGMENTS = ['%', '%zz', '%C0%AE', '%ED%A0%80', '%ED%B0%80', '%00', '%FF%FE', '%E0%A4%A'];

/** Bad comma-joined arrays for list filters in query strings. */
export const BAD_LISTS = [
  '1,,x',
  ',',
  ',,,',
  '1,2,',
  ',1',
  'x,y',
  '1;2',
  '1,-1',
  '0,2147483648',
  '9007199254740993,1',
  '1e3,2',
  ' 1, 2',
  Array.from({ length: 5000 }, (_, i) => i + 1).join(','),
  '1,'.repeat(3000),
];

export const hostileLeaf: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 1, arbitrary: fc.constantFrom(...HUGE_STRINGS) },
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_NUMBERS) },
  { weight: 2, arbitrary: fc.constantFrom<unknown>(true, false, null, [], {}, [null], { '': null }, [[[]]]) },
  { weight: 2, arbitrary: fc.constantFrom(DEEP_ARRAY, DEEP_OBJECT, DEEP_MIXED) },
  { weight: 2, arbitrary: fc.constantFrom(0, 1).map((i) => (i ? ctorObject() : protoObject())) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

/** Object keys that break naive code. */
const HOSTILE_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '',
  'a\u0000b',
  '\udc00',
  'fz_unknown_field',
  'x'.repeat(5000),
];

// ---------------------------------------------------------------------------
// JSON Schema → valid-looking values
// ---------------------------------------------------------------------------

export interface Hints {
  /** Integer values worth trying for a property of this name (e.g. a live company id). */
  ints: Record<string, number[]>;
}

const CYR = ['Альфа', 'Бета', 'Тест', 'проверка', 'Домен', 'утечка', 'ООО «Ромашка»', 'Иванов И. И.'];

export class SchemaArbs {
  constructor(
    private doc: Schema,
    readonly hints: Hints,
  ) {}

  deref(s: Schema | undefined): Schema {
    let cur = s ?? {};
    for (let i = 0; i < 20 && cur.$ref; i++) {
      const name = String(cur.$ref).split('/').pop() ?? '';
      cur = this.doc.components?.schemas?.[name] ?? {};
    }
    return cur;
  }

  /** A value that follows `schema` (as far as the JSON Schema says; checks beyond it are the server's). */
  valid(schema: Schema | undefined, name = '', depth = 0): fc.Arbitrary<unknown> {
    const s = this.deref(schema);
    if (depth > 7) return fc.constant(null);
    if ('const' in s) return fc.constant(s.const);
    if (Array.isArray(s.enum) && s.enum.length) return fc.constantFrom(...(s.enum as unknown[]));
    const alts = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
    if (alts?.length) return fc.oneof(...alts.map((a) => this.valid(a, name, depth + 1)));
    if (Array.isArray(s.allOf) && s.allOf.length) {
      const merged: Schema = { ...s, allOf: undefined };
      for (const part of s.allOf as Schema[]) {
        const p = this.deref(part);
        merged.type ??= p.type;
        merged.properties = { ...(merged.properties ?? {}), ...(p.properties ?? {}) };
        merged.required = [...(merged.required ?? []), ...(p.required ?? [])];
      }
      return this.valid(merged, name, depth);
    }
    const type = s.type as string | string[] | undefined;
    if (Array.isArray(type)) return fc.oneof(...type.map((t) => this.valid({ ...s, type: t }, name, depth)));
    switch (type ?? (s.properties ? 'object' : s.items ? 'array' : undefined)) {
      case 'string':
        return this.validString(s, name);
      case 'integer':
        return this.validInt(s, name);
      case 'number': {
        const min =
          typeof s.minimum === 'number' ? s.minimum : typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum + 1e-6 : -1e6;
        const max = typeof s.maximum === 'number' ? s.maximum : min + 1e6;
        return fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
      }
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      case 'array': {
        const minLength = Math.min(s.minItems ?? 0, 5);
        const maxLength = Math.max(minLength, Math.min(s.maxItems ?? 3, 3));
        return fc.array(this.valid(s.items, name, depth + 1), { minLength, maxLength });
      }
      case 'object': {
        const props = (s.properties ?? {}) as Record<string, Schema>;
        const required: string[] = (s.required ?? []).filter((k: string) => k in props);
        const shape: Record<string, fc.Arbitrary<unknown>> = {};
        for (const [k, v] of Object.entries(props)) shape[k] = this.valid(v, k, depth + 1);
        const rec = fc.record(shape, { requiredKeys: required });
        const addl = s.additionalProperties;
        if (addl && typeof addl === 'object' && !Object.keys(props).length) {
          const keyArb = s.propertyNames
            ? this.validString(this.deref(s.propertyNames), 'key')
            : fc.string({ minLength: 1, maxLength: 12 });
          return fc.dictionary(keyArb as fc.Arbitrary<string>, this.valid(addl, name, depth + 1), { maxKeys: 3 });
        }
        return rec;
      }
      default:
        return fc.jsonValue({ maxDepth: 2 });
    }
  }

  private validInt(s: Schema, name: string): fc.Arbitrary<number> {
    let lo = typeof s.minimum === 'number' ? s.minimum : typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum + 1 : -1000;
    let hi =
      typeof s.maximum === 'number' ? s.maximum : typeof s.exclusiveMaximum === 'number' ? s.exclusiveMaximum - 1 : lo + 100_000;
    lo = Math.max(lo, Number.MIN_SAFE_INTEGER);
    hi = Math.min(hi, Number.MAX_SAFE_INTEGER);
    if (hi < lo) hi = lo;
    const span = Math.min(hi - lo, 1000);
    const base = fc.oneof(
      { weight: 4, arbitrary: fc.nat(span).map((n) => lo + n) },
      { weight: 1, arbitrary: fc.constantFrom(lo, hi) },
    );
    const hinted = (this.hints.ints[name] ?? []).filter((n) => n >= lo && n <= hi);
    return hinted.length ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...hinted) }, { weight: 1, arbitrary: base }) : base;
  }

  private validString(s: Schema, name: string): fc.Arbitrary<string> {
    const min: number = s.minLength ?? 0;
    const max: number = s.maxLength ?? 10_000;
    const fit = (v: string) => {
      let out = v.length > max ? v.slice(0, max) : v;
      while (out.length < min) out += 'я';
      return out;
    };
    if (s.format === 'date-time')
      return fc
        .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2035-01-01T00:00:00Z'), noInvalidDate: true })
        .map((d) => d.toISOString());
    if (s.format === 'uuid') return fc.uuid();
    if (typeof s.pattern === 'string') {
      try {
        return fc.stringMatching(new RegExp(s.pattern)).filter((v) => v.length >= min && v.length <= max);
      } catch {
        /* an unsupported pattern: fall through to plain strings */
      }
    }
    const n = name.toLowerCase();
    let arb: fc.Arbitrary<string>;
    if (n.includes('email')) arb = fc.emailAddress();
    else if (n.includes('url') || n.includes('link')) arb = fc.webUrl();
    else if (n === 'ip' || n.endsWith('_ip') || n.includes('ips')) arb = fc.ipV4();
    else if (n.includes('domain') || n.includes('host')) arb = fc.domain();
    else if (n.includes('date') || n.endsWith('_at') || n.endsWith('_from') || n.endsWith('_to'))
      arb = fc
        .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2035-01-01T00:00:00Z'), noInvalidDate: true })
        .map((d) => d.toISOString());
    else
      arb = fc.oneof(
        fc.constantFrom(...CYR),
        fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 24 }),
        fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }),
      );
    return arb.map(fit);
  }
}

// ---------------------------------------------------------------------------
// Mutations of a valid value
// ---------------------------------------------------------------------------

type Slot = { parent: Record<string, unknown> | unknown[] | null; key: string | number; value: unknown };

function slots(root: unknown): Slot[] {
  const out: Slot[] = [{ parent: null, key: '', value: root }];
  const walk = (v: unknown, depth: number) => {
    if (depth > 20 || v === null || typeof v !== 'object' || v instanceof RawJson) return;
    if (Array.isArray(v))
      v.forEach((x, i) => {
        out.push({ parent: v, key: i, value: x });
        walk(x, depth + 1);
      });
    else
      for (const [k, x] of Object.entries(v)) {
        out.push({ parent: v as Record<string, unknown>, key: k, value: x });
        walk(x, depth + 1);
      }
  };
  walk(root, 0);
  return out;
}

function setOwn(obj: Record<string, unknown>, key: string, value: unknown) {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

export type Mutation =
  | { kind: 'replace'; at: number; leaf: unknown }
  | { kind: 'inject-bad-text'; at: number; bad: string; pos: number }
  | { kind: 'drop-key'; at: number }
  | { kind: 'extra-key'; at: number; key: string; leaf: unknown }
  | { kind: 'every-string-bad'; bad: string }
  | { kind: 'every-int-huge'; n: number }
  | { kind: 'wrap'; at: number; how: 'array' | 'object' | 'string' };

export const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), leaf: hostileLeaf }) },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('inject-bad-text' as const),
      at: fc.nat(),
      bad: fc.constantFrom(...BAD_TEXT),
      pos: fc.nat(),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('drop-key' as const), at: fc.nat() }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('extra-key' as const),
      at: fc.nat(),
      key: fc.constantFrom(...HOSTILE_KEYS),
      leaf: hostileLeaf,
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('every-string-bad' as const), bad: fc.constantFrom(...BAD_TEXT) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('every-int-huge' as const),
      n: fc.constantFrom(2 ** 31, 2 ** 53, 2 ** 53 + 2, -1, 0),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('wrap' as const),
      at: fc.nat(),
      how: fc.constantFrom('array' as const, 'object' as const, 'string' as const),
    }),
  },
);

function clone<T>(v: T): T {
  return v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T);
}

/** Applies one mutation to a copy of `value` (the mutation picks its target among all nodes). */
export function mutate(value: unknown, m: Mutation): unknown {
  const root = { v: clone(value) } as Record<string, unknown>;
  const all = slots(root.v).map((s) => (s.parent === null ? { ...s, parent: root, key: 'v' } : s));
  const pick = <T>(list: T[], at: number) => list[at % list.length] as T;
  const put = (s: Slot, v: unknown) => {
    if (Array.isArray(s.parent)) s.parent[s.key as number] = v;
    else if (s.parent) setOwn(s.parent, String(s.key), v);
  };
  switch (m.kind) {
    case 'replace':
      put(pick(all, m.at), m.leaf);
      break;
    case 'inject-bad-text': {
      const strs = all.filter((s) => typeof s.value === 'string');
      if (!strs.length) put(pick(all, m.at), m.bad);
      else {
        const s = pick(strs, m.at);
        const str = s.value as string;
        const p = str.length ? m.pos % (str.length + 1) : 0;
        put(s, str.slice(0, p) + m.bad + str.slice(p));
      }
      break;
    }
    case 'drop-key': {
      const keyed = all.filter((s) => s.parent !== root && s.parent && !Array.isArray(s.parent));
      if (keyed.length) {
        const s = pick(keyed, m.at);
        delete (s.parent as Record<string, unknown>)[String(s.key)];
      } else root.v = undefined;
      break;
    }
    case 'extra-key': {
      const objs = all.filter(
        (s) => s.value && typeof s.value === 'object' && !Array.isArray(s.value) && !(s.value instanceof RawJson),
      );
      if (objs.length) setOwn(pick(objs, m.at).value as Record<string, unknown>, m.key, m.leaf);
      else {
        const o = {};
        setOwn(o, m.key, m.leaf);
        root.v = o;
      }
      break;
    }
    case 'every-string-bad': {
      const strs = all.filter((s) => typeof s.value === 'string');
      if (!strs.length) root.v = m.bad;
      for (const s of strs) put(s, `${(s.value as string).slice(0, 3)}${m.bad}${(s.value as string).slice(3)}`);
      break;
    }
    case 'every-int-huge': {
      const ints = all.filter((s) => typeof s.value === 'number');
      if (!ints.length) root.v = m.n;
      for (const s of ints) put(s, m.n);
      break;
    }
    case 'wrap': {
      const s = pick(all, m.at);
      put(s, m.how === 'array' ? [s.value] : m.how === 'object' ? { value: s.value } : (JSON.stringify(s.value) ?? ''));
      break;
    }
  }
  return root.v;
}

/** Does the value hold NUL or a lone surrogate in any string (value or key)? */
export function hasBadText(v: unknown, depth = 0): boolean {
  if (depth > 50) return false;
  if (typeof v === 'string') return isBadText(v);
  if (v === null || typeof v !== 'object' || v instanceof RawJson) return false;
  if (Array.isArray(v)) return v.some((x) => hasBadText(x, depth + 1));
  return Object.entries(v).some(([k, x]) => isBadText(k) || hasBadText(x, depth + 1));
}
const isBadText = (s: string) =>
  s.includes('\u0000') || /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);

// ---------------------------------------------------------------------------
// Wire encoding
// ---------------------------------------------------------------------------

/** encodeURIComponent that does not throw on lone surrogates (sends their WTF-8 bytes, as a sloppy client would). */
function encodeComponent(s: string): string {
  let out = '';
  for (const ch of s) {
    const c = ch.codePointAt(0) ?? 0;
    if (c >= 0xd800 && c <= 0xdfff) {
      out += [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join('');
    } else out += encodeURIComponent(ch);
  }
  return out;
}

/** A query/path value: a string to percent-encode, or raw text sent as is. */
export type WireValue = string | { raw: string };
export const wire = (v: WireValue) => (typeof v === 'string' ? encodeComponent(v) : v.raw);
export const wireText = (v: WireValue) => (typeof v === 'string' ? v : v.raw);

export interface BodySpec {
  /** How the body is sent. */
  transport: string;
  /** The value (before encoding) when the body is JSON-ish, for the report and the bad-text rule. */
  value?: unknown;
  payload?: string | Buffer;
  contentType?: string;
}

/** The body of a case: JSON of `value`, or one of the broken transports. */
export function encodeBody(value: unknown, transport: string, cut: number): BodySpec {
  const json = value === undefined ? '' : encodeJson(value);
  const at = json.length ? cut % json.length : 0;
  switch (transport) {
    case 'json':
      return { transport, value, payload: json, contentType: 'application/json' };
    case 'json-utf16':
      return { transport, value, payload: json, contentType: 'application/json; charset=utf-16' };
    case 'json-weird-type':
      return { transport, value, payload: json, contentType: 'application/json; boundary=x; charset="utf-8"; q=;' };
    case 'empty-json':
      return { transport, payload: '', contentType: 'application/json' };
    case 'truncated-json':
      return { transport, value, payload: json.slice(0, at), contentType: 'application/json' };
    case 'malformed-json':
      return {
        transport,
        payload: [
          `${json}}`,
          `{${json}`,
          `${json},`,
          "{'a':1}",
          '{"a":1,}',
          'nul',
          '{"a":}',
          '\ufeff{}',
          '[1,2',
          '"\\ud800',
          '{"\\u0000":1}',
          '{"a":1}{"b":2}',
        ][cut % 12],
        contentType: 'application/json',
      };
    case 'text-plain':
      return { transport, value, payload: json, contentType: 'text/plain' };
    case 'multipart-no-boundary':
      return {
        transport,
        payload: `--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nv\r\n--x--\r\n`,
        contentType: 'multipart/form-data',
      };
    case 'form-urlencoded':
      return {
        transport,
        payload: 'name=a%00b&company_id=2147483648&__proto__[x]=1',
        contentType: 'application/x-www-form-urlencoded',
      };
    case 'octet-stream':
      return { transport, payload: Buffer.from([0, 1, 2, 0xff, 0xfe]), contentType: 'application/octet-stream' };
    case 'no-content-type':
      return { transport, value, payload: json };
    case 'garbage-content-type':
      return {
        transport,
        value,
        payload: json,
        contentType: ['', ';;;', 'application/', '*/*', `application/${'x'.repeat(5000)}`, 'json'][cut % 6],
      };
    default:
      throw new Error(`unknown transport ${transport}`);
  }
}

export const BODY_TRANSPORTS: [string, number][] = [
  ['json', 24],
  ['truncated-json', 2],
  ['malformed-json', 2],
  ['empty-json', 1],
  ['text-plain', 1],
  ['multipart-no-boundary', 1],
  ['form-urlencoded', 1],
  ['octet-stream', 1],
  ['no-content-type', 1],
  ['json-utf16', 1],
  ['json-weird-type', 1],
  ['garbage-content-type', 1],
];

// ---------------------------------------------------------------------------
// Multipart bodies for the upload routes
// ---------------------------------------------------------------------------

export interface MultipartCase {
  fields: [string, string][];
  file?: { filename: string; type: string; content: string | Buffer };
  shape: string;
  cut: number;
}

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201e2b5c9c40000000049454e44ae426082',
  'hex',
);
export const FILE_CONTENTS: (string | Buffer)[] = [
  'domain;title\nexample.com;Пример\n',
  'domain,title\r\nfz\u0000nul.example,a\u0000b\r\n',
  'name;\udc00\n',
  PNG,
  '',
  Buffer.from([0xff, 0xfe, 0, 0, 0x00]),
  `a;b\n${'x;y\n'.repeat(2000)}`,
];
export const FILENAMES = [
  'data.csv',
  'photo.png',
  'fz\u0000nul.csv',
  'fz\udc00lone.csv',
  '../../../etc/passwd',
  '',
  'x'.repeat(300),
  'имя файла.xlsx',
  'a"b.csv',
  'a\r\nb.csv',
];
export const MULTIPART_SHAPES: [string, number][] = [
  ['ok', 6],
  ['no-boundary', 2],
  ['wrong-boundary', 1],
  ['truncated', 3],
  ['no-final-boundary', 1],
  ['empty', 1],
  ['field-after-file', 1],
  ['two-files', 1],
  ['huge-field', 1],
  ['many-parts', 1],
  ['part-without-disposition', 1],
  ['long-boundary', 1],
  ['json-instead', 1],
];

export function multipartBody(c: MultipartCase): { payload: Buffer; contentType?: string } {
  const boundary = c.shape === 'long-boundary' ? `b${'x'.repeat(200)}` : 'fuzzBoundary7MA4YWxkTrZu0gW';
  const part = (name: string, value: string | Buffer, filename?: string, type?: string) =>
    Buffer.concat([
      Buffer.from(
        `--${boundary}\r\n${c.shape === 'part-without-disposition' ? 'X-Nothing: 1' : `Content-Disposition: form-data; name="${name}"${filename !== undefined ? `; filename="${filename}"` : ''}`}\r\n${type ? `Content-Type: ${type}\r\n` : ''}\r\n`,
      ),
      typeof value === 'string' ? Buffer.from(value, 'utf8') : value,
      Buffer.from('\r\n'),
    ]);
  const fields = [...c.fields];
  if (c.shape === 'huge-field') fields.push(['name', 'Ж'.repeat(3000)]);
  if (c.shape === 'many-parts') for (let i = 0; i < 30; i++) fields.push(['kind', 'import']);
  const fieldParts = fields.map(([k, v]) => part(k, v));
  const fileParts = c.file ? [part('file', c.file.content, c.file.filename, c.file.type)] : [];
  if (c.shape === 'two-files' && c.file) fileParts.push(part('file', c.file.content, `2-${c.file.filename}`, c.file.type));
  const ordered = c.shape === 'field-after-file' ? [...fileParts, ...fieldParts] : [...fieldParts, ...fileParts];
  const end = c.shape === 'no-final-boundary' ? Buffer.alloc(0) : Buffer.from(`--${boundary}--\r\n`);
  let payload = Buffer.concat([...ordered, end]);
  if (c.shape === 'truncated') payload = payload.subarray(0, payload.length ? c.cut % payload.length : 0);
  if (c.shape === 'empty') payload = Buffer.alloc(0);
  if (c.shape === 'json-instead') return { payload: Buffer.from('{"kind":"import"}'), contentType: 'application/json' };
  const contentType =
    c.shape === 'no-boundary'
      ? 'multipart/form-data'
      : c.shape === 'wrong-boundary'
        ? 'multipart/form-data; boundary=somethingElse'
        : `multipart/form-data; boundary=${boundary}`;
  return { payload, contentType };
}

// ---------------------------------------------------------------------------
// Response checks
// ---------------------------------------------------------------------------

export interface Violation {
  kind: '5xx' | 'shape' | 'echo' | 'accepted-bad-text' | 'rows-written' | 'tenant';
  op: string;
  principal: string;
  status?: number;
  detail: string;
  input?: string;
  server?: string;
}

const CYRILLIC = /[А-Яа-яЁё]/;
const ERROR_KEYS = new Set(['statusCode', 'statusMessage', 'message', 'data']);

/** The standard error body: JSON {statusCode, statusMessage, message, data?}, statusCode = HTTP status, a Russian message. */
/** TAXII 2.1's error message (section 3.6.1): the shape the TAXII routes must answer in, not the API's. */
const TAXII_ERROR_KEYS = new Set([
  'title',
  'description',
  'error_id',
  'error_code',
  'http_status',
  'external_details',
  'details',
]);
function taxiiShapeProblem(res: LightMyRequestResponse): string | null {
  let b: unknown;
  try {
    b = JSON.parse(res.body);
  } catch {
    return `TAXII body is not JSON: ${JSON.stringify(res.body.slice(0, 160))}`;
  }
  if (!b || typeof b !== 'object' || Array.isArray(b)) return `TAXII body is not an object: ${res.body.slice(0, 160)}`;
  const o = b as Record<string, unknown>;
  const extra = Object.keys(o).filter((k) => !TAXII_ERROR_KEYS.has(k));
  if (extra.length) return `unexpected TAXII error keys ${extra.join(',')}: ${res.body.slice(0, 200)}`;
  if (o.http_status !== undefined && o.http_status !== String(res.statusCode))
    return `http_status ${String(o.http_status)} ≠ HTTP ${res.statusCode}: ${res.body.slice(0, 200)}`;
  if (typeof o.title !== 'string' || !CYRILLIC.test(o.title)) return `TAXII title not Russian: ${res.body.slice(0, 200)}`;
  return null;
}

export function shapeProblem(res: LightMyRequestResponse): string | null {
  const ct = String(res.headers['content-type'] ?? '');
  if (ct.startsWith('application/taxii+json;version=2.1')) return taxiiShapeProblem(res);
  if (!ct.includes('application/json')) return `content-type «${ct}», body ${JSON.stringify(res.body.slice(0, 160))}`;
  let b: unknown;
  try {
    b = JSON.parse(res.body);
  } catch {
    return `body is not JSON: ${JSON.stringify(res.body.slice(0, 160))}`;
  }
  if (!b || typeof b !== 'object' || Array.isArray(b)) return `body is not an object: ${res.body.slice(0, 160)}`;
  const o = b as Record<string, unknown>;
  const extra = Object.keys(o).filter((k) => !ERROR_KEYS.has(k));
  if (extra.length) return `unexpected keys ${extra.join(',')}: ${res.body.slice(0, 200)}`;
  if (o.statusCode !== res.statusCode)
    return `statusCode ${String(o.statusCode)} ≠ HTTP ${res.statusCode}: ${res.body.slice(0, 200)}`;
  if (typeof o.statusMessage !== 'string' || !o.statusMessage) return `no statusMessage: ${res.body.slice(0, 200)}`;
  if (typeof o.message !== 'string' || !CYRILLIC.test(o.message)) return `message not Russian: ${res.body.slice(0, 200)}`;
  return null;
}

/**
 * What of the hostile input shows up in the response. Error bodies must hold no NUL, no lone
 * surrogate, no run of a long hostile string and none of the `tokens`; a success may carry the data
 * it stored (a legitimately long text included), but never the NUL/surrogate markers (`fz…`) nor a
 * run of the 1 MB string.
 */
const ECHO_1M = LONG_UNIT.repeat(100_000);
export function echoProblem(res: LightMyRequestResponse, tokens: string[]): string | null {
  const body = res.body;
  if (res.statusCode >= 400 ? body.includes(LONG_ECHO) : body.length > ECHO_1M.length && body.includes(ECHO_1M))
    return 'echoes a long hostile string';
  const lower = body.toLowerCase();
  for (const t of ['fz\u0000nul', 'fz\udc00lone', 'fz\ud800lone']) {
    const esc = JSON.stringify(t).slice(1, -1).toLowerCase();
    if (body.includes(t) || lower.includes(esc)) return `echoes ${JSON.stringify(t)}`;
  }
  if (res.statusCode >= 400) {
    if (body.includes('\u0000') || /\\u0000/i.test(body)) return 'error body holds a NUL';
    if (/\\ud[89a-f][0-9a-f]{2}/i.test(body)) return 'error body holds a lone surrogate';
    const unescaped = body.includes('\\') ? safeParseText(body) : body;
    for (const t of tokens)
      if (body.includes(t) || unescaped.includes(t)) return `error body echoes ${JSON.stringify(t.slice(0, 60))}`;
  }
  return null;
}

/** The text of a JSON body with its string escapes undone (so an echoed value is found however it was escaped). */
function safeParseText(body: string): string {
  try {
    const out: string[] = [];
    JSON.parse(body, (_k, v) => {
      if (typeof v === 'string') out.push(v);
      return v;
    });
    return out.join('\n');
  } catch {
    return body;
  }
}

// ---------------------------------------------------------------------------
// Rows of the application tables
// ---------------------------------------------------------------------------

/**
 * Tables whose rows a refused request may legitimately add:
 * - auth_failures: every refused sign-in / second factor is counted there (the lockout's memory);
 * - api_key_rate_windows: the per-key request counter counts every request, refused ones too.
 * audit_log stays in, but its rows of refused sign-in attempts (the actions below) are expected:
 * a refused login is exactly what the security audit must record.
 */
const CHANGING_TABLES = new Set(['auth_failures', 'api_key_rate_windows']);
const REFUSAL_AUDIT_ACTIONS = new Set(['auth.login_failed', 'auth.lockout', 'auth.2fa_failed', 'auth.ip_denied']);

export interface RowSnapshot {
  counts: Map<string, number>;
  auditMax: number;
}

export async function tablesOf(pool: import('pg').Pool): Promise<string[]> {
  const r = await pool.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1`,
  );
  return r.rows.map((x) => x.table_name).filter((t) => !CHANGING_TABLES.has(t));
}

export async function snapshotRows(pool: import('pg').Pool, tables: string[]): Promise<RowSnapshot> {
  const sql = tables.map((t) => `SELECT '${t}' AS t, count(*)::int AS n FROM "${t}"`).join(' UNION ALL ');
  const r = await pool.query<{ t: string; n: number }>(sql);
  const a = await pool.query<{ m: string | null }>('SELECT max(id)::text AS m FROM audit_log');
  return { counts: new Map(r.rows.map((x) => [x.t, x.n])), auditMax: Number(a.rows[0]?.m ?? 0) };
}

/** Changed tables between two snapshots (audit rows of refused sign-ins discounted). */
export async function rowChanges(pool: import('pg').Pool, before: RowSnapshot, after: RowSnapshot): Promise<string[]> {
  const changes: string[] = [];
  for (const [t, n] of after.counts) {
    let delta = n - (before.counts.get(t) ?? 0);
    if (t === 'audit_log' && delta > 0) {
      const r = await pool.query<{ action: string }>('SELECT action FROM audit_log WHERE id > $1 ORDER BY id', [before.auditMax]);
      const other = r.rows.filter((x) => !REFUSAL_AUDIT_ACTIONS.has(x.action));
      delta = other.length;
      if (delta) changes.push(`audit_log +${delta} (${[...new Set(other.map((x) => x.action))].join(', ')})`);
      continue;
    }
    if (delta) changes.push(`${t} ${delta > 0 ? '+' : ''}${delta}`);
  }
  return changes;
}
