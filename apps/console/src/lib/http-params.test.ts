import { describe, expect, it } from 'vitest';
import { toSearchParams } from './http';

describe('toSearchParams: list filters → query (cleanEmpty in the HTTP layer)', () => {
  it('drops empty strings, empty lists, null and undefined; keeps 0, false and whitespace', () => {
    const p = toSearchParams({
      q: '',
      status: [],
      tags: [1, 2],
      page: 1,
      zero: 0,
      off: false,
      none: null,
      gone: undefined,
      sp: ' ',
    });
    expect(p.toString()).toBe('tags=1%2C2&page=1&zero=0&off=false&sp=+');
  });
});
