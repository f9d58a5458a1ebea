import { PlayCircleOutlined, StopOutlined } from '@ant-design/icons';
import { isActiveRun, RUN_TRIGGER_LABELS, type RunStatus, runIncomplete } from '@forpost/contract/discovery';
import { companiesWith } from '@forpost/contract/permissions';
import { Link } from '@tanstack/react-router';
import { Alert, Button, Card, Form, Input, Modal, Popconfirm, Select, Table, Tabs, Tag, Tooltip, Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import { PageHeading } from '../../components/page/PageHeading';
import { EmptyState, Loaded } from '../../components/page/QueryState';
import { feedback } from '../../lib/feedback';
import { formatDateTime, formatNumber } from '../../lib/format';
import { errorMessage } from '../../lib/http';
import { usePrincipal } from '../auth/useMe';
import { useCompanyOptions } from '../companies/api/queries';
import { useCompanyFilter } from '../company/useCompanyId';
import { AssetsCard } from './AssetsCard';
import { type DiscoveryRun, useCancelRunMutation, useRunsQuery, useSourcesQuery, useStartRunMutation } from './api';
import { PreviewTable } from './PreviewTable';
import { hasIssues, RunIssuesPanel, runStatusTag } from './RunIssues';
import { SourcesAlert } from './SourcesAlert';

/**
 * The run's status tag: a running run asked to stop is «Останавливается»; a cancelled one says how far it
 * got; an unfinished one has its stop button (`stop`) beneath.
 */
function RunStatusCell({ run, stop }: { run: DiscoveryRun; stop: ReactNode }) {
  const stopping = run.status === 'running' && run.cancel_requested_at !== null;
  const checked = run.resolved + run.errors;
  const tag = runStatusTag(run, stopping);
  return (
    <>
      <Tooltip title={run.error ?? undefined}>
        <Tag color={tag.color} data-testid="run-status">
          {tag.label}
        </Tag>
      </Tooltip>
      {run.status === 'cancelled' && (
        <Typography.Text
          type="secondary"
          style={{ display: 'block', fontSize: 12, whiteSpace: 'nowrap' }}
          data-testid="run-partial"
        >
          {run.started_at === null
            ? 'до начала проверки'
            : `проверено ${formatNumber(checked)} из ${formatNumber(run.candidates)}`}
        </Typography.Text>
      )}
      {stop}
    </>
  );
}

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
  const cancel = useCancelRunMutation();
  const canManage = (companyId: number) => manageable === 'all' || manageable.includes(companyId);
  const { message } = feedback;
  const [startOpen, setStartOpen] = useState(false);
  const [startCompany, setStartCompany] = useState<number | undefined>();
  const [domain, setDomain] = useState('');
  const sources = useSourcesQuery(companyId);
  const startSources = useSourcesQuery(startOpen ? startCompany : companyId);
  const canStart = startOptions.length > 0;
  const noDomains = sources.data?.company?.domains === 0;

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
  const onCancel = (id: number) =>
    cancel
      .mutateAsync(id)
      .then((r) => message.success(r.status === 'cancelled' ? 'Поиск отменён' : 'Поиск останавливается — найденное сохранится'))
      .catch((e) => message.error(errorMessage(e)));

  const runsTab = (
    <Loaded query={runs}>
      <Table<DiscoveryRun>
        rowKey="id"
        size="middle"
        loading={runs.isPending}
        dataSource={runs.data?.items ?? []}
        scroll={{ x: 1140 }}
        expandable={{
          rowExpandable: hasIssues,
          expandedRowRender: (r) => <RunIssuesPanel run={r} />,
        }}
        locale={{
          emptyText: (
            <EmptyState
              text={
                canStart
                  ? 'Запусков пока не было'
                  : 'Запусков пока не было. Запускать поиск могут администратор компании и аналитики Форпоста'
              }
            />
          ),
        }}
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
          // Its own width, wrapping rather than cut: at 1280 it got what the fixed columns left («Дисков…»).
          { title: 'Компания', dataIndex: 'company_name', width: 180 },
          {
            title: 'Статус',
            dataIndex: 'status',
            width: 170,
            render: (_: RunStatus, r) => (
              <RunStatusCell
                run={r}
                stop={
                  isActiveRun(r.status) &&
                  canManage(r.company_id) && (
                    <Popconfirm
                      title="Остановить поиск?"
                      description="Проверка кандидатов прекратится, найденные домены сохранятся."
                      okText="Остановить"
                      okButtonProps={{ danger: true }}
                      cancelText="Отмена"
                      onConfirm={() => onCancel(r.id)}
                      disabled={r.cancel_requested_at !== null}
                    >
                      <Button
                        type="link"
                        size="small"
                        danger
                        icon={<StopOutlined />}
                        loading={cancel.isPending && cancel.variables === r.id}
                        disabled={r.cancel_requested_at !== null}
                        style={{ display: 'block', padding: 0, height: 'auto', marginTop: 2 }}
                        data-testid="run-stop"
                      >
                        Остановить
                      </Button>
                    </Popconfirm>
                  )
                }
              />
            ),
          },
          { title: 'Кандидатов', dataIndex: 'candidates', width: 110, align: 'right', render: formatNumber },
          {
            title: 'Проверено',
            dataIndex: 'resolved',
            width: 105,
            align: 'right',
            render: (n: number) => <span data-testid="run-resolved">{formatNumber(n)}</span>,
          },
          {
            title: 'Зарегистрировано',
            dataIndex: 'registered',
            width: 160,
            align: 'right',
            render: (n: number, r) =>
              n === 0 && runIncomplete(r) ? (
                <Tooltip title="Часть кандидатов не проверена или источники не были настроены — «0» не значит, что двойников нет">
                  <span data-testid="run-registered-incomplete">
                    0
                    <Typography.Text type="warning" style={{ display: 'block', fontSize: 12, whiteSpace: 'nowrap' }}>
                      проверка неполная
                    </Typography.Text>
                  </span>
                </Tooltip>
              ) : (
                formatNumber(n)
              ),
          },
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
          canStart && (
            <Button type="primary" icon={<PlayCircleOutlined />} onClick={openStart} data-testid="run-start">
              Запустить поиск
            </Button>
          )
        }
      />
      <SourcesAlert data={sources.data} style={{ marginBottom: 16 }} />
      {noDomains && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          title={
            companyId !== undefined && canManage(companyId)
              ? 'Для компании не заданы защищаемые домены — добавьте домен на вкладке «Активы», без него поиск двойников не выполняется'
              : 'Для компании не заданы защищаемые домены — поиск двойников не выполняется. Обратитесь к администратору компании или Форпоста'
          }
          data-testid="no-domains-alert"
        />
      )}
      {sources.data && !sources.data.enabled && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          title="Поиск по расписанию и наблюдение за журналами сертификатов выключены (настройка «Поиск доменов: включён») — поиск выполняется только при ручном запуске"
          data-testid="discovery-disabled-alert"
        />
      )}
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
        <SourcesAlert data={startSources.data} style={{ marginBottom: 16 }} />
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
