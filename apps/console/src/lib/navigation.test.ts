import { describe, expect, it } from 'vitest';
import { EXTERNAL_REFUSED, followRuleRedirect, internalTarget } from './navigation';

describe('navigation: only route rules leave the console', () => {
  it('internalTarget: console paths pass; another origin is refused with the Russian notice', () => {
    const refused: string[] = [];
    const note = (t: string) => refused.push(t);
    expect(internalTarget('/audit?x=1', note)).toBe('/audit?x=1');
    expect(internalTarget(undefined, note)).toBe('/');
    expect(refused).toEqual([]);
    for (const bad of ['https://evil.example', '//evil.example', '/\\evil.example', 'javascript:alert(1)']) {
      expect(internalTarget(bad, note)).toBe('/');
    }
    expect(refused).toEqual(Array(4).fill(EXTERNAL_REFUSED));
  });

  it('followRuleRedirect: an external rule assigns the window (http(s) only); a console one goes through the router', () => {
    const went: string[] = [];
    const assigned: string[] = [];
    followRuleRedirect(
      { to: 'https://example.com/new', external: true },
      (h) => went.push(h),
      (u) => assigned.push(u),
    );
    followRuleRedirect(
      { to: 'javascript:alert(1)', external: true },
      (h) => went.push(h),
      (u) => assigned.push(u),
    );
    followRuleRedirect(
      { to: '/users', external: false },
      (h) => went.push(h),
      (u) => assigned.push(u),
    );
    followRuleRedirect(
      { to: '//evil.example', external: false },
      (h) => went.push(h),
      (u) => assigned.push(u),
    );
    expect(assigned).toEqual(['https://example.com/new']);
    expect(went).toEqual(['/users', '/']);
  });
});
