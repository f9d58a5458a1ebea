import { describe, expect, it } from 'vitest';
import { slaShortText, slaText } from './sla';

describe('SLA texts', () => {
  const now = Date.parse('2026-03-01T12:00:00Z');
  const at = (seconds: number) => new Date(now + seconds * 1000).toISOString();

  it('compact for a list cell: a minus when overdue, the time left otherwise', () => {
    expect(slaShortText(at(-(28 * 3600 + 10)), now)).toBe('−1 д 4 ч');
    expect(slaShortText(at(2 * 3600 + 15 * 60 + 5), now)).toBe('2 ч 15 мин');
    expect(slaShortText(at(-30), now)).toBe('−<1 мин');
    expect(slaShortText(at(30), now)).toBe('<1 мин');
    expect(slaShortText(at(0), now)).toBe('<1 мин'); // exactly at due: not yet overdue
  });

  it('full for the card and the tooltip', () => {
    expect(slaText(at(-(28 * 3600 + 10)), now)).toBe('Просрочено на 1 д 4 ч');
    expect(slaText(at(2 * 3600 + 15 * 60 + 5), now)).toBe('Осталось 2 ч 15 мин');
  });
});
