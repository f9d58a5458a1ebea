/*
 * The dry run's verdict above the sample rows: how many rows of the WHOLE file the import would
 * reject, by reason with the first rows of each, and the mapped columns that fail in most rows —
 * each with a one-click «Не загружать этот столбец».
 */
import { CheckCircleFilled } from '@ant-design/icons';
import { formatNumber } from '@forpost/contract/format';
import type { ImportCheck } from '@forpost/contract/imports';
import { Alert, Button, Flex, Spin, Table, Typography } from 'antd';
import { errorMessage } from '../../../lib/http';

export interface CheckSummaryProps {
  check: ImportCheck | undefined;
  loading: boolean;
  error: unknown;
  /** Why the check does not run yet (the mapping or the company is missing), if so. */
  waiting?: string;
  onUnmap: (col: number) => void;
}

type Reason = ImportCheck['reasons'][number];

export function CheckSummary({ check, loading, error, waiting, onUnmap }: CheckSummaryProps) {
  if (waiting) return <Alert type="info" showIcon message={waiting} data-testid="check-summary" />;
  if (error && !check)
    return (
      <Alert
        type="error"
        showIcon
        message="Не удалось проверить файл"
        description={errorMessage(error)}
        data-testid="check-summary"
      />
    );
  if (!check)
    return (
      <Alert
        type="info"
        showIcon
        icon={<Spin size="small" />}
        message="Проверяем все строки файла…"
        data-testid="check-summary"
      />
    );
  const ok = check.rows_failed === 0;
  return (
    <Flex vertical gap={12} data-testid="check-summary" aria-busy={loading}>
      {check.warnings.map((w) => (
        <Alert
          key={w.col}
          type="error"
          showIcon
          message={w.message}
          description="Возможно, столбец означает другое (например, атакуемый бренд, а не компанию-клиента)."
          action={
            <Button size="small" danger onClick={() => onUnmap(w.col)} data-testid="check-unmap">
              Не загружать этот столбец
            </Button>
          }
          data-testid="check-warning"
        />
      ))}
      {ok ? (
        <Typography.Text type="success" data-testid="check-verdict">
          <CheckCircleFilled /> Ошибок нет: проверены все строки файла ({formatNumber(check.rows_total)})
        </Typography.Text>
      ) : (
        <Typography.Text type="danger" strong data-testid="check-verdict">
          Импорт отклонит {formatNumber(check.rows_failed)} из {formatNumber(check.rows_total)} строк (ошибок:{' '}
          {formatNumber(check.errors_count)})
        </Typography.Text>
      )}
      {!ok && (
        <Table<Reason>
          size="small"
          pagination={false}
          rowKey={(r) => `${r.col ?? ''}|${r.message}`}
          dataSource={check.reasons}
          scroll={{ y: 320 }}
          data-testid="check-reasons"
          columns={[
            {
              title: 'Столбец',
              dataIndex: 'column',
              width: '20%',
              render: (v: string | null) => v ?? <Typography.Text type="secondary">вся строка</Typography.Text>,
            },
            { title: 'Причина', dataIndex: 'message' },
            { title: 'Строк', dataIndex: 'count', width: 90, align: 'right', render: (n: number) => formatNumber(n) },
            {
              title: 'Первые строки',
              key: 'examples',
              width: '30%',
              render: (_, r) => (
                <Typography.Text type="secondary" ellipsis={{ tooltip: true }}>
                  {r.examples.map((e) => (e.value ? `${e.row}: ${e.value}` : String(e.row))).join('; ')}
                </Typography.Text>
              ),
            },
          ]}
        />
      )}
    </Flex>
  );
}
