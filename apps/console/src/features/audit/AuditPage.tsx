import { FilterOutlined } from '@ant-design/icons';
import type { AuditQuery } from '@forpost/contract/audit';
import { AutoComplete, Card, Col, DatePicker, Flex, Input, InputNumber, Row, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { JsonView } from '../../components/JsonView';
import { FilterBar } from '../../components/list/FilterBar';
import { FilterSelect } from '../../components/list/FilterSelect';
import { ListTable } from '../../components/list/ListTable';
import { listFilters, type SearchPatch } from '../../components/list/listSearch';
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
  const [action, setAction] = useState(search.action ?? '');
  const [entityId, setEntityId] = useState(search.entity_id ?? '');
  useEffect(() => setAction(search.action ?? ''), [search.action]);
  useEffect(() => setEntityId(search.entity_id ?? ''), [search.entity_id]);

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
  const { filtered, set, reset } = listFilters(search, onSearch, [
    'action',
    'entity',
    'entity_id',
    'actor',
    'company_id',
    'from',
    'to',
  ]);
  const range: [Dayjs | null, Dayjs | null] | null =
    search.from || search.to ? [search.from ? dayjs(search.from) : null, search.to ? dayjs(search.to) : null] : null;

  return (
    <>
      <PageHeading title="Журнал аудита" subtitle="Кто, когда и что изменил: входы, пользователи, компании, ключи, настройки" />
      <Card>
        <FilterBar onReset={reset}>
          <FilterOutlined style={{ color: '#8c8c8c' }} />
          <AutoComplete
            value={action}
            options={AUDIT_ACTION_PREFIXES.map((p) => ({ value: p.value, label: `${p.label} (${p.value}*)` }))}
            onChange={setAction}
            onSelect={(v: string) => set({ action: v || undefined })}
            onBlur={() => action.trim() !== (search.action ?? '') && set({ action: action.trim() || undefined })}
            style={{ width: 180 }}
            allowClear
            onClear={() => set({ action: undefined })}
            placeholder="Действие (начало кода)"
            aria-label="Действие"
          >
            <Input onPressEnter={() => set({ action: action.trim() || undefined })} />
          </AutoComplete>
          <FilterSelect
            label="Объект"
            value={search.entity}
            onChange={(v) => set({ entity: v })}
            options={Object.entries(AUDIT_ENTITY_LABELS).map(([value, label]) => ({ value, label }))}
            width={145}
          />
          <Input
            placeholder="ID объекта"
            allowClear
            value={entityId}
            onChange={(e) => {
              setEntityId(e.target.value);
              if (!e.target.value) set({ entity_id: undefined });
            }}
            onPressEnter={() => set({ entity_id: entityId.trim() || undefined })}
            onBlur={() => entityId.trim() !== (search.entity_id ?? '') && set({ entity_id: entityId.trim() || undefined })}
            style={{ width: 115 }}
            aria-label="ID объекта"
          />
          <InputNumber<number>
            placeholder="ID автора"
            min={1}
            precision={0}
            value={search.actor ?? null}
            onChange={(v) => set({ actor: v ?? undefined })}
            style={{ width: 115 }}
            aria-label="ID автора"
          />
          <FilterSelect
            label="Компания"
            value={search.company_id}
            onChange={(v) => set({ company_id: v })}
            options={companies.options}
            searchable
          />
          <DatePicker.RangePicker
            format="DD.MM.YYYY"
            value={range}
            allowEmpty={[true, true]}
            onChange={(v) => set({ from: v?.[0]?.format('YYYY-MM-DD'), to: v?.[1]?.format('YYYY-MM-DD') })}
            placeholder={['С даты', 'По дату']}
            style={{ width: 240 }}
            aria-label="Период"
          />
        </FilterBar>
        <ListTable<AuditEntry>
          query={list}
          size="middle"
          data-testid="audit-table"
          scroll={{ x: 1000 }}
          locale={{ emptyText: <EmptyState text={filtered ? 'Записей с такими условиями нет' : 'Журнал пуст'} /> }}
          expandable={{ expandedRowRender: (e) => <Change entry={e} />, rowExpandable: () => true }}
          paging={{
            search,
            onSearch,
            options: {
              defaultPageSize: AUDIT_PAGE_SIZE,
              showTotal: (total) => (total >= 10_000 ? 'Больше 10 000 записей' : `Всего: ${total}`),
            },
          }}
          columns={[
            { title: 'Время', dataIndex: 'at', width: 150, render: (d: string) => formatDateTime(d) },
            {
              title: 'Кто',
              key: 'actor',
              width: 200,
              render: (_, e) =>
                e.actor_user_id ? (
                  <Typography.Link
                    onClick={() => set({ actor: e.actor_user_id ?? undefined })}
                    title="Показать только этого автора"
                  >
                    {e.actor_name ?? `Пользователь #${e.actor_user_id}`}
                  </Typography.Link>
                ) : e.actor_key_id ? (
                  `API-ключ #${e.actor_key_id}`
                ) : (
                  <Typography.Text type="secondary">Система или аноним</Typography.Text>
                ),
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
            },
            {
              title: 'Объект',
              key: 'entity',
              width: 190,
              render: (_, e) => (e.entity ? `${entityLabel(e.entity)}${e.entity_id ? ` #${e.entity_id}` : ''}` : '—'),
            },
            {
              title: 'Компания',
              dataIndex: 'company_id',
              width: 180,
              render: (id: number | null) => (id ? (companies.nameOf(id) ?? `#${id}`) : '—'),
            },
            { title: 'IP-адрес', dataIndex: 'ip', width: 140, render: (ip: string | null) => ip ?? '—' },
          ]}
        />
      </Card>
    </>
  );
}
