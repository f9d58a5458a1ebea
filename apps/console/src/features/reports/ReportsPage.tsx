import { DeleteOutlined, DownloadOutlined, MailOutlined, ReloadOutlined } from '@ant-design/icons';
import { MODULE_LIST } from '@forpost/contract/modules';
import { can } from '@forpost/contract/permissions';
import { REPORT_STATUS_COLORS, REPORT_STATUS_LABELS, type Report } from '@forpost/contract/reports';
import { Button, Card, Flex, Popconfirm, Space, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { ListTable } from '../../components/list/ListTable';
import type { SearchPatch } from '../../components/list/listSearch';
import { pageParams } from '../../components/list/pagination';
import { PageHeading } from '../../components/page/PageHeading';
import { EmptyState } from '../../components/page/QueryState';
import { onDownloadClick } from '../../lib/download';
import { feedback } from '../../lib/feedback';
import { formatDate, formatDateTime, formatFileSize } from '../../lib/format';
import { usePrincipal } from '../auth/useMe';
import { useCompanyOptions } from '../companies/api/queries';
import { ALL_COMPANIES_LABEL, useCompanyFilter } from '../company/useCompanyId';
import { useDeleteReportMutation, useReportActionMutation } from './api/mutations';
import { useReportsQuery } from './api/queries';
import { CreateReportCard } from './components/CreateReportCard';
import { SendReportModal } from './components/SendReportModal';
import type { ReportsSearch } from './search';
import { sendState } from './sendState';

const moduleNames = (codes: string[]) =>
  codes.length ? codes.map((c) => MODULE_LIST.find((m) => m.code === c)?.name ?? c).join(', ') : 'Все модули';

/** /reports: create a PDF report for a company and period; list with status, download, regenerate, send, delete. */
export function ReportsPage({ search, onSearch }: { search: ReportsSearch; onSearch: (p: SearchPatch<ReportsSearch>) => void }) {
  const { message } = feedback;
  const principal = usePrincipal();
  const canManageAny = can(principal, 'reports.manage');
  const companyId = useCompanyFilter();
  const companies = useCompanyOptions();
  const list = useReportsQuery({ ...pageParams(search), company_id: companyId });
  const action = useReportActionMutation();
  const remove = useDeleteReportMutation();
  const [sending, setSending] = useState<Report | null>(null);

  return (
    <>
      <PageHeading
        title="Отчёты"
        subtitle={`PDF-отчёты по событиям компании за период · ${companyId === undefined ? ALL_COMPANIES_LABEL : (companies.nameOf(companyId) ?? '…')}`}
      />
      {canManageAny && <CreateReportCard />}
      <Card>
        <ListTable<Report>
          query={list}
          loading={list.isLoading}
          data-testid="reports-table"
          // Fits the ~928 px of a 1280 px screen with the side menu open: nothing hides behind the pinned actions.
          scroll={{ x: 900 }}
          locale={{ emptyText: <EmptyState text="Отчётов пока нет" /> }}
          paging={{ search, onSearch }}
          columns={[
            {
              title: 'Отчёт',
              dataIndex: 'name',
              render: (name: string, r) => (
                <Flex vertical>
                  <Typography.Text strong>{name}</Typography.Text>
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {moduleNames(r.modules)}
                  </Typography.Text>
                </Flex>
              ),
            },
            { title: 'Компания', dataIndex: 'company_name', width: 116 },
            { title: 'Период', key: 'period', width: 112, render: (_, r) => `${formatDate(r.from)} — ${formatDate(r.to)}` },
            {
              title: 'Статус',
              key: 'status',
              width: 110,
              render: (_, r) => (
                <Tooltip title={r.error ?? undefined}>
                  <Tag color={REPORT_STATUS_COLORS[r.status]} data-testid={`report-status-${r.id}`}>
                    {REPORT_STATUS_LABELS[r.status]}
                  </Tag>
                </Tooltip>
              ),
            },
            {
              title: 'Сформирован',
              key: 'generated',
              width: 144,
              render: (_, r) =>
                r.generated_at ? (
                  <Flex vertical>
                    <span>{formatDateTime(r.generated_at)}</span>
                    {r.size ? (
                      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                        {formatFileSize(r.size)}
                      </Typography.Text>
                    ) : null}
                  </Flex>
                ) : (
                  <Typography.Text type="secondary">—</Typography.Text>
                ),
            },
            {
              title: 'Отправка',
              key: 'send',
              width: 140,
              render: (_, r) => {
                if (!r.last_send) return <Typography.Text type="secondary">—</Typography.Text>;
                const st = sendState(r.last_send);
                return (
                  <Tooltip title={st.detail}>
                    <Tag color={st.color} data-testid={`report-send-${r.id}`} style={{ whiteSpace: 'normal', maxWidth: '100%' }}>
                      {st.text}
                    </Tag>
                  </Tooltip>
                );
              },
            },
            {
              title: '',
              key: 'actions',
              width: 136,
              fixed: 'right',
              render: (_, r) => {
                const manage = can(principal, 'reports.manage', r.company_id);
                return (
                  <Space size={4}>
                    <Tooltip title="Скачать PDF">
                      <Button
                        size="small"
                        icon={<DownloadOutlined />}
                        href={r.download_url ?? undefined}
                        disabled={!r.download_url}
                        download
                        onClick={onDownloadClick}
                        aria-label="Скачать"
                        data-testid={`report-download-${r.id}`}
                      />
                    </Tooltip>
                    {manage && (
                      <>
                        <Tooltip title="Отправить по почте">
                          <Button
                            size="small"
                            icon={<MailOutlined />}
                            disabled={r.status !== 'ready'}
                            onClick={() => setSending(r)}
                            aria-label="Отправить"
                          />
                        </Tooltip>
                        <Tooltip title="Сформировать заново">
                          <Button
                            size="small"
                            icon={<ReloadOutlined />}
                            disabled={r.status === 'queued' || r.status === 'rendering'}
                            aria-label="Сформировать заново"
                            onClick={() =>
                              action.mutate({ id: r.id, action: 'regenerate' }, { onSuccess: (x) => message.success(x.message) })
                            }
                          />
                        </Tooltip>
                        <Popconfirm
                          title="Удалить отчёт?"
                          okText="Удалить"
                          cancelText="Отмена"
                          okButtonProps={{ danger: true }}
                          onConfirm={() => remove.mutateAsync(r.id).then(() => void message.success('Отчёт удалён'))}
                        >
                          <Button size="small" danger icon={<DeleteOutlined />} aria-label="Удалить" />
                        </Popconfirm>
                      </>
                    )}
                  </Space>
                );
              },
            },
          ]}
        />
      </Card>
      <SendReportModal report={sending} onClose={() => setSending(null)} />
    </>
  );
}
