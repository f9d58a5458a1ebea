/*
 * The manager's SLA view on «Главная»: per module — open events past their deadline now, and the median
 * times from creation to first triage and to resolution of the events created in the period; per
 * company for staff who see more than one. A module's overdue count opens its list filtered «Просрочено».
 */
import { formatSlaDuration } from '@forpost/contract/format';
import { MODULE_SECTIONS } from '@forpost/contract/modules/sections';
import type { SlaSummaryResponse } from '@forpost/contract/sla';
import { Link } from '@tanstack/react-router';
import { Segmented, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { EMPTY_VALUE, formatNumber } from '../../../lib/format';
import { ChartCard, type ChartQuery } from './ChartCard';

type Row = SlaSummaryResponse['modules'][number];

const duration = (s: number | null) => (s === null ? EMPTY_VALUE : formatSlaDuration(s));

export function SlaCard({ query }: { query: ChartQuery & { data?: SlaSummaryResponse } }) {
  const d = query.data;
  const [by, setBy] = useState<'modules' | 'companies'>('modules');
  const perCompany = (d?.companies.length ?? 0) > 0;
  const rows = by === 'companies' && perCompany ? (d?.companies ?? []) : (d?.modules ?? []);
  const overdue = d?.modules.reduce((n, r) => n + r.overdue, 0);
  const columns: ColumnsType<Row> = [
    {
      key: 'name',
      title: by === 'companies' && perCompany ? 'Компания' : 'Модуль',
      dataIndex: 'name',
      ellipsis: true,
    },
    {
      key: 'overdue',
      title: 'Просрочено',
      width: 120,
      align: 'right',
      render: (_: unknown, r: Row) => {
        const text = (
          <Typography.Text type={r.overdue ? 'danger' : 'secondary'} strong={r.overdue > 0}>
            {formatNumber(r.overdue)}
          </Typography.Text>
        );
        if (by === 'companies' && perCompany) return text;
        // (the API's module keys are registry codes; an unknown one keeps its key, as sectionOfModule does)
        const route = (MODULE_SECTIONS.find((m) => m.code === r.key)?.route ?? r.key).replace(/^\//, '');
        return r.overdue ? (
          <Link
            to="/$section"
            params={{ section: route }}
            search={{ sla: 'overdue', sort: 'sla_due_at' }}
            data-testid={`sla-overdue-${r.key}`}
          >
            {text}
          </Link>
        ) : (
          text
        );
      },
    },
    { key: 'open', title: 'Открыто', width: 100, align: 'right', render: (_: unknown, r: Row) => formatNumber(r.open) },
    {
      key: 'triage',
      title: 'Медиана до разбора',
      width: 150,
      align: 'right',
      render: (_: unknown, r: Row) => duration(r.median_triage_seconds),
    },
    {
      key: 'resolve',
      title: 'Медиана до решения',
      width: 150,
      align: 'right',
      render: (_: unknown, r: Row) => duration(r.median_resolve_seconds),
    },
  ];
  return (
    <ChartCard
      title="SLA: просрочено сейчас"
      testId="chart-sla"
      total={overdue}
      query={query}
      empty={!d || (d.modules.length === 0 && d.companies.length === 0)}
      height={160}
      hint="Медианы — по событиям, созданным за период"
    >
      {perCompany && (
        <Segmented
          size="small"
          style={{ marginBottom: 8 }}
          data-testid="sla-by"
          value={by}
          onChange={(v) => setBy(v as 'modules' | 'companies')}
          options={[
            { value: 'modules', label: 'По модулям' },
            { value: 'companies', label: 'По компаниям' },
          ]}
        />
      )}
      <Table<Row>
        data-testid="sla-table"
        size="small"
        rowKey="key"
        columns={columns}
        dataSource={rows}
        pagination={rows.length > 8 ? { pageSize: 8, size: 'small', showSizeChanger: false } : false}
        scroll={{ x: 640 }}
      />
    </ChartCard>
  );
}
