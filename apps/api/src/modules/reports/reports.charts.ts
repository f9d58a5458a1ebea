/* Report charts rendered on the server: ECharts SSR to SVG strings (pdfmake draws them as vectors). */

import { NO_PRIORITY_STYLE } from '@forpost/contract/chart-style';
import { BarChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TitleComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';

echarts.use([BarChart, PieChart, GridComponent, LegendComponent, TitleComponent, SVGRenderer]);

/** The console's palette, so the PDF looks like the dashboard. */
const PALETTE = [
  '#1677ff',
  '#52c41a',
  '#faad14',
  '#f5222d',
  '#722ed1',
  '#13c2c2',
  '#eb2f96',
  '#fa8c16',
  '#2f54eb',
  '#a0d911',
  '#fadb14',
  '#8c8c8c',
  '#597ef7',
  '#36cfc9',
  '#ff7a45',
  '#9254de',
];
/** Ant Design colour names of statuses, priorities and sentiment → hex. */
export const NAMED: Record<string, string> = {
  red: '#f5222d',
  orange: '#fa8c16',
  gold: '#faad14',
  blue: '#1677ff',
  green: '#52c41a',
  purple: '#722ed1',
  default: '#bfbfbf',
  processing: '#1677ff',
};
const FONT = { fontFamily: 'Roboto', color: '#262626' };

function render(width: number, height: number, option: Record<string, unknown>): string {
  const chart = echarts.init(null as unknown as Parameters<typeof echarts.init>[0], null, {
    renderer: 'svg',
    ssr: true,
    width,
    height,
  });
  try {
    chart.setOption({ animation: false, textStyle: FONT, color: PALETTE, ...option });
    return chart.renderToSVGString();
  } finally {
    chart.dispose();
  }
}

/** Stacked bars per day, one series per module. */
export function stackedBarsSvg(
  days: string[],
  series: { name: string; color?: string; data: number[] }[],
  width = 515,
  height = 240,
): string {
  const labels = days.map((d) => `${d.slice(8, 10)}.${d.slice(5, 7)}`);
  return render(width, height, {
    grid: { left: 40, right: 10, top: 10, bottom: series.length > 4 ? 70 : 50 },
    legend: { bottom: 0, itemWidth: 10, itemHeight: 10, textStyle: { fontSize: 9, ...FONT } },
    xAxis: { type: 'category', data: labels, axisLabel: { fontSize: 8, ...FONT } },
    yAxis: { type: 'value', minInterval: 1, axisLabel: { fontSize: 8, ...FONT } },
    series: series.map((s) => ({
      type: 'bar',
      name: s.name,
      stack: 'all',
      data: s.data,
      barMaxWidth: 24,
      ...(s.color ? { itemStyle: { color: s.color } } : {}),
    })),
  });
}

/** A doughnut; the legend below reads «Имя: N». */
export function pieSvg(
  title: string,
  items: { name: string; value: number; color?: string; striped?: boolean }[],
  width = 250,
  height = 230,
): string {
  const shown = items.filter((i) => i.value > 0);
  const values = new Map(shown.map((i) => [i.name, i.value]));
  return render(width, height, {
    title: { text: title, left: 'center', top: 0, textStyle: { fontSize: 11, fontWeight: 'bold', ...FONT } },
    legend: {
      bottom: 0,
      left: 'center',
      orient: 'horizontal',
      itemWidth: 8,
      itemHeight: 8,
      textStyle: { fontSize: 8, ...FONT },
      formatter: (name: string) => `${name}: ${values.get(name) ?? 0}`,
    },
    series: [
      {
        type: 'pie',
        radius: ['30%', '55%'],
        center: ['50%', '45%'],
        label: { show: true, position: 'inside', formatter: '{c}', fontSize: 8, color: '#fff', fontFamily: 'Roboto' },
        data: shown.map((i) => ({
          name: i.name,
          value: i.value,
          itemStyle: { ...(i.color ? { color: i.color } : {}), ...(i.striped ? { decal: NO_PRIORITY_STYLE.decal } : {}) },
        })),
      },
    ],
  });
}
