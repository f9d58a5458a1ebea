/*
 * Every audit action the API can write has a Russian name in the contract (the console shows it), and
 * every name belongs to an action the API really writes. The type of `audit.record` already refuses a
 * code without a name; this also catches codes built at run time and names left behind.
 */
import { AUDIT_ACTIONS, AUDIT_ENTITY_LABELS, REF_LIST_ENTITIES } from '@forpost/contract/audit';
import { describe, expect, it } from 'vitest';
import { apiSources } from './api-sources';

const code = apiSources();

/** Codes written literally: `action: 'x.y'`, both arms of `action: cond ? 'x.y' : 'x.z'`, and `const action = …;`. */
function writtenCodes(): Set<string> {
  const found = new Set<string>();
  for (const text of code) {
    // Up to the next comma or brace: a conditional spread over several lines is read whole.
    for (const m of text.matchAll(/action:\s*([^,{}]+)|const action\s*=\s*([^;]+);/g)) {
      for (const q of (m[1] ?? m[2] ?? '').matchAll(/'([a-z_]+\.[a-z_0-9]+)'/g)) found.add(q[1] as string);
    }
  }
  // The reference-list engine writes `${entity}.create|update|delete` for each of its lists.
  for (const e of REF_LIST_ENTITIES) for (const op of ['create', 'update', 'delete']) found.add(`${e}.${op}`);
  return found;
}

describe('audit action names', () => {
  const written = writtenCodes();
  const named = new Set(Object.keys(AUDIT_ACTIONS));

  it('every action the API writes has a Russian name', () => {
    expect(written.size).toBeGreaterThan(70);
    expect([...written].filter((a) => !named.has(a))).toEqual([]);
    for (const label of Object.values(AUDIT_ACTIONS)) expect(label).toMatch(/^[А-ЯЁ]/);
  });

  it('every name belongs to an action the API writes', () => {
    expect([...named].filter((a) => !written.has(a))).toEqual([]);
  });

  it('every entity an entry names has a Russian name', () => {
    const entities = new Set<string>(REF_LIST_ENTITIES);
    for (const text of code) for (const m of text.matchAll(/entity:\s*'([a-z_]+)'/g)) entities.add(m[1] as string);
    expect(entities.size).toBeGreaterThan(15);
    expect([...entities].filter((e) => !AUDIT_ENTITY_LABELS[e])).toEqual([]);
  });
});
