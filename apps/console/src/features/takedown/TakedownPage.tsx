/* «Блокировки»: takedown requests of every company the user sees, with filters by state and text; a row opens the request. */
import { formatDateTime } from '@forpost/contract/format';
import { TAKEDOWN_STATE_LABELS, TAKEDOWN_STATES, type TakedownState } from '@forpost/contract/takedown';
import { Link } from '@tanstack/react-router';
import { Card, Drawer, Flex, Input, Select, Spin, Table, Typography } from 'antd';
import { useState } from 'react';
import { PageHeading } from '../../components/page/PageHeading';
import { EmptyState, LoadError } from '../../components/page/QueryState';
import { type TakedownListResponse, useTakedown, useTakedownList } from './api';
import { TakedownFiguresCard } from './TakedownFiguresCard';
import { StateTag, TakedownView } from './TakedownView';

type Item = TakedownListResponse['items'][number];

export function TakedownPage() {
  const [state, setState] = useState<TakedownState | undefined>();
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const [perPage, setPerPage] = useState(20);
  const [open, setOpen] = useState<number | null>(null);
  const list = useTakedownList({ state, q: q.trim() || undefined, page, per_page: perPage });
  const one = useTakedown(open);

  return (
    <>
      <PageHeading
        title="Блокировки"
        subtitle="Запросы на блокировку доменов: кому отправлены, что ответили, недоступен ли ресурс по данным наблюдения."
      />
      <Flex vertical gap={16}>
        <TakedownFiguresCard />
        <Card>
          <Flex gap={8} wrap style={{ marginBottom: 12 }}>
            <Input.Search
              allowClear
              placeholder="Домен, регистратор, хостинг"
              aria-label="Поиск запросов: домен, регистратор, хостинг"
              style={{ width: 320 }}
              onSearch={(v) => {
                setQ(v);
                setPage(1);
              }}
              data-testid="takedown-search"
            />
            <Select<TakedownState>
              allowClear
              placeholder="Состояние"
              aria-label="Состояние запроса"
              style={{ width: 240 }}
              value={state}
              onChange={(v) => {
                setState(v);
                setPage(1);
              }}
              options={TAKEDOWN_STATES.map((s) => ({ value: s, label: TAKEDOWN_STATE_LABELS[s] }))}
              data-testid="takedown-state-filter"
            />
          </Flex>
          {list.isError && !list.data ? (
            <LoadError error={list.error} onRetry={() => void list.refetch()} />
          ) : (
            <Table<Item>
              rowKey="id"
              data-testid="takedown-table"
              loading={list.isFetching && !list.data}
              dataSource={list.data?.items ?? []}
              scroll={{ x: 930 }}
              locale={{
                emptyText: <EmptyState text="Запросов нет. Подготовьте запрос из карточки домена или выбрав домены в списке." />,
              }}
              onRow={(r) => ({ onClick: () => setOpen(r.id), style: { cursor: 'pointer' } })}
              pagination={{
                current: page,
                pageSize: perPage,
                total: list.data?.total ?? 0,
                showSizeChanger: true,
                showTotal: (t) => `Всего: ${t}`,
                onChange: (p, ps) => {
                  setPage(ps !== perPage ? 1 : p);
                  setPerPage(ps);
                },
              }}
              columns={[
                { title: 'Запрос', dataIndex: 'reference', width: 120 },
                {
                  title: 'Домен',
                  width: 220,
                  render: (_, r) => (
                    <Flex vertical>
                      <Link
                        to="/$section/$id"
                        params={{ section: 'domains', id: String(r.event_id) }}
                        onClick={(e) => e.stopPropagation()}
                      >
                        {r.domain}
                      </Link>
                      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                        {r.company_name} · адресов: {r.recipients}
                      </Typography.Text>
                    </Flex>
                  ),
                },
                { title: 'Состояние', width: 190, render: (_, r) => <StateTag state={r.state} /> },
                { title: 'Регистратор', dataIndex: 'registrar', width: 140, ellipsis: true, render: (v) => v ?? '—' },
                { title: 'Хостинг', dataIndex: 'hosting', width: 120, ellipsis: true, render: (v) => v ?? '—' },
                { title: 'Отправлен', width: 140, render: (_, r) => (r.sent_at ? formatDateTime(r.sent_at) : '—') },
              ]}
            />
          )}
        </Card>
      </Flex>
      <Drawer
        open={open !== null}
        onClose={() => setOpen(null)}
        width={860}
        title={one.data?.reference ?? 'Запрос'}
        destroyOnHidden
      >
        {one.data ? <TakedownView r={one.data} /> : <Spin />}
      </Drawer>
    </>
  );
}
