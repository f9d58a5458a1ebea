import '@forpost/contract/zod-setup';
import { eventCreateRequest } from '@forpost/contract/events';
import { MODULE_CODES, MODULES } from '@forpost/contract/modules';
import { describe, expect, it } from 'vitest';
import { generateEvents } from './generate';

describe('bench generator', () => {
  const events = [...generateEvents({ seed: 7, count: 4000, companies: 3 })];

  it('is deterministic', () => {
    expect(JSON.stringify([...generateEvents({ seed: 7, count: 300, companies: 3 })])).toBe(JSON.stringify(events.slice(0, 300)));
    expect(JSON.stringify([...generateEvents({ seed: 8, count: 300, companies: 3 })])).not.toBe(
      JSON.stringify(events.slice(0, 300)),
    );
  });

  it('covers every module and company, with valid module fields', () => {
    expect(new Set(events.map((e) => e.module))).toEqual(new Set(MODULE_CODES));
    expect(new Set(events.map((e) => e.company))).toEqual(new Set([0, 1, 2]));
    for (const e of events) {
      const r = eventCreateRequest(MODULES[e.module]).safeParse(e.fields);
      expect(r.error?.issues ?? [], `${e.module} ${JSON.stringify(e.fields)}`).toEqual([]);
      expect(Date.parse(e.detected_at)).toBeLessThanOrEqual(Date.parse(e.created_at));
    }
  });

  it('never repeats a fingerprint within a company and module', () => {
    const seen = new Set<string>();
    for (const e of events) {
      const m = MODULES[e.module];
      const parsed = eventCreateRequest(m).parse(e.fields) as Record<string, unknown>;
      const data = { ...parsed, ...(m.derive?.(parsed) ?? {}) };
      const key = JSON.stringify([e.company, e.module, ...m.fingerprint.map((k) => String(data[k] ?? '').toLowerCase())]);
      expect(seen.has(key), key).toBe(false);
      seen.add(key);
    }
  });
});
