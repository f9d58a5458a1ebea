import { PlusOutlined } from '@ant-design/icons';
import type { Mailing } from '@forpost/contract/mailings';
import { Link, useNavigate } from '@tanstack/react-router';
import { Badge, Button, Card, Flex, Input, Table, Tooltip, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { DEFAULT_PAGE_SIZE, PAGE_SIZE_OPTIONS, type SearchPatch, withPageReset } from '../../components/list/listSearch';
import { PageHeading } from '../../components/page/PageHeading';
import { EmptyState, LoadError } from '../../components/page/QueryState';
import { eventsCount, formatDateTime } from '../../lib/format';
import { useCan } from '../auth/useMe';
import { useCompanyOptions } from '../companies/api/queries';
import { ALL_COMPANIES_LABEL, useCompanyFilter } from '../company/useCompanyId';
import { useMailingsQuery } from './api/queries';
import { MailingStatusTag, scheduleText } from './components/labels';
import type { MailingsSearch } from './search';

/** /notifications: the mailings of the company chosen in the header. */
export function MailingsPage({
  search,
  onSearch,
}: {
  search: MailingsSearch;
  onSearch: (p: SearchPatch<MailingsSearch>) => void;
}) {
  const navigate = useNavigate();
  const canManage = useCan('mailings.manage');
  const companyId = useCompanyFilter();
  const companies = useCompanyOptions();
  const [q, setQ] = useState(search.q ?? '');
  useEffect(() => setQ(search.q ?? ''), [search.q]);
  const page = search.page ?? 1;
  const pageSize = search.page_size ?? DEFAULT_PAGE_SIZE;
  const list = useMailingsQuery({ page, page_size: pageSize, q: search.q, company_id: companyId });

  return (
    <>
      <PageHeading
        title="Уведомления"
        subtitle={`Рассылки о новых событиях по почте · ${companyId === undefined ? ALL_COMPANIES_LABEL : (companies.nameOf(companyId) ?? '…')}`}
        extra={
          canManage && (
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => void navigate({ to: '/notifications/$id', params: { id: 'new' } })}
            >
              Создать рассылку
            </Button>
          )
        }
      />
      <Card>
        <Flex gap={8} wrap style={{ marginBottom: 16 }}>
          <Input.Search
            placeholder="Название рассылки"
            allowClear
            value={q}
            onChange={(e) => setQ(e.target.value)}
            onSearch={(v) => onSearch(withPageReset<MailingsSearch>({ q: v.trim() || undefined }))}
            style={{ width: 300 }}
            aria-label="Поиск рассылок"
          />
        </Flex>
        {list.isError && !list.data ? (
          <LoadError error={list.error} onRetry={() => void list.refetch()} />
        ) : (
          <Table<Mailing>
            rowKey="id"
            loading={list.isFetching}
            dataSource={list.data?.items ?? []}
            data-testid="mailings-table"
            scroll={{ x: 1000 }}
            locale={{
              emptyText: (
                <EmptyState
                  text={search.q ? 'Ничего не нашлось' : 'Рассылок пока нет'}
                  action={
                    canManage && !search.q ? (
                      <Button type="primary" onClick={() => void navigate({ to: '/notifications/$id', params: { id: 'new' } })}>
                        Создать рассылку
                      </Button>
                    ) : undefined
                  }
                />
              ),
            }}
            pagination={{
              current: page,
              pageSize,
              total: list.data?.total ?? 0,
              showSizeChanger: true,
              pageSizeOptions: PAGE_SIZE_OPTIONS,
              showTotal: (total) => `Всего: ${total}`,
              onChange: (p, ps) =>
                onSearch({ page: p === 1 ? undefined : p, page_size: ps === DEFAULT_PAGE_SIZE ? undefined : ps }),
            }}
            columns={[
              {
                title: 'Название',
                dataIndex: 'name',
                render: (name: string, m) => (
                  <Link to="/notifications/$id" params={{ id: String(m.id) }}>
                    {name}
                  </Link>
                ),
              },
              {
                title: 'Компания',
                key: 'company',
                width: 180,
                render: (_, m) => m.company_name ?? <Typography.Text type="secondary">Все компании</Typography.Text>,
              },
              {
                title: 'Получатели',
                key: 'recipients',
                width: 240,
                render: (_, m) => (
                  <Tooltip title={m.recipients.join(', ')}>
                    <span>
                      {m.recipients.slice(0, 2).join(', ')}
                      {m.recipients.length > 2 && (
                        <Typography.Text type="secondary"> и ещё {m.recipients.length - 2}</Typography.Text>
                      )}
                    </span>
                  </Tooltip>
                ),
              },
              { title: 'Периодичность', key: 'schedule', width: 220, render: (_, m) => scheduleText(m.params) },
              { title: 'Статус', key: 'status', width: 140, render: (_, m) => <MailingStatusTag m={m} /> },
              {
                title: 'Отправлено',
                key: 'sent',
                width: 150,
                render: (_, m) => (
                  <Flex vertical>
                    <span>{eventsCount(m.stats.events_sent)}</span>
                    {m.stats.deliveries_failed > 0 && <Badge status="error" text={`Ошибок: ${m.stats.deliveries_failed}`} />}
                  </Flex>
                ),
              },
              {
                title: 'Последнее письмо',
                dataIndex: 'last_sent_at',
                width: 160,
                render: (d: string | null) =>
                  d ? formatDateTime(d) : <Typography.Text type="secondary">Ещё не было</Typography.Text>,
              },
            ]}
          />
        )}
      </Card>
    </>
  );
}
