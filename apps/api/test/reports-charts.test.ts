/*
 * The report's priority doughnut (issue #30, items 9 and 13): «Без приоритета» was #d9d9d9 — its white
 * count unreadable (1.4:1) — and is grey like «Низкий»; it is now the console's neutral grey, striped
 * (an ECharts decal, drawn as an SVG pattern that the PDF keeps), as on the console's home page.
 */
import { describe, expect, it } from 'vitest';
import { pieSvg } from '../src/modules/reports/reports.charts';
import { byPriorityOf } from '../src/modules/reports/reports.figures';

/** WCAG contrast of two #rrggbb colours. */
function contrast(a: string, b: string): number {
  const lum = (hex: string) => {
    const [r, g, bl] = [1, 3, 5].map((i) => {
      const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p) as [number, number];
  return (x + 0.05) / (y + 0.05);
}

describe('the report’s priority doughnut', () => {
  const items = byPriorityOf([{ p_low: 4, p_medium: 3, p_high: 2, p_critical: 1, p_none: 5 }] as never);

  it('stripes «Без приоритета» only, in a grey its white count reads on', () => {
    const none = items.find((i) => i.name === 'Без приоритета');
    expect(items.filter((i) => i.striped).map((i) => i.name)).toEqual(['Без приоритета']);
    expect(contrast('#ffffff', none?.color ?? '#ffffff')).toBeGreaterThanOrEqual(4.5);
  });

  it('draws the stripes as a pattern in the SVG the PDF embeds; without stripes there is none', () => {
    expect(pieSvg('По приоритетам', items)).toContain('<pattern');
    expect(
      pieSvg(
        'По приоритетам',
        items.map((i) => ({ ...i, striped: false })),
      ),
    ).not.toContain('<pattern');
  });
});
