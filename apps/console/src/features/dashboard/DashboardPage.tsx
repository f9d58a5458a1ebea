/*
 * «Главная»: new events over time by module, critical events, events by priority, media sentiment,
 * domains and accounts — for the company chosen in the header and a period (7/30/90 days or custom).
 * Every chart leads to the event list filtered by what was clicked. The chart requests are silent: a
 * failed chart shows its own error with «Повторить», and the page the API's message once, above them.
 */

import type { ChartLink, TimeSeriesResponse } from '@forpost/contract/analytics';
import {
  dayRangeParams,
  MAX_PERIOD_DAYS,
  PERIOD_PRESET_LABELS,
  PERIOD_PRESETS,
  type PeriodPreset,
  resolvePeriod,
} from '@forpost/contract/analytics-period';
import { MODULE_SECTIONS } from '@forpost/contract/modules/sections';
import { useNavigate } from '@tanstack/react-router';
import { Alert, Button, Card, Col, DatePicker, Flex, Row, Segmented, Select, Skeleton, Statistic, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { type ComponentProps, startTransition, useEffect, useMemo, useState } from 'react';
import { PageHeading } from '../../components/page/PageHeading';
import { dayjs, formatNumber } from '../../lib/format';
import { errorMessage } from '../../lib/http';
import { useCan } from '../auth/useMe';
import { useCompanyOptions } from '../companies/api/queries';
import { ALL_COMPANIES_LABEL, useCompanyFilter } from '../company/useCompanyId';
import { TakedownFiguresCard } from '../takedown/TakedownFiguresCard';
import { type DashboardParams, dashboardParams, useDashboardChart, useSlaSummary } from './api/queries';
import { ChartCard, type ChartQuery, isRetryable } from './components/ChartCard';
import { fullDay, matrixOption, pieOption, seriesOption, topSeries } from './components/chartOptions';
import { LazyEChart as EChart } from './components/LazyEChart';
import { MlQueueCard } from './components/MlQueueCard';
import { SlaCard } from './components/SlaCard';
import type { DashboardSearch } from './search';

const API_DAY = 'YYYY-MM-DD';
const CUSTOM = 'custom';

/**
 * Days the range picker offers: none in the future, and once the first day is picked only those
 * within MAX_PERIOD_DAYS of it (inclusive), the longest period the API answers.
 */
function disabledPeriodDay(current: Dayjs, info: { from?: Dayjs; type: string }): boolean {
  // Day cells, and month and year cells (off only when none of their days may be picked).
  const unit = info.type === 'date' ? 'day' : info.type === 'month' || info.type === 'year' ? info.type : null;
  if (unit === null) return false;
  if (current.startOf(unit).isAfter(dayjs().endOf('day'))) return true;
  if (!info.from) return false;
  const first = info.from.startOf('day');
  return (
    current.endOf(unit).isBefore(first.subtract(MAX_PERIOD_DAYS - 1, 'day')) ||
    current.startOf(unit).isAfter(first.add(MAX_PERIOD_DAYS - 1, 'day'))
  );
}

/**
 * False for the page's first render, true a frame later: the heading and its subtitle (the page's
 * largest text) are painted without waiting for the ~40 components of the filters, figures and
 * charts, which then render as a transition (yielding to input). The charts' requests left from
 * the route loader already; nothing waits for this. LCP of / (bench/README, console.bench).
 */
function useAfterFirstPaint(): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const frame = requestAnimationFrame(() => startTransition(() => setReady(true)));
    return () => cancelAnimationFrame(frame);
  }, []);
  return ready;
}

export function DashboardPage({ search, onSearch }: { search: DashboardSearch; onSearch: (next: DashboardSearch) => void }) {
  const navigate = useNavigate();
  const bodyReady = useAfterFirstPaint();
  const companyId = useCompanyFilter();
  // The takedown figures: for those who see domains (events.read).
  const canTakedown = useCan('events.read');
  const companies = useCompanyOptions();
  const custom = Boolean(search.from && search.to);
  const params: DashboardParams = useMemo(
    () => dashboardParams({ period: search.period, from: search.from, to: search.to, modules: search.modules }, companyId),
    [companyId, search.from, search.to, search.period, search.modules],
  );
  const modules = params.modules;

  const newEvents = useDashboardChart('newevents', params);
  const critical = useDashboardChart('criticalevents', params);
  const priority = useDashboardChart('priorityevents', params);
  const connotation = useDashboardChart('connotationevents', params);
  const domains = useDashboardChart('domainevents', params);
  const accounts = useDashboardChart('accountevents', params);
  const sla = useSlaSummary(params);

  const charts = [newEvents, critical, priority, connotation, domains, accounts, sla];
  const failed = charts.filter((q) => q.isError);
  const failedMessages = [...new Set(failed.map((q) => errorMessage(q.error)))];
  const retryable = failed.filter((q) => isRetryable(q.error));

  // The period shown (subtitle, picker) is the page's own — the URL's — not an answer's: a failed
  // request must not clear the picker.
  const range = resolvePeriod(custom ? { from: search.from, to: search.to } : { period: search.period });

  /** Opens the event list the clicked element stands for, over `from`..`to`. */
  const open = (link: ChartLink | null | undefined, from?: string, to?: string) => {
    if (!link?.path || !from || !to) return;
    void navigate({
      to: '/$section',
      params: { section: link.path.replace(/^\//, '') },
      search: { ...link.query, ...dayRangeParams(from, to) },
    });
  };

  const negative = connotation.data?.series.find((s) => s.key === 'Negative')?.total ?? 0;
  const companyName = companyId === undefined ? ALL_COMPANIES_LABEL : (companies.nameOf(companyId) ?? '…');

  return (
    <>
      <PageHeading
        title="Главная"
        subtitle={
          <span data-testid="dashboard-subtitle">
            Сводка по событиям · {companyName}
            {` · ${fullDay(range.from)} — ${fullDay(range.to)}`}
          </span>
        }
      />
      {bodyReady ? body() : <Skeleton active paragraph={{ rows: 8 }} />}
    </>
  );

  function body() {
    return (
      <>
        <Card styles={{ body: { padding: 12 } }} style={{ marginBottom: 16 }}>
          <Flex gap={12} wrap align="center">
            <Segmented
              data-testid="period-presets"
              value={custom ? CUSTOM : (search.period ?? '30d')}
              options={[
                ...PERIOD_PRESETS.map((p) => ({ value: p, label: PERIOD_PRESET_LABELS[p] })),
                { value: CUSTOM, label: 'Период', disabled: !custom },
              ]}
              onChange={(v) => {
                if (v !== CUSTOM) onSearch({ period: v === '30d' ? undefined : (v as PeriodPreset), modules: search.modules });
              }}
            />
            <DatePicker.RangePicker
              data-testid="period-range"
              format="DD.MM.YYYY"
              allowClear={custom}
              placeholder={['Начало', 'Конец']}
              value={[dayjs(range.from, API_DAY), dayjs(range.to, API_DAY)]}
              disabledDate={disabledPeriodDay}
              onChange={(v) => {
                if (!v?.[0] || !v[1]) onSearch({ modules: search.modules });
                else onSearch({ from: v[0].format(API_DAY), to: v[1].format(API_DAY), modules: search.modules });
              }}
            />
            <Select
              mode="multiple"
              allowClear
              data-testid="modules-filter"
              aria-label="Модули"
              style={{ minWidth: 260, flex: '1 1 260px', maxWidth: 560 }}
              placeholder="Все модули"
              maxTagCount="responsive"
              value={modules ?? []}
              options={MODULE_SECTIONS.map((m) => ({ value: m.code, label: m.name }))}
              optionFilterProp="label"
              onChange={(v: string[]) => onSearch({ ...search, modules: v.length ? v.join(',') : undefined })}
            />
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              Дни по московскому времени · компания выбирается в шапке
            </Typography.Text>
          </Flex>
        </Card>

        {failed.length > 0 && (
          <Alert
            type="error"
            showIcon
            data-testid="dashboard-error"
            style={{ marginBottom: 16 }}
            title={
              failed.length === charts.length
                ? 'Не удалось загрузить сводку'
                : `Не удалось загрузить графики: ${failed.length} из ${charts.length}`
            }
            description={failedMessages.join(' · ')}
            action={
              retryable.length > 1 ? (
                <Button size="small" onClick={() => retryable.forEach((q) => void q.refetch())}>
                  Повторить все
                </Button>
              ) : null
            }
          />
        )}

        <Row gutter={[16, 16]} style={{ marginBottom: 16 }}>
          {[
            { title: 'Новые события', value: newEvents.data?.total, loading: newEvents.isLoading, testId: 'kpi-new' },
            {
              title: 'Критические',
              value: critical.data?.total,
              loading: critical.isLoading,
              testId: 'kpi-critical',
              danger: true,
            },
            {
              title: 'Негативные публикации',
              value: connotation.data ? negative : undefined,
              loading: connotation.isLoading,
              testId: 'kpi-negative',
            },
            { title: 'Домены', value: domains.data?.total, loading: domains.isLoading, testId: 'kpi-domains' },
          ].map((k) => (
            <Col key={k.testId} xs={12} md={8} xl={4}>
              <Card style={{ height: '100%' }} styles={{ body: { padding: 16 } }} data-testid={k.testId}>
                <Statistic
                  title={k.title}
                  loading={k.loading}
                  value={k.value === undefined ? '—' : formatNumber(k.value)}
                  valueStyle={k.danger && k.value ? { color: '#cf1322' } : undefined}
                />
              </Card>
            </Col>
          ))}
          <Col xs={24} md={16} xl={8}>
            <MlQueueCard companyId={companyId} />
          </Col>
        </Row>

        <Row gutter={[16, 16]}>
          <Col span={24}>
            <SlaCard query={sla} />
          </Col>
          {canTakedown && (
            <Col span={24}>
              <TakedownFiguresCard companyId={companyId} />
            </Col>
          )}
          <Col span={24}>
            <DaySeriesChart
              title="Новые события по модулям"
              name="new"
              query={newEvents}
              hint="Нажмите на столбец, чтобы открыть события"
              onOpen={open}
            />
          </Col>
          <Col xs={24} xl={12}>
            <DaySeriesChart title="Критические события" name="critical" query={critical} onOpen={open} />
          </Col>
          <Col xs={24} xl={12}>
            <QueryChart
              title="События по приоритетам"
              name="priority"
              query={priority}
              height={(d) => Math.max(240, 60 + d.categories.length * 34)}
              option={matrixOption}
              onClick={(d, e) => open(d.series[e.seriesIndex]?.links[e.dataIndex], d.from, d.to)}
            />
          </Col>
          <Col xs={24} xl={8}>
            <QueryChart
              title="Тональность СМИ"
              name="connotation"
              query={connotation}
              option={pieOption}
              onClick={(d, e) => open(d.series[e.dataIndex]?.link, d.from, d.to)}
            />
          </Col>
          <Col xs={24} xl={8}>
            <DaySeriesChart title="Домены по статусам" name="domains" query={domains} onOpen={open} />
          </Col>
          <Col xs={24} xl={8}>
            <DaySeriesChart title="Аккаунты по статусам" name="accounts" query={accounts} onOpen={open} />
          </Col>
        </Row>
      </>
    );
  }
}

type EChartProps = ComponentProps<typeof EChart>;
type ChartClick = Parameters<NonNullable<EChartProps['onClick']>>[0];

/** A chart card over one dashboard request: its error, empty and loading states, and the chart once answered. */
function QueryChart<D extends { total: number }>({
  title,
  name,
  query,
  hint,
  height,
  option,
  onClick,
  data,
}: {
  title: string;
  /** `chart-{name}` / `echart-{name}` test ids. */
  name: string;
  query: ChartQuery & { data?: D };
  hint?: string;
  height?: (d: D) => number;
  option: (d: D) => EChartProps['option'];
  onClick: (d: D, e: ChartClick) => void;
  /** What is drawn (and clicked) of the answer, when not the answer itself. */
  data?: (d: D) => D;
}) {
  const answer = query.data;
  const d = useMemo(() => (answer && data ? data(answer) : answer), [answer, data]);
  return (
    <ChartCard title={title} testId={`chart-${name}`} total={d?.total} query={query} empty={!d?.total} hint={hint}>
      {d && <EChart testId={`echart-${name}`} height={height?.(d)} option={option(d)} onClick={(e) => onClick(d, e)} />}
    </ChartCard>
  );
}

/** A chart of counts per day (bars or a line per series); a click opens that series' events of that day. */
function DaySeriesChart(props: {
  title: string;
  name: string;
  query: ChartQuery & { data?: TimeSeriesResponse };
  hint?: string;
  onOpen: (link: ChartLink | null | undefined, from?: string, to?: string) => void;
}) {
  const { onOpen, ...rest } = props;
  return (
    <QueryChart
      {...rest}
      // The top modules and «Прочие» (sixteen stacked modules were unreadable).
      data={topSeries}
      option={seriesOption}
      onClick={(d, e) => {
        const day = d.days[e.dataIndex];
        onOpen(d.series[e.seriesIndex]?.link, day, day);
      }}
    />
  );
}
