import { describe, expect, it } from 'vitest';
import { FIELD_KINDS, messageTarget, storedValue } from './kinds';
import type { FieldType } from './types';

describe('field kinds', () => {
  it('STIX 2.1 observable types: network indicators only', () => {
    const withStix = Object.entries(FIELD_KINDS)
      .filter(([, k]) => k.stix)
      .map(([t, k]) => [t, k.stix]);
    expect(Object.fromEntries(withStix)).toEqual({
      domain: ['domain-name', 'ipv4-addr', 'ipv6-addr'],
      host: ['domain-name', 'ipv4-addr', 'ipv6-addr'],
      url: ['url'],
      email: ['email-addr'],
      ip: ['ipv4-addr', 'ipv6-addr'],
    });
  });

  it('date-times are stored in UTC ISO form; other values as they are', () => {
    expect(storedValue({ type: 'datetime' }, '2026-03-01T13:00:00+03:00')).toBe('2026-03-01T10:00:00.000Z');
    expect(storedValue({ type: 'date' }, '2026-03-01')).toBe('2026-03-01');
    expect(storedValue({ type: 'integer' }, 5)).toBe(5);
  });

  it("a message's link and text go to the first url and text fields", () => {
    const fields: { key: string; type: FieldType }[] = [
      { key: 'a', type: 'string' },
      { key: 'b', type: 'url' },
      { key: 'c', type: 'text' },
      { key: 'd', type: 'url' },
    ];
    expect(messageTarget(fields, 'link')?.key).toBe('b');
    expect(messageTarget(fields, 'body')?.key).toBe('c');
  });
});
