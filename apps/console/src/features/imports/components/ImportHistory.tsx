/* The imports of this section: status, progress, counters; open one, download its errors, delete it (undo). */
import { DeleteOutlined, DownloadOutlined } from '@ant-design/icons';
import { formatDateTime, formatFileSize, formatNumber } from '@forpost/contract/format';
import type { ImportItem } from '@forpost/contract/imports';
import { Button, Card, Flex, Popconfirm, Progress, Table, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { EmptyState, LoadError } from '../../../components/page/QueryState';
import { onDownloadClick } from '../../../lib/download';
import { feedback } from '../../../lib/feedback';
import { useDeleteImport } from '../api/mutations';
import { errorReportUrl, type ImportTarget, isActive, useImportsQuery } from '../api/queries';
import { ImportStatusTag, percentOf, StalledNote } from './ProgressCard';

export interface ImportHistoryProps {
  target: ImportTarget;
  companyId?: number;
  currentId?: number;
  onOpen: (id: number) => void;
  onDeleted: (id: number) => void;
}

export function ImportHistory({ target, companyId, currentId, onOpen, onDeleted }: ImportHistoryProps) {
  const { message } = feedback;
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(10);
  const list = useImportsQuery(target, { page, page_size: pageSize, company_id: companyId });
  const del = useDeleteImport(target);
  /** The import whose «Удалить импорт?» is open (its button's tooltip stays hidden meanwhile). */
  const [confirming, setConfirming] = useState<number | null>(null);
  const what = target.kind === 'module' ? 'события' : 'записи каталога';

  return (
    <Card title="История импортов" data-testid="import-history">
      {list.isError && !list.data ? (
        <LoadError error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <Table<ImportItem>
          size="small"
          rowKey="id"
          loading={list.isFetching && !list.data}
          dataSource={list.data?.items ?? []}
          rowClassName={(r) => (r.id === currentId ? 'ant-table-row-selected' : '')}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: <EmptyState text="Импортов пока не было" /> }}
          pagination={{
            current: page,
            pageSize,
            total: list.data?.total ?? 0,
            showSizeChanger: true,
            pageSizeOptions: [10, 20, 50],
            showTotal: (t) => `Всего: ${t}`,
            onChange: (p, ps) => {
              setPage(ps !== pageSize ? 1 : p);
              setPageSize(ps);
            },
          }}
          columns={[
            {
              title: 'Файл',
              key: 'file',
              width: 180,
              ellipsis: true,
              render: (_, r) => (
                <Flex vertical>
                  <Typography.Link onClick={() => onOpen(r.id)}>{r.file_name}</Typography.Link>
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {formatFileSize(r.file_size)}
                  </Typography.Text>
                </Flex>
              ),
            },
            ...(target.kind === 'module'
              ? [{ title: 'Компания', dataIndex: 'company_name', width: 140, render: (v: string | null) => v ?? '—' }]
              : []),
            {
              title: 'Статус',
              key: 'status',
              width: 140,
              render: (_, r) =>
                isActive(r) ? (
                  <Flex vertical>
                    <ImportStatusTag item={r} />
                    {r.stalled ? <StalledNote small /> : <Progress percent={percentOf(r)} size="small" status="active" />}
                  </Flex>
                ) : (
                  <Tooltip title={r.message ?? undefined}>
                    <span>
                      <ImportStatusTag item={r} />
                    </span>
                  </Tooltip>
                ),
            },
            {
              title: 'Строк',
              key: 'rows',
              width: 80,
              align: 'right',
              render: (_, r) => formatNumber(r.rows_total ?? r.rows_read),
            },
            {
              title: 'Результат',
              key: 'counts',
              width: 160,
              render: (_, r) => {
                // Undone: the events it created are deleted again (struck through), the updated ones stay
                // as they were changed; neither reads as a fresh result (no green).
                if (r.status === 'undone')
                  return (
                    <Flex vertical data-testid="import-undone-counts">
                      {r.created ? (
                        <Typography.Text type="secondary" delete>{`создано ${formatNumber(r.created)}`}</Typography.Text>
                      ) : null}
                      {r.updated ? (
                        <Typography.Text type="secondary">{`обновлено ${formatNumber(r.updated)}`}</Typography.Text>
                      ) : null}
                      <Typography.Text type="secondary">{r.created ? 'созданные удалены' : 'отменён'}</Typography.Text>
                    </Flex>
                  );
                const parts = [
                  r.created ? (
                    <Typography.Text key="c" type="success">{`создано ${formatNumber(r.created)}`}</Typography.Text>
                  ) : null,
                  r.updated ? <span key="u">{`обновлено ${formatNumber(r.updated)}`}</span> : null,
                  r.skipped ? <span key="s">{`пропущено ${formatNumber(r.skipped)}`}</span> : null,
                  r.failed ? (
                    <Typography.Text key="f" type="danger">{`с ошибками ${formatNumber(r.failed)}`}</Typography.Text>
                  ) : null,
                ].filter(Boolean);
                return parts.length ? <Flex vertical>{parts}</Flex> : <Typography.Text type="secondary">—</Typography.Text>;
              },
            },
            {
              title: 'Загружен',
              key: 'uploaded',
              width: 140,
              render: (_, r) => (
                <Flex vertical>
                  <span>{formatDateTime(r.created_at)}</span>
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {r.author_name ?? '—'}
                  </Typography.Text>
                </Flex>
              ),
            },
            {
              title: '',
              key: 'actions',
              width: 72,
              fixed: 'right',
              render: (_, r) => (
                <Flex gap={4}>
                  <Tooltip title={r.errors_count ? 'Отчёт об ошибках' : 'Ошибок нет'}>
                    <Button
                      size="small"
                      type="text"
                      icon={<DownloadOutlined />}
                      disabled={!r.errors_count}
                      href={r.errors_count ? errorReportUrl(target, r.id) : undefined}
                      download
                      onClick={onDownloadClick}
                      aria-label="Отчёт об ошибках"
                    />
                  </Tooltip>
                  {/* The button's tooltip hides while its confirmation is open: it covered «Удалить» / «Отмена». */}
                  {r.status !== 'undone' && (
                    <Popconfirm
                      title="Удалить импорт?"
                      onOpenChange={(open) => setConfirming(open ? r.id : null)}
                      description={
                        r.created
                          ? `Созданные им ${what} (${formatNumber(r.created)}) будут удалены. Обновлённые останутся как есть.`
                          : 'Файл и история импорта будут удалены.'
                      }
                      okText="Удалить"
                      okButtonProps={{ danger: true }}
                      cancelText="Отмена"
                      onConfirm={() =>
                        del.mutateAsync(r.id).then(
                          () => {
                            // One that ran stays in the history as «Отменён».
                            message.success(r.status === 'uploaded' ? 'Импорт удалён' : 'Импорт отменён');
                            onDeleted(r.id);
                          },
                          () => undefined, // the HTTP client has shown the error
                        )
                      }
                    >
                      <Tooltip title="Удалить (отменить импорт)" {...(confirming === r.id ? { open: false } : {})}>
                        <Button size="small" type="text" danger icon={<DeleteOutlined />} aria-label="Удалить импорт" />
                      </Tooltip>
                    </Popconfirm>
                  )}
                </Flex>
              ),
            },
          ]}
        />
      )}
    </Card>
  );
}
