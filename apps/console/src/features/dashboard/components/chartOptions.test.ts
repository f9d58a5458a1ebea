import type { TimeSeriesResponse } from '@forpost/contract/analytics';
import { NO_PRIORITY_STYLE } from '@forpost/contract/chart-style';
import { describe, expect, it } from 'vitest';
import { contrastRatio } from '../../../lib/contrast';
import { MODULE_PALETTE, matrixOption, OTHERS_COLOR, OTHERS_KEY, pieOption, seriesOption, topSeries } from './chartOptions';

const days = ['2026-03-01', '2026-03-02'];
const moduleSeries = (n: number): TimeSeriesResponse => ({
  from: days[0] as string,
  to: days[1] as string,
  days,
  series: Array.from({ length: n }, (_, i) => ({
    key: `m${i}`,
    name: `Модуль ${i}`,
    color: null,
    total: i + 1,
    data: [i, 1],
    link: { path: `/m${i}`, query: {} },
  })),
  total: (n * (n + 1)) / 2,
});

describe('topSeries', () => {
  it('keeps the seven largest modules in the palette and sums the rest into «Прочие»', () => {
    const r = topSeries(moduleSeries(16));
    expect(r.series).toHaveLength(8);
    expect(r.series.slice(0, 7).map((s) => s.key)).toEqual(['m15', 'm14', 'm13', 'm12', 'm11', 'm10', 'm9']);
    expect(r.series.slice(0, 7).map((s) => s.color)).toEqual([...MODULE_PALETTE]);
    const others = r.series[7];
    expect(others).toMatchObject({ key: OTHERS_KEY, name: 'Прочие (9)', color: OTHERS_COLOR, total: 45 });
    expect(others?.data).toEqual([36, 9]); // 0+…+8 on the first day, nine ones on the second
    expect(others?.link.path).toBe(''); // several lists: nothing to open
  });

  it('seven modules fit without «Прочие» (every one in its own colour); coloured series (statuses) pass unchanged', () => {
    const seven = topSeries(moduleSeries(7)).series;
    expect(seven.map((s) => s.key)).not.toContain(OTHERS_KEY);
    expect(new Set(seven.map((s) => s.color)).size).toBe(7);
    expect(topSeries(moduleSeries(8)).series.at(-1)).toMatchObject({ key: OTHERS_KEY, name: 'Прочие (1)' });
    const statuses = moduleSeries(12);
    statuses.series = statuses.series.map((s) => ({ ...s, color: 'blue' }));
    expect(topSeries(statuses)).toBe(statuses);
  });
});

describe('«Без приоритета»', () => {
  // Issue #30: its bars were #d9d9d9 (the brightest bar of the dark theme, 1.4:1 on white) and its
  // days' bars #bfbfbf; a grey series must reach 3:1 (WCAG non-text) on both themes' cards.
  const cards = ['#ffffff', '#141414'];
  const colors = (o: unknown) =>
    (o as { series: { name: string; itemStyle: { color: string } }[] }).series.map((s) => [s.name, s.itemStyle.color] as const);

  it('its bars in the priority matrix and in the days chart read on the light and the dark card', () => {
    const matrix = matrixOption({
      from: days[0] as string,
      to: days[1] as string,
      categories: [{ key: 'domains', name: 'Домены' }],
      series: [
        { key: 'none', name: 'Без приоритета', color: 'default', total: 3, data: [3], links: [null] },
        { key: 'high', name: 'Высокий', color: 'red', total: 1, data: [1], links: [null] },
      ],
      total: 4,
    });
    const byDay = seriesOption({
      ...moduleSeries(1),
      series: [
        { key: 'none', name: 'Без приоритета', color: 'default', total: 1, data: [1, 0], link: { path: '/x', query: {} } },
      ],
    });
    for (const [name, color] of [...colors(matrix), ...colors(byDay)].filter(([n]) => n === 'Без приоритета'))
      for (const card of cards) expect(contrastRatio(color, card), `${name} ${color} on ${card}`).toBeGreaterThanOrEqual(3);
  });

  it('is told apart from «Низкий» (the same grey) without colour: striped, in every chart that shows priorities', () => {
    const low = { key: 'low', name: 'Низкий', color: 'default', total: 2 };
    const none = { key: 'none', name: 'Без приоритета', color: null, total: 3 };
    const matrix = matrixOption({
      from: days[0] as string,
      to: days[1] as string,
      categories: [{ key: 'domains', name: 'Домены' }],
      series: [
        { ...low, data: [2], links: [null] },
        { ...none, data: [3], links: [null] },
      ],
      total: 5,
    });
    const timeSeries = {
      ...moduleSeries(1),
      series: [
        { ...low, data: [1, 1], link: { path: '/x', query: {} } },
        { ...none, data: [2, 1], link: { path: '/x', query: {} } },
      ],
    };
    type Styled = { itemStyle: { color: string; decal?: unknown } };
    const styles = (o: unknown): Styled['itemStyle'][] => {
      const series = (o as { series: (Styled & { type: string; data: (Styled | number)[] })[] }).series;
      // A donut colours its slices (the data items), the bar charts their series.
      return series[0]?.type === 'pie' ? (series[0].data as Styled[]).map((d) => d.itemStyle) : series.map((x) => x.itemStyle);
    };
    for (const [chart, o] of [
      ['matrix', matrix],
      ['days', seriesOption(timeSeries)],
      ['donut', pieOption(timeSeries)],
    ] as const) {
      const [lowStyle, noneStyle] = styles(o);
      expect(lowStyle?.color, chart).toBe(noneStyle?.color);
      expect(lowStyle?.decal, chart).toBeUndefined();
      expect(noneStyle?.decal, chart).toEqual(NO_PRIORITY_STYLE.decal);
    }
  });
});
