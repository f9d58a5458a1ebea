import { PlayCircleOutlined } from '@ant-design/icons';
import { RUN_STATUS_LABELS, RUN_TRIGGER_LABELS, type RunStatus } from '@forpost/contract/discovery';
import { companiesWith } from '@forpost/contract/permissions';
import { Link } from '@tanstack/react-router';
import { Button, Card, Form, Input, Modal, Select, Table, Tabs, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { PageHeading } from '../../components/page/PageHeading';
import { EmptyState, Loaded } from '../../components/page/QueryState';
import { feedback } from '../../lib/feedback';
import { formatDateTime, formatNumber } from '../../lib/format';
import { errorMessage } from '../../lib/http';
import { usePrincipal } from '../auth/useMe';
import { useCompanyOptions } from '../companies/api/queries';
import { useCompanyFilter } from '../company/useCompanyId';
import { AssetsCard } from './AssetsCard';
import { type DiscoveryRun, useRunsQuery, useStartRunMutation } from './api';
import { PreviewTable } from './PreviewTable';

const STATUS_COLORS: Record<RunStatus, string> = { queued: 'default', running: 'processing', done: 'success', failed: 'error' };

/** «Поиск доменов»: runs of the companies in scope (the header's company), assets and the candidate preview. */
export function DiscoveryPage() {
  const companyId = useCompanyFilter();
  const principal = usePrincipal();
  const companies = useCompanyOptions();
  const manageable = companiesWith(principal, 'discovery.manage');
  const startOptions = companies.options.filter((o) => manageable === 'all' || manageable.includes(o.value));
  const [page, setPage] = useState({ page: 1, page_size: 20 });
  const runs = useRunsQuery({ ...page, ...(companyId !== undefined ? { company_id: companyId } : {}) });
  const start = useStartRunMutation();
  const { message } = feedback;
  const [startOpen, setStartOpen] = useState(false);
  const [startCompany, setStartCompany] = useState<number | undefined>();
  const [domain, setDomain] = useState('');

  const openStart = () => {
    setStartCompany(companyId ?? (startOptions.length === 1 ? startOptions[0]?.value : undefined));
    setStartOpen(true);
  };
  const onStart = () =>
    startCompany !== undefined &&
    start
      .mutateAsync(startCompany)
      .then(() => {
        message.success('Поиск запущен');
        setStartOpen(false);
      })
      .catch((e) => message.error(errorMessage(e)));

  const runsTab = (
    <Loaded query={runs}>
      <Table<DiscoveryRun>
        rowKey="id"
        size="middle"
        loading={runs.isPending}
        dataSource={runs.data?.items ?? []}
        scroll={{ x: 980 }}
        locale={{ emptyText: <EmptyState text="Запусков пока не было" /> }}
        pagination={{
          current: page.page,
          pageSize: page.page_size,
          total: runs.data?.total ?? 0,
          showSizeChanger: true,
          onChange: (p, s) => setPage({ page: p, page_size: s }),
        }}
        columns={[
          {
            title: 'Начат',
            key: 'started',
            width: 150,
            render: (_: unknown, r) => (
              <div>
                {formatDateTime(r.started_at ?? r.created_at)}
                <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
                  {RUN_TRIGGER_LABELS[r.trigger]}
                </Typography.Text>
              </div>
            ),
          },
          { title: 'Компания', dataIndex: 'company_name', ellipsis: true },
          {
            title: 'Статус',
            dataIndex: 'status',
            width: 120,
            render: (s: RunStatus, r) => (
              <Tooltip title={r.error ?? undefined}>
                <Tag color={STATUS_COLORS[s]} data-testid="run-status">
                  {RUN_STATUS_LABELS[s]}
                </Tag>
              </Tooltip>
            ),
          },
          { title: 'Кандидатов', dataIndex: 'candidates', width: 110, align: 'right', render: formatNumber },
          { title: 'Проверено', dataIndex: 'resolved', width: 105, align: 'right', render: formatNumber },
          { title: 'Зарегистрировано', dataIndex: 'registered', width: 160, align: 'right', render: formatNumber },
          {
            title: 'Новых событий',
            dataIndex: 'new_events',
            width: 130,
            align: 'right',
            render: (n: number, r) =>
              n > 0 ? (
                <Link
                  to="/$section"
                  params={{ section: 'domains' }}
                  search={{ discovery_run: String(r.id), companyId: String(r.company_id) }}
                  data-testid="run-events"
                >
                  {formatNumber(n)}
                </Link>
              ) : (
                formatNumber(n)
              ),
          },
          { title: 'Ошибок', dataIndex: 'errors', width: 80, align: 'right', render: formatNumber },
        ]}
      />
    </Loaded>
  );

  return (
    <>
      <PageHeading
        title="Поиск доменов"
        subtitle="Двойники защищаемых доменов: перебор вариантов, проверка DNS и RDAP, журналы сертификатов"
        extra={
          startOptions.length > 0 && (
            <Button type="primary" icon={<PlayCircleOutlined />} onClick={openStart} data-testid="run-start">
              Запустить поиск
            </Button>
          )
        }
      />
      <Tabs
        items={[
          { key: 'runs', label: 'Запуски', children: runsTab },
          {
            key: 'assets',
            label: 'Активы',
            children:
              companyId !== undefined ? (
                <AssetsCard companyId={companyId} />
              ) : (
                <Card>
                  <EmptyState text="Выберите компанию в заголовке, чтобы увидеть её защищаемые активы" />
                </Card>
              ),
          },
          {
            key: 'preview',
            label: 'Предпросмотр',
            children: (
              <Card>
                <Form layout="inline" style={{ marginBottom: 16 }}>
                  <Form.Item label="Домен">
                    <Input.Search
                      placeholder="example.ru или пример.рф"
                      enterButton="Показать кандидатов"
                      style={{ width: 480 }}
                      onSearch={(v) => setDomain(v.trim())}
                      data-testid="preview-domain"
                    />
                  </Form.Item>
                </Form>
                <PreviewTable domain={domain} />
              </Card>
            ),
          },
        ]}
      />
      <Modal
        open={startOpen}
        title="Запустить поиск доменов"
        okText="Запустить"
        cancelText="Отмена"
        okButtonProps={{ disabled: startCompany === undefined, loading: start.isPending, id: 'run-confirm' }}
        onOk={onStart}
        onCancel={() => setStartOpen(false)}
      >
        <Form layout="vertical">
          <Form.Item label="Компания" required>
            <Select
              showSearch
              optionFilterProp="label"
              placeholder="Выберите компанию"
              value={startCompany}
              onChange={setStartCompany}
              options={startOptions}
              data-testid="run-company"
            />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
