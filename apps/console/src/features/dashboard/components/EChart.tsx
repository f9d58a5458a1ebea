/*
 * ECharts in React, tree-shaken: only the charts and components the dashboard uses, the SVG renderer
 * (crisp, and every mark is a DOM node a test can click). Imported by the home page's chunk only.
 */

import { theme } from 'antd';
import { BarChart, PieChart } from 'echarts/charts';
import { AriaComponent, GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import type { EChartsCoreOption } from 'echarts/core';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { type CSSProperties, useEffect, useMemo, useRef } from 'react';
import { themed } from './chartOptions';

echarts.use([BarChart, PieChart, GridComponent, LegendComponent, TooltipComponent, AriaComponent, SVGRenderer]);

export interface ChartClick {
  seriesIndex: number;
  dataIndex: number;
  componentType: string;
}

export function EChart({
  option,
  height = 300,
  onClick,
  style,
  testId,
}: {
  option: EChartsCoreOption;
  height?: number;
  onClick?: (e: ChartClick) => void;
  style?: CSSProperties;
  testId?: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  const click = useRef(onClick);
  click.current = onClick;

  useEffect(() => {
    if (!ref.current) return;
    const c = echarts.init(ref.current, undefined, { renderer: 'svg' });
    chart.current = c;
    c.on('click', (p) => {
      const e = p as unknown as ChartClick;
      if (e.componentType === 'series') click.current?.(e);
    });
    const ro = new ResizeObserver(() => c.resize());
    ro.observe(ref.current);
    return () => {
      ro.disconnect();
      c.dispose();
      chart.current = null;
    };
  }, []);

  // The theme's colours (the dark theme's too): texts, legends, axes, grid lines.
  const { token } = theme.useToken();
  const shown = useMemo(
    () =>
      themed(option, {
        text: token.colorText,
        secondary: token.colorTextSecondary,
        border: token.colorBorder,
        split: token.colorBorderSecondary,
        background: token.colorBgElevated,
      }),
    [option, token],
  );
  useEffect(() => {
    chart.current?.setOption(shown, { notMerge: true });
  }, [shown]);

  return (
    <div ref={ref} style={{ width: '100%', height, cursor: onClick ? 'pointer' : undefined, ...style }} data-testid={testId} />
  );
}
