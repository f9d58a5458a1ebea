import { describe, expect, it } from 'vitest';
import { hasSessionHint } from './session-hint';

describe('hasSessionHint', () => {
  it('finds the fp_session cookie among others, and only it', () => {
    expect(hasSessionHint('a=1; fp_session=1; b=2')).toBe(true);
    expect(hasSessionHint('fp_session=1')).toBe(true);
    expect(hasSessionHint('')).toBe(false);
    expect(hasSessionHint('x_fp_session=1; fp_sessionx=1')).toBe(false);
  });
});
