import { FUZZER_LABELS, FUZZERS, type Fuzzer } from '@forpost/contract/fuzzers';
import { Alert, Flex, Select, Skeleton, Table, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { EmptyState } from '../../components/page/QueryState';
import { formatNumber } from '../../lib/format';
import { errorMessage } from '../../lib/http';
import { usePreviewQuery } from './api';

const fuzzerLabel = (f: string) => FUZZER_LABELS[f as Fuzzer] ?? f;

/**
 * Every candidate of a domain with its fuzzer (POST /discovery/preview): a filter by fuzzer with counts,
 * the table paginated in the browser (the whole set is one answer).
 */
export function PreviewTable({ domain }: { domain: string }) {
  const q = usePreviewQuery(domain);
  const [fuzzer, setFuzzer] = useState<string | undefined>();
  const [page, setPage] = useState({ current: 1, pageSize: 50 });
  const counts = useMemo(() => {
    const m = new Map<string, number>();
    for (const c of q.data?.items ?? []) m.set(c.fuzzer, (m.get(c.fuzzer) ?? 0) + 1);
    return m;
  }, [q.data]);
  const rows = useMemo(
    () => (fuzzer ? (q.data?.items ?? []).filter((c) => c.fuzzer === fuzzer) : (q.data?.items ?? [])),
    [q.data, fuzzer],
  );

  if (!domain) return <EmptyState text="Введите домен, чтобы увидеть кандидатов" />;
  if (q.isPending) return <Skeleton active paragraph={{ rows: 6 }} />;
  if (q.isError) return <Alert type="error" showIcon message={errorMessage(q.error)} data-testid="preview-error" />;

  return (
    <div data-testid="preview">
      <Flex gap={12} align="center" wrap style={{ marginBottom: 12 }}>
        <Typography.Text strong data-testid="preview-total">
          Кандидатов: {formatNumber(q.data.total)}
        </Typography.Text>
        <Select
          allowClear
          placeholder="Все методы подбора"
          style={{ minWidth: 320 }}
          value={fuzzer}
          onChange={(v) => {
            setFuzzer(v);
            setPage((p) => ({ ...p, current: 1 }));
          }}
          options={FUZZERS.filter((f) => counts.has(f)).map((f) => ({
            value: f,
            label: `${FUZZER_LABELS[f]} — ${formatNumber(counts.get(f) ?? 0)}`,
          }))}
          data-testid="preview-fuzzer"
        />
      </Flex>
      <Table
        size="small"
        rowKey="domain"
        dataSource={rows}
        pagination={{
          ...page,
          showSizeChanger: true,
          pageSizeOptions: [50, 100, 200, 500],
          showTotal: (n) => `${formatNumber(n)} шт.`,
          onChange: (current, pageSize) => setPage({ current, pageSize }),
        }}
        columns={[
          {
            title: 'Домен',
            dataIndex: 'unicode',
            render: (u: string, c) => (
              <span>
                {u}
                {u !== c.domain && (
                  <Typography.Text type="secondary" style={{ marginLeft: 8 }}>
                    {c.domain}
                  </Typography.Text>
                )}
              </span>
            ),
          },
          { title: 'Метод подбора', dataIndex: 'fuzzer', width: 300, render: (f: string) => <Tag>{fuzzerLabel(f)}</Tag> },
        ]}
      />
    </div>
  );
}
