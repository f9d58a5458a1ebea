/*
 * The compiled response writer (plugins/serializer.ts): for the events' schemas of every module it
 * must write exactly what zod's encode + JSON.stringify writes (same white list, same order, same
 * bytes), fall back to zod where it cannot, and in check mode refuse a response zod refuses.
 */
import { eventDetailResponse, eventListResponse } from '@forpost/contract/events';
import { MODULE_LIST, type ModuleDescriptor } from '@forpost/contract/modules';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compileWriter, createResponseSerializer } from '../src/plugins/serializer';

/** A pseudo-random value generator (fixed seed: the same cases on every run). */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}
const TEXTS = ['', 'пример.рф', 'a"b\\c', 'строка\nс переводом', '\u2028\u0000\u001f', '😀 emoji', '<script>', 'x'.repeat(300)];

/** An item of `m`'s list, every nullable field null or set at random, plus keys the schema does not have. */
function item(m: ModuleDescriptor, r: () => number, i: number) {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)] as T;
  const maybe = <T>(v: T) => (r() < 0.3 ? null : v);
  const v: Record<string, unknown> = {
    id: i + 1,
    module: m.code,
    company_id: 3,
    company_name: pick(TEXTS),
    title: pick(TEXTS),
    status_id: 1,
    priority_id: maybe(2),
    source: 'Other',
    ml_state: 'NotDetermined',
    whitelist_kind: maybe('whitelistClient'),
    tags: r() < 0.5 ? [] : [1, 7],
    detected_at: maybe('2026-11-27T10:00:00.000Z'),
    created_at: '2026-11-27T10:00:00.000Z',
    updated_at: '2026-11-27T10:00:00.000Z',
    author_id: maybe(1),
    author_name: maybe(pick(TEXTS)),
    import_id: null,
    assignee_id: null,
    assignee_name: null,
    sla: { due_at: null, stage: null, overdue: r() < 0.5, triaged_at: null, resolved_at: null },
    decision_id: maybe(4),
    // Not in any schema: must not be written (a sealed value, an internal column).
    card_number_sealed: 'SECRET',
    fingerprint: 'internal',
  };
  for (const f of m.fields) {
    const value =
      f.type === 'integer' || f.type === 'number' || f.type === 'ref'
        ? f.type === 'number'
          ? Math.round(r() * 1e6) / 100
          : Math.floor(r() * 1e9)
        : f.type === 'boolean'
          ? r() < 0.5
          : f.type === 'string_list'
            ? [pick(TEXTS), pick(TEXTS)]
            : pick(TEXTS);
    v[f.key] = maybe(value);
  }
  return v;
}

describe('the compiled response writer', () => {
  it('writes every module’s list and card byte for byte as zod does, unknown keys left out', () => {
    const r = rng(18);
    for (const m of MODULE_LIST) {
      const list = eventListResponse(m);
      const write = compileWriter(list);
      expect(write, m.code).toBeTypeOf('function');
      for (let n = 0; n < 20; n++) {
        const data = {
          items: Array.from({ length: Math.floor(r() * 5) }, (_, i) => item(m, r, i)),
          total: 3,
          page: 1,
          page_size: 20,
          total_capped: false,
          ...(r() < 0.5 ? { status_counts: [{ status_id: 1, count: 10_000, capped: true }], status_counts_capped: false } : {}),
          ...(r() < 0.3 ? { rules: [{ q: 'x', n: 1, deep: { a: [1, null] } }], rules_map: [{ item_id: 1, rule_index: 0 }] } : {}),
        };
        const expected = JSON.stringify(z.encode(list, data as never));
        expect(write?.(data), m.code).toBe(expected);
        expect(expected).not.toContain('SECRET');
      }
      const card = eventDetailResponse(m);
      const writeCard = compileWriter(card);
      expect(writeCard, m.code).toBeTypeOf('function');
      const c = { ...item(m, r, 0), comments_count: 2, attachments: [] };
      expect(writeCard?.(c)).toBe(JSON.stringify(z.encode(card, c as never)));
    }
  });

  it('leaves to zod what it cannot write faithfully: unions, recursion', () => {
    expect(compileWriter(z.union([z.object({ a: z.string() }), z.object({ b: z.number() })]))).toBeUndefined();
    type Node = { children: Node[] };
    const tree: z.ZodType<Node> = z.object({ children: z.array(z.lazy(() => tree)) });
    expect(compileWriter(tree)).toBeUndefined();
    expect(compileWriter(z.object({ a: z.string().nullable(), b: z.array(z.number().int()).optional() }))).toBeTypeOf('function');
  });

  it('check mode: a response zod refuses fails, as it did before the compiled writer', () => {
    const schema = z.object({ id: z.number().int(), name: z.string() });
    const compile = createResponseSerializer({ check: true });
    const write = compile({ schema, method: 'GET', url: '/x', httpStatus: '200' } as never);
    expect(write({ id: 1, name: 'a', extra: 1 })).toBe('{"id":1,"name":"a"}');
    // fast-json-stringify alone would write these («"5"», 1): zod refuses them, so the response fails.
    expect(() => write({ id: 1, name: 5 })).toThrow();
    expect(() => write({ id: 1.5, name: 'a' })).toThrow();
    const unchecked = createResponseSerializer({ check: false })({
      schema,
      method: 'GET',
      url: '/x',
      httpStatus: '200',
    } as never);
    expect(unchecked({ id: 1, name: 'a', extra: 1 })).toBe('{"id":1,"name":"a"}');
  });
});
