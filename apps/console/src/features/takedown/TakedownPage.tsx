/* «Блокировки»: takedown requests of every company the user sees, with filters by state and text; a row opens the request. */
import { formatDateTime } from '@forpost/contract/format';
import { TAKEDOWN_STATE_LABELS, TAKEDOWN_STATES, type TakedownState } from '@forpost/contract/takedown';
import { Link } from '@tanstack/react-router';
import { Card, Drawer, Flex, Input, Select, Spin, Table } from 'antd';
import { useState } from 'react';
import { PageHeading } from '../../components/page/PageHeading';
import { LoadError } from '../../components/page/QueryState';
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
              scroll={{ x: 1180 }}
              locale={{ emptyText: 'Запросов нет. Подготовьте запрос из карточки домена или выбрав домены в списке.' }}
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
                { title: 'Запрос', dataIndex: 'reference', width: 130 },
                {
                  title: 'Домен',
                  width: 280,
                  render: (_, r) => (
                    <Link
                      to="/$section/$id"
                      params={{ section: 'domains', id: String(r.event_id) }}
                      onClick={(e) => e.stopPropagation()}
                    >
                      {r.domain}
                    </Link>
                  ),
                },
                { title: 'Состояние', width: 200, render: (_, r) => <StateTag state={r.state} /> },
                { title: 'Регистратор', dataIndex: 'registrar', width: 170, ellipsis: true, render: (v) => v ?? '—' },
                { title: 'Хостинг', dataIndex: 'hosting', width: 150, ellipsis: true, render: (v) => v ?? '—' },
                { title: 'Адресов', dataIndex: 'recipients', width: 100, align: 'right' },
                { title: 'Отправлен', width: 150, render: (_, r) => (r.sent_at ? formatDateTime(r.sent_at) : '—') },
                { title: 'Компания', dataIndex: 'company_name', width: 160, ellipsis: true },
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
