/* ECharts options of the home page's charts, from the API's series (pure). */
import type { MatrixResponse, TimeSeries, TimeSeriesResponse } from '@forpost/contract/analytics';
import { MODULE_SECTIONS } from '@forpost/contract/modules/sections';
import type { EChartsCoreOption } from 'echarts/core';
import { formatNumber } from '../../../lib/format';

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
  default: '#bfbfbf',
  processing: '#1677ff',
};
/** The module's colour (its descriptor's: the same in every chart, the PDF report's too); grey for an unknown code. */
const moduleColor = (code: string) => MODULE_SECTIONS.find((m) => m.code === code)?.color ?? '#8c8c8c';
const colorOf = (s: { key: string; color: string | null }) => (s.color ? (NAMED_COLORS[s.color] ?? s.color) : moduleColor(s.key));

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
    legend: { type: 'scroll', bottom: 0, icon: 'circle', itemWidth: 10, itemHeight: 10 },
    grid: { left: 8, right: 16, top: 16, bottom: 40, containLabel: true },
    xAxis: { type: 'category', data: r.days.map(shortDay), axisTick: { alignWithLabel: true } },
    yAxis: { type: 'value', minInterval: 1 },
    series: r.series.map((s: TimeSeries) => ({
      type: 'bar',
      name: s.name,
      data: s.data,
      stack: 'total',
      barMaxWidth: 28,
      emphasis: { focus: 'series' },
      itemStyle: { color: colorOf(s) },
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
        label: { formatter: '{c}', fontWeight: 600 },
        data: r.series.map((s) => ({ name: s.name, value: s.total, itemStyle: { color: colorOf(s) } })),
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
      itemStyle: {
        color:
          s.key === 'none'
            ? '#d9d9d9'
            : s.color === 'default'
              ? '#8c8c8c'
              : s.color
                ? (NAMED_COLORS[s.color] ?? s.color)
                : '#bfbfbf',
      },
    })),
  };
}
