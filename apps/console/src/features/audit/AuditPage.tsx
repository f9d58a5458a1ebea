import { FilterOutlined } from '@ant-design/icons';
import type { AuditQuery } from '@forpost/contract/audit';
import { Card, Col, Flex, Row, Typography } from 'antd';
import { JsonView } from '../../components/JsonView';
import { type AdminColumn, AdminTable } from '../../components/list/AdminTable';
import { type SearchPatch, withPageReset } from '../../components/list/listSearch';
import { pageParams } from '../../components/list/pagination';
import { PageHeading } from '../../components/page/PageHeading';
import { EmptyState } from '../../components/page/QueryState';
import { dayjs, formatDateTime } from '../../lib/format';
import { useCompanyOptions } from '../companies/api/queries';
import { type AuditEntry, useAuditQuery } from './api/queries';
import { AUDIT_ACTION_PREFIXES, AUDIT_ENTITY_LABELS, actionLabel, entityLabel, summaryOf } from './labels';
import type { AuditSearch } from './search';

const AUDIT_PAGE_SIZE = 50;
const hasValue = (v: unknown) =>
  v !== undefined && v !== null && !(typeof v === 'object' && Object.keys(v as object).length === 0);

function Change({ entry }: { entry: AuditEntry }) {
  const both = hasValue(entry.before) || hasValue(entry.after);
  return (
    <Flex vertical gap={12} style={{ padding: '4px 8px' }} data-testid="audit-details">
      {both && (
        <Row gutter={16}>
          <Col xs={24} lg={12}>
            <Typography.Text strong>До</Typography.Text>
            <JsonView value={entry.before} />
          </Col>
          <Col xs={24} lg={12}>
            <Typography.Text strong>После</Typography.Text>
            <JsonView value={entry.after} />
          </Col>
        </Row>
      )}
      {hasValue(entry.meta) && (
        <div>
          <Typography.Text strong>Подробности</Typography.Text>
          <JsonView value={entry.meta} />
        </div>
      )}
      {!both && !hasValue(entry.meta) && <Typography.Text type="secondary">Дополнительных данных нет</Typography.Text>}
      {entry.user_agent && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          Браузер: {entry.user_agent}
        </Typography.Text>
      )}
    </Flex>
  );
}

/** /audit «Журнал аудита»: who did what and when; filters in the URL, rows expand to before/after. */
export function AuditPage({ search, onSearch }: { search: AuditSearch; onSearch: (p: SearchPatch<AuditSearch>) => void }) {
  const companies = useCompanyOptions();
  const query: AuditQuery = {
    ...pageParams(search, AUDIT_PAGE_SIZE),
    action: search.action,
    entity: search.entity,
    entity_id: search.entity_id,
    actor_user_id: search.actor,
    company_id: search.company_id,
    from: search.from ? dayjs(search.from).startOf('day').toISOString() : undefined,
    to: search.to ? dayjs(search.to).endOf('day').toISOString() : undefined,
  };
  const list = useAuditQuery(query);

  // The filter bar's order (action, object, its id, author, company, period) is not the columns'.
  const columns: AdminColumn<AuditEntry, AuditSearch>[] = [
    {
      title: 'Время',
      dataIndex: 'at',
      width: 150,
      render: (d: string) => formatDateTime(d),
      filter: { kind: 'date', from: 'from', to: 'to', placeholder: ['С даты', 'По дату'], label: 'Период', width: 240, order: 6 },
    },
    {
      title: 'Кто',
      key: 'actor',
      width: 200,
      render: (_, e) =>
        e.actor_user_id ? (
          <Typography.Link
            onClick={() => onSearch(withPageReset<AuditSearch>({ actor: e.actor_user_id ?? undefined }))}
            title="Показать только этого автора"
          >
            {e.actor_name ?? `Пользователь #${e.actor_user_id}`}
          </Typography.Link>
        ) : e.actor_key_id ? (
          `API-ключ #${e.actor_key_id}`
        ) : (
          <Typography.Text type="secondary">Система или аноним</Typography.Text>
        ),
      filter: { kind: 'number', key: 'actor', placeholder: 'ID автора', min: 1, width: 115, order: 4 },
    },
    {
      title: 'Действие',
      dataIndex: 'action',
      render: (a: string, e) => (
        <Flex vertical>
          <span>{actionLabel(a) ?? a}</span>
          {summaryOf(e.meta) && <span data-testid="audit-summary">{summaryOf(e.meta)}</span>}
          {actionLabel(a) && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {a}
            </Typography.Text>
          )}
        </Flex>
      ),
      filter: {
        kind: 'autocomplete',
        key: 'action',
        placeholder: 'Действие (начало кода)',
        label: 'Действие',
        options: AUDIT_ACTION_PREFIXES.map((p) => ({ value: p.value, label: `${p.label} (${p.value}*)` })),
        width: 180,
        order: 1,
      },
    },
    {
      title: 'Объект',
      key: 'entity',
      width: 190,
      render: (_, e) => (e.entity ? `${entityLabel(e.entity)}${e.entity_id ? ` #${e.entity_id}` : ''}` : '—'),
      filter: {
        kind: 'select',
        key: 'entity',
        placeholder: 'Объект',
        options: Object.entries(AUDIT_ENTITY_LABELS).map(([value, label]) => ({ value, label })),
        width: 145,
        order: 2,
      },
    },
    {
      key: 'entity_id',
      hideInTable: true,
      filter: { kind: 'text', plain: true, key: 'entity_id', placeholder: 'ID объекта', width: 115, order: 3 },
    },
    {
      title: 'Компания',
      dataIndex: 'company_id',
      width: 180,
      render: (id: number | null) => (id ? (companies.nameOf(id) ?? `#${id}`) : '—'),
      filter: {
        kind: 'select',
        key: 'company_id',
        placeholder: 'Компания',
        options: companies.options,
        searchable: true,
        order: 5,
      },
    },
    { title: 'IP-адрес', dataIndex: 'ip', width: 140, render: (ip: string | null) => ip ?? '—' },
  ];

  return (
    <>
      <PageHeading title="Журнал аудита" subtitle="Кто, когда и что изменил: входы, пользователи, компании, ключи, настройки" />
      <Card>
        <AdminTable<AuditEntry, AuditSearch>
          query={list}
          columns={columns}
          search={search}
          onSearch={onSearch}
          resettable
          filterPrefix={<FilterOutlined style={{ color: '#8c8c8c' }} />}
          empty={(filtered) => <EmptyState text={filtered ? 'Записей с такими условиями нет' : 'Журнал пуст'} />}
          paged={{
            defaultPageSize: AUDIT_PAGE_SIZE,
            showTotal: (total) => (total >= 10_000 ? 'Больше 10 000 записей' : `Всего: ${total}`),
          }}
          size="middle"
          data-testid="audit-table"
          scroll={{ x: 1000 }}
          expandable={{ expandedRowRender: (e) => <Change entry={e} />, rowExpandable: () => true }}
        />
      </Card>
    </>
  );
}
