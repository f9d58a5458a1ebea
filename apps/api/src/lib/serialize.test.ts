import { describe, expect, it } from 'vitest';
import { iso, pgUtcToIso } from './serialize';

/** PostgreSQL's text output of a UTC timestamptz: the fraction without trailing zeros. */
function pgText(ms: number, micro: number): string {
  const d = new Date(ms);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  const frac = String(d.getUTCMilliseconds() * 1000 + micro)
    .padStart(6, '0')
    .replace(/0+$/, '');
  return `${p(d.getUTCFullYear(), 4)}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}${frac ? `.${frac}` : ''}+00`;
}

describe('iso: timestamps as the API writes them', () => {
  it('PostgreSQL UTC text by slicing equals what Date prints, for every fraction length', () => {
    let seed = 7;
    const rnd = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const cases = [0, Date.UTC(1970, 0, 1), Date.UTC(2026, 10, 28, 8, 18, 1, 315), Date.UTC(9999, 11, 31, 23, 59, 59, 999)];
    for (let i = 0; i < 2000; i++) cases.push(Math.floor(rnd() * Date.UTC(9999, 0, 1)));
    for (const ms of cases) {
      for (const micro of [0, 1, 500, 999, Math.floor(rnd() * 1000)]) {
        const s = pgText(ms, micro);
        expect(pgUtcToIso(s), s).not.toBeNull();
        expect(iso(s), s).toBe(new Date(s).toISOString());
      }
    }
  });

  it('other forms go through Date: another zone, JSON text, a Date', () => {
    for (const s of [
      '2026-11-28 11:18:01.5+03',
      '2026-11-28T08:18:01.315+00:00',
      '2026-11-28T08:18:01.315Z',
      '2026-11-28 08:18:01+05:30',
    ]) {
      expect(pgUtcToIso(s), s).toBeNull();
      expect(iso(s), s).toBe(new Date(s).toISOString());
    }
    expect(iso('2026-11-28 11:18:01.5+03')).toBe('2026-11-28T08:18:01.500Z');
    expect(iso(new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 6)))).toBe('2026-01-02T03:04:05.006Z');
    expect(iso(null)).toBeNull();
    expect(iso(undefined)).toBeNull();
    // Not a timestamp PostgreSQL writes in UTC: never sliced into a wrong answer.
    for (const s of ['2026-11-28 08:18:01.1234567+00', '12026-11-28 08:18:01+00', '2026-11-28 08:18:01+00 BC', 'infinity']) {
      expect(pgUtcToIso(s), s).toBeNull();
    }
  });
});
