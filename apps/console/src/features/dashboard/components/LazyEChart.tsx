/*
 * The chart, loaded after the home page has rendered: ECharts (≈ 150 KB brotli, its own chunk) is
 * fetched and evaluated while the page's heading, cards and data requests are already on their way,
 * instead of holding the first render of `/` until it is ready (issue #16, LCP of `/`). Until then the
 * card shows a skeleton of the chart's height.
 */
import { Skeleton } from 'antd';
import { type ComponentProps, lazy, Suspense } from 'react';
import type { EChart } from './EChart';

const Chart = lazy(() => import('./EChart').then((m) => ({ default: m.EChart })));

export function LazyEChart(props: ComponentProps<typeof EChart>) {
  const height = props.height ?? 300;
  return (
    <Suspense
      fallback={
        <div style={{ height, overflow: 'hidden' }} data-testid="chart-loading">
          <Skeleton active paragraph={{ rows: Math.max(3, Math.floor(height / 40)) }} title={false} />
        </div>
      }
    >
      <Chart {...props} />
    </Suspense>
  );
}
