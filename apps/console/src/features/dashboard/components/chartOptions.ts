/* ECharts options of the home page's charts, from the API's series (pure). */
import type { MatrixResponse, TimeSeries, TimeSeriesResponse } from '@forpost/contract/analytics';
import { NO_PRIORITY_STYLE } from '@forpost/contract/chart-style';
import { MODULE_SECTIONS } from '@forpost/contract/modules/sections';
import type { EChartsCoreOption } from 'echarts/core';
import { formatNumber } from '../../../lib/format';

/** A grey that reads on both themes' cards (4.7:1 on #ffffff, 3.9:1 on #141414: WCAG non-text 3:1). */
export const NEUTRAL_COLOR = NO_PRIORITY_STYLE.color;

/** Ant Design colour names used by statuses, priorities and sentiment → hex. */
const NAMED_COLORS: Record<string, string> = {
  red: '#f5222d',
  volcano: '#fa541c',
  orange: '#fa8c16',
  gold: '#faad14',
  blue: '#1677ff',
  geekblue: '#2f54eb',
  green: '#52c41a',
  cyan: '#13c2c2',
  purple: '#722ed1',
  magenta: '#eb2f96',
  // «Без приоритета» and the other grey series: 3:1 against the white and the dark theme's card
  // (#bfbfbf, 1.8:1 on white; the «no priority» bars' #d9d9d9 was the brightest bar of the dark theme).
  default: NEUTRAL_COLOR,
  processing: '#1677ff',
};
/** The module's colour (its descriptor's, the PDF report's too); grey for an unknown code. */
const moduleColor = (code: string) => MODULE_SECTIONS.find((m) => m.code === code)?.color ?? OTHERS_COLOR;
const colorOf = (s: { key: string; color: string | null }) => (s.color ? (NAMED_COLORS[s.color] ?? s.color) : moduleColor(s.key));

/** A series' fill: its colour; the events without a priority grey and striped (NO_PRIORITY_STYLE). */
const styleOf = (s: { key: string; color: string | null }) => (s.key === 'none' ? NO_PRIORITY_STYLE : { color: colorOf(s) });

/**
 * A colour-blind-safe categorical palette (Okabe–Ito, without black: unreadable on the dark theme) for
 * the modules of one chart, by their rank in it; sixteen descriptor colours were near-identical.
 */
export const MODULE_PALETTE = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#F0E442'] as const;
/** «Прочие»: the modules past the top ones, in grey. */
export const OTHERS_COLOR = '#8c8c8c';
export const OTHERS_KEY = 'others';

/**
 * A chart of modules (series without their own colour) keeps the top `MODULE_PALETTE.length` modules by
 * the period's total, each in a palette colour, and sums the rest into «Прочие» (an empty link: it is
 * several lists). Series with their own colours (statuses, priorities) pass unchanged.
 */
export function topSeries(r: TimeSeriesResponse): TimeSeriesResponse {
  if (r.series.some((s) => s.color)) return r;
  const ranked = [...r.series].sort((a, b) => b.total - a.total);
  const top = ranked.slice(0, MODULE_PALETTE.length);
  const rest = ranked.slice(top.length);
  const series: TimeSeries[] = top.map((s, i) => ({ ...s, color: MODULE_PALETTE[i] ?? OTHERS_COLOR }));
  if (rest.length) {
    series.push({
      key: OTHERS_KEY,
      name: `Прочие (${rest.length})`,
      color: OTHERS_COLOR,
      total: rest.reduce((n, s) => n + s.total, 0),
      data: r.days.map((_, d) => rest.reduce((n, s) => n + (s.data[d] ?? 0), 0)),
      // Several lists: nothing to open (DashboardPage's open() ignores an empty path).
      link: { path: '', query: {} },
    });
  }
  return { ...r, series };
}

/** The theme's colours a chart needs (antd tokens): ECharts' own are for a white page only. */
export interface ChartColors {
  text: string;
  secondary: string;
  border: string;
  split: string;
  background: string;
}

/**
 * Applies the theme to an option: texts, legends, axes and grid lines, slice borders, the tooltip. The
 * dark theme had white grid lines and grey-on-black legends.
 */
export function themed(option: EChartsCoreOption, c: ChartColors): EChartsCoreOption {
  const o = option as Record<string, unknown>;
  const axis = (a: unknown) =>
    a && typeof a === 'object'
      ? {
          ...(a as object),
          axisLine: { lineStyle: { color: c.border } },
          axisTick: { ...((a as { axisTick?: object }).axisTick ?? {}), lineStyle: { color: c.border } },
          axisLabel: { color: c.secondary },
          splitLine: { lineStyle: { color: c.split } },
        }
      : a;
  const series = Array.isArray(o.series)
    ? (o.series as Record<string, unknown>[]).map((s) =>
        s.type === 'pie' ? { ...s, itemStyle: { ...((s.itemStyle as object) ?? {}), borderColor: c.background } } : s,
      )
    : o.series;
  return {
    ...o,
    textStyle: { ...((o.textStyle as object) ?? {}), color: c.text },
    ...(o.legend
      ? {
          legend: {
            ...(o.legend as object),
            textStyle: { color: c.text },
            pageTextStyle: { color: c.text },
            pageIconColor: c.text,
            inactiveColor: c.border,
          },
        }
      : {}),
    ...(o.xAxis ? { xAxis: axis(o.xAxis) } : {}),
    ...(o.yAxis ? { yAxis: axis(o.yAxis) } : {}),
    ...(o.tooltip
      ? {
          tooltip: {
            ...(o.tooltip as object),
            backgroundColor: c.background,
            borderColor: c.border,
            textStyle: { color: c.text },
          },
        }
      : {}),
    series,
  };
}

/** 'YYYY-MM-DD' → 'dd.MM' / 'dd.MM.yyyy'. */
const shortDay = (d: string) => `${d.slice(8, 10)}.${d.slice(5, 7)}`;
export const fullDay = (d: string) => `${d.slice(8, 10)}.${d.slice(5, 7)}.${d.slice(0, 4)}`;

const FONT = 'Inter, -apple-system, "Segoe UI", Roboto, Arial, sans-serif';
const base = { animationDuration: 300, textStyle: { fontFamily: FONT } };

/** Stacked bars per day (counts per day are small integers: a line of 0/1 spikes reads worse). */
export function seriesOption(r: TimeSeriesResponse): EChartsCoreOption {
  return {
    ...base,
    aria: { enabled: true, decal: { show: false } },
    tooltip: {
      trigger: 'axis',
      axisPointer: { type: 'shadow' },
      formatter: (items: { axisValueLabel: string; marker: string; seriesName: string; value: number; dataIndex: number }[]) => {
        const first = items[0];
        if (!first) return '';
        const total = items.reduce((a, i) => a + (Number(i.value) || 0), 0);
        const rows = items.filter((i) => Number(i.value) > 0).map((i) => `${i.marker}${i.seriesName}: <b>${i.value}</b>`);
        return [`<b>${fullDay(r.days[first.dataIndex] ?? '')}</b> — всего ${total}`, ...rows].join('<br/>');
      },
    },
    // Every series in the legend at once (at most eight: topSeries), on as many lines as it takes.
    legend: { bottom: 0, icon: 'circle', itemWidth: 10, itemHeight: 10 },
    grid: { left: 8, right: 16, top: 16, bottom: 16 + 22 * Math.ceil(r.series.length / 4), containLabel: true },
    xAxis: { type: 'category', data: r.days.map(shortDay), axisTick: { alignWithLabel: true } },
    yAxis: { type: 'value', minInterval: 1 },
    series: r.series.map((s: TimeSeries) => ({
      type: 'bar',
      name: s.name,
      data: s.data,
      stack: 'total',
      barMaxWidth: 28,
      emphasis: { focus: 'series' },
      itemStyle: styleOf(s),
    })),
  };
}

export function pieOption(r: TimeSeriesResponse): EChartsCoreOption {
  const totals = new Map(r.series.map((s) => [s.name, s.total]));
  return {
    ...base,
    aria: { enabled: true, decal: { show: false } },
    tooltip: { trigger: 'item', formatter: '{b}: <b>{c}</b> ({d}%)' },
    // Each slice's count also in the legend: in a third of 1280 px the outside label of a slice on the
    // ring's left may fall past the card's edge.
    legend: {
      bottom: 0,
      icon: 'circle',
      itemWidth: 10,
      itemHeight: 10,
      formatter: (name: string) => `${name}: ${formatNumber(totals.get(name) ?? 0)}`,
    },
    series: [
      {
        type: 'pie',
        radius: ['42%', '68%'],
        center: ['50%', '45%'],
        itemStyle: { borderColor: '#fff', borderWidth: 2 },
        // Counts inside the ring: an outside label of a slice on the left fell past the card's edge at 1280 px.
        label: {
          position: 'inside',
          formatter: '{c}',
          fontWeight: 600,
          color: '#fff',
          textBorderColor: 'rgba(0,0,0,0.6)',
          textBorderWidth: 2,
        },
        labelLine: { show: false },
        data: r.series.map((s) => ({ name: s.name, value: s.total, itemStyle: styleOf(s) })),
      },
    ],
  };
}

export function matrixOption(r: MatrixResponse): EChartsCoreOption {
  return {
    ...base,
    aria: { enabled: true, decal: { show: false } },
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    legend: { bottom: 0, icon: 'circle', itemWidth: 10, itemHeight: 10 },
    grid: { left: 8, right: 24, top: 8, bottom: 40, containLabel: true },
    xAxis: { type: 'value', minInterval: 1 },
    yAxis: { type: 'category', data: r.categories.map((c) => c.name), inverse: true },
    series: r.series.map((s) => ({
      type: 'bar',
      name: s.name,
      stack: 'total',
      data: s.data,
      barMaxWidth: 22,
      emphasis: { focus: 'series' },
      itemStyle: s.key !== 'none' && !s.color ? { color: NEUTRAL_COLOR } : styleOf(s),
    })),
  };
}
