/* /exports «Мои экспорты»: the user's files, their status and progress, download, delete. */
import { DeleteOutlined, DownloadOutlined } from '@ant-design/icons';
import { EXPORT_MSG, EXPORT_STATUS_COLORS, EXPORT_STATUS_LABELS, type ExportItem } from '@forpost/contract/exports';
import { formatDate, formatDateTime, formatFileSize, formatNumber, pluralRu } from '@forpost/contract/format';
import { Button, Card, Flex, Popconfirm, Progress, Table, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { PageHeading } from '../../components/page/PageHeading';
import { EmptyState, LoadError } from '../../components/page/QueryState';
import { onDownloadClick } from '../../lib/download';
import { feedback } from '../../lib/feedback';
import { useDeleteExport } from './api/mutations';
import { downloadUrl, exportActive, useExportsQuery } from './api/queries';

const percent = (e: ExportItem) => (e.rows_total ? Math.min(99, Math.floor((e.rows_written / e.rows_total) * 100)) : 0);

export function ExportsPage() {
  const { message } = feedback;
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(20);
  const list = useExportsQuery({ page, page_size: pageSize });
  const del = useDeleteExport();

  return (
    <>
      <PageHeading
        title="Мои экспорты"
        subtitle="Файлы, выгруженные из списков событий. Готовые файлы хранятся ограниченное время."
      />
      <Card>
        {list.isError && !list.data ? (
          <LoadError error={list.error} onRetry={() => void list.refetch()} />
        ) : (
          <Table<ExportItem>
            rowKey="id"
            data-testid="exports-table"
            loading={list.isFetching && !list.data}
            dataSource={list.data?.items ?? []}
            scroll={{ x: 880 }}
            locale={{
              emptyText: (
                <EmptyState
                  text={
                    <Flex vertical gap={4}>
                      <span>Экспортов пока нет</span>
                      <Typography.Text type="secondary">
                        Выгрузить события можно из любого списка кнопкой «Экспорт»
                      </Typography.Text>
                    </Flex>
                  }
                />
              ),
            }}
            pagination={{
              current: page,
              pageSize,
              total: list.data?.total ?? 0,
              showSizeChanger: true,
              pageSizeOptions: [10, 20, 50, 100],
              showTotal: (t) => `Всего: ${t}`,
              onChange: (p, ps) => {
                setPage(ps !== pageSize ? 1 : p);
                setPageSize(ps);
              },
            }}
            // Fits the ~928 px of a 1280 px screen with the side menu open: the name gets at least 260 px
            // (two lines at most), every column its header, nothing hides behind the pinned actions.
            columns={[
              {
                title: 'Название',
                key: 'name',
                render: (_, e) => (
                  <Flex vertical data-testid={`export-name-${e.id}`}>
                    <span title={e.file_name}>{e.name}</span>
                    {/* The number, format and fields: two exports of one list with one name still differ. */}
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      №{e.id} · {e.module_name} · {e.format.toUpperCase()} · {e.fields.length}{' '}
                      {e.fields.length === 1 ? 'поле' : e.fields.length < 5 ? 'поля' : 'полей'}
                    </Typography.Text>
                  </Flex>
                ),
              },
              {
                title: 'Статус',
                key: 'status',
                width: 150,
                render: (_, e) => (
                  <Flex vertical>
                    <Tooltip title={e.message ?? undefined}>
                      <Tag
                        color={e.stalled ? 'warning' : EXPORT_STATUS_COLORS[e.status]}
                        style={{ width: 'fit-content' }}
                        data-testid="export-status"
                      >
                        {EXPORT_STATUS_LABELS[e.status]}
                      </Tag>
                    </Tooltip>
                    {/* A worker that died: another one takes the export over automatically. */}
                    {e.stalled ? (
                      <Typography.Text type="warning" style={{ fontSize: 12 }} data-testid="export-stalled">
                        {EXPORT_MSG.stalled}
                      </Typography.Text>
                    ) : (
                      exportActive(e) && <Progress percent={percent(e)} size="small" status="active" />
                    )}
                  </Flex>
                ),
              },
              {
                title: 'Объём',
                key: 'rows',
                width: 110,
                align: 'right',
                render: (_, e) => (
                  <Flex vertical>
                    <span>
                      {e.status === 'done' || e.rows_written
                        ? `${formatNumber(e.rows_written)} ${pluralRu(e.rows_written, 'строка', 'строки', 'строк')}`
                        : '—'}
                    </span>
                    {e.size != null && (
                      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                        {formatFileSize(e.size)}
                      </Typography.Text>
                    )}
                  </Flex>
                ),
              },
              {
                title: 'Создан',
                dataIndex: 'created_at',
                width: 110,
                render: (d: string) => (
                  <Flex vertical>
                    <span>{formatDate(d)}</span>
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      {formatDateTime(d).slice(-5)}
                    </Typography.Text>
                  </Flex>
                ),
              },
              {
                title: 'Хранится до',
                dataIndex: 'expires_at',
                width: 124,
                render: (d: string | null) => <span data-testid="export-expires">{d ? formatDate(d) : '—'}</span>,
              },
              {
                title: '',
                key: 'actions',
                width: 136,
                fixed: 'right',
                render: (_, e) => (
                  <Flex gap={4}>
                    <Button
                      size="small"
                      type="link"
                      icon={<DownloadOutlined />}
                      disabled={e.status !== 'done'}
                      href={e.status === 'done' ? downloadUrl(e.id) : undefined}
                      download={e.file_name}
                      onClick={onDownloadClick}
                      data-testid="export-download"
                    >
                      Скачать
                    </Button>
                    <Popconfirm
                      title="Удалить экспорт?"
                      description="Файл будет удалён."
                      okText="Удалить"
                      okButtonProps={{ danger: true }}
                      cancelText="Отмена"
                      onConfirm={() =>
                        del.mutateAsync(e.id).then(
                          () => void message.success('Экспорт удалён'),
                          () => undefined,
                        )
                      }
                    >
                      <Tooltip title="Удалить">
                        <Button size="small" type="text" danger icon={<DeleteOutlined />} aria-label="Удалить экспорт" />
                      </Tooltip>
                    </Popconfirm>
                  </Flex>
                ),
              },
            ]}
          />
        )}
      </Card>
    </>
  );
}
