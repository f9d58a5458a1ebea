import { ClearOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { AutoComplete, Button, Card, DatePicker, Flex, Tag, Typography } from 'antd';
import type { SorterResult } from 'antd/es/table/interface';
import { useEffect, useMemo, useState } from 'react';
import { FilterSelect } from '../../components/list/FilterSelect';
import { ListTable } from '../../components/list/ListTable';
import { listFilters, type SearchPatch } from '../../components/list/listSearch';
import { pageParams } from '../../components/list/pagination';
import { SearchInput } from '../../components/list/SearchInput';
import { PageHeading } from '../../components/page/PageHeading';
import { EmptyState } from '../../components/page/QueryState';
import { dayjs, formatDateTime } from '../../lib/format';
import { useCompanyOptions } from '../companies/api/queries';
import { ALL_COMPANIES_LABEL, useCompanyFilter } from '../company/useCompanyId';
import { channelOptionsQuery } from '../telegram/api/queries';
import { type MessageListItem, useMessagesQuery } from './api/queries';
import { Highlighted } from './components/Highlighted';
import { parseHighlight } from './highlight';
import type { MessagesSearch } from './search';

type Patch = SearchPatch<MessagesSearch>;

/** /messages: collected Telegram messages — full-text search, channel, dates, matched rule; the company from the header. */
export function MessagesPage({ search, onSearch }: { search: MessagesSearch; onSearch: (p: Patch) => void }) {
  const companyId = useCompanyFilter();
  const companies = useCompanyOptions();
  const channels = useQuery(channelOptionsQuery(companyId));
  const list = useMessagesQuery({
    q: search.q,
    channel: search.channel,
    company_id: companyId,
    date_from: search.from ? dayjs(search.from).startOf('day').toISOString() : undefined,
    date_to: search.to ? dayjs(search.to).endOf('day').toISOString() : undefined,
    rule: search.rule,
    sort: search.sort,
    ...pageParams(search),
  });
  const keywords = useMemo(() => {
    const set = new Set<string>();
    for (const c of channels.data?.items ?? []) for (const k of c.keywords) set.add(k);
    return [...set].sort((a, b) => a.localeCompare(b, 'ru'));
  }, [channels.data]);
  const [rule, setRule] = useState(search.rule ?? '');
  useEffect(() => setRule(search.rule ?? ''), [search.rule]);
  const { filtered, set, reset } = listFilters(search, onSearch, ['q', 'channel', 'from', 'to', 'rule']);
  const sort = search.sort ?? '-posted_at';

  return (
    <>
      <PageHeading
        title="Сообщения"
        subtitle={`Сообщения каналов Telegram, совпавшие с ключевыми словами · ${
          companyId === undefined ? ALL_COMPANIES_LABEL : (companies.nameOf(companyId) ?? '…')
        }`}
      />
      <Card>
        <Flex gap={8} wrap style={{ marginBottom: filtered ? 8 : 16 }} data-testid="messages-filters">
          <SearchInput
            value={search.q}
            onSearch={(q) => set({ q })}
            placeholder="Поиск по тексту сообщений"
            width={300}
            testId="messages-q"
          />
          <FilterSelect
            label="Канал"
            value={search.channel && /^\d+$/.test(search.channel) ? Number(search.channel) : undefined}
            onChange={(v?: number) => set({ channel: v === undefined ? undefined : String(v) })}
            options={(channels.data?.items ?? []).map((c) => ({
              value: c.id,
              label: c.title ? `${c.username} · ${c.title}` : c.username,
            }))}
            width={220}
            searchable
            loading={channels.isPending}
            testId="filter-channel"
          />
          <DatePicker.RangePicker
            format="DD.MM.YYYY"
            placeholder={['Дата с', 'по']}
            allowEmpty={[true, true]}
            value={[search.from ? dayjs(search.from) : null, search.to ? dayjs(search.to) : null]}
            onChange={(r) =>
              set({
                from: r?.[0] ? r[0].format('YYYY-MM-DD') : undefined,
                to: r?.[1] ? r[1].format('YYYY-MM-DD') : undefined,
              })
            }
            style={{ width: 250 }}
            aria-label="Даты публикации"
          />
          <AutoComplete
            value={rule}
            options={keywords.filter((k) => k.toLowerCase().includes(rule.toLowerCase())).map((k) => ({ value: k }))}
            onChange={(v: string) => {
              setRule(v);
              if (!v && search.rule) set({ rule: undefined });
            }}
            onSelect={(v: string) => set({ rule: v })}
            onBlur={() => rule.trim() !== (search.rule ?? '') && set({ rule: rule.trim() || undefined })}
            onKeyDown={(e) => e.key === 'Enter' && set({ rule: rule.trim() || undefined })}
            placeholder="Правило (ключевое слово)"
            aria-label="Правило"
            allowClear
            style={{ width: 200 }}
            data-testid="filter-rule"
          />
        </Flex>
        {filtered && (
          <Flex align="center" gap={8} style={{ marginBottom: 12 }}>
            <Typography.Text type="secondary">Найдено: {list.data?.total ?? '…'}</Typography.Text>
            <Button type="link" size="small" icon={<ClearOutlined />} onClick={reset}>
              Сбросить фильтры
            </Button>
          </Flex>
        )}
        <ListTable<MessageListItem>
          query={list}
          data-testid="messages-table"
          scroll={{ x: 1000 }}
          paging={{ search, onSearch }}
          onChange={(_p, _f, sorter) => {
            const s = (Array.isArray(sorter) ? sorter[0] : sorter) as SorterResult<MessageListItem> | undefined;
            const next = s?.order === 'ascend' ? 'posted_at' : undefined;
            if (next !== search.sort) onSearch({ sort: next, page: undefined });
          }}
          locale={{
            emptyText: (
              <EmptyState
                text={
                  filtered
                    ? 'Ничего не нашлось — измените запрос или фильтры'
                    : 'Сообщений пока нет: их присылает сборщик по API-ключу с ролью сборщика'
                }
              />
            ),
          }}
          columns={[
            {
              title: 'Опубликовано',
              key: 'posted_at',
              dataIndex: 'posted_at',
              width: 150,
              sorter: true,
              sortDirections: ['descend', 'ascend', 'descend'],
              sortOrder: sort === 'posted_at' ? 'ascend' : 'descend',
              render: (d: string) => <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(d)}</span>,
            },
            {
              title: 'Канал',
              key: 'channel',
              width: 200,
              render: (_, m) => (
                <Flex vertical style={{ minWidth: 0 }}>
                  <Typography.Text>{m.channel.username}</Typography.Text>
                  {m.channel.title && (
                    <Typography.Text
                      type="secondary"
                      ellipsis={{ tooltip: m.channel.title }}
                      style={{ fontSize: 12, maxWidth: 180 }}
                    >
                      {m.channel.title}
                    </Typography.Text>
                  )}
                </Flex>
              ),
            },
            {
              title: 'Сообщение',
              key: 'text',
              render: (_, m) => (
                <Link
                  to="/messages/$id"
                  params={{ id: String(m.id) }}
                  search={search.q ? { q: search.q } : {}}
                  style={{ color: 'inherit', display: 'block' }}
                  data-testid={`message-link-${m.id}`}
                >
                  <Highlighted
                    segments={parseHighlight(m.highlight)}
                    style={{
                      display: '-webkit-box',
                      WebkitLineClamp: 4,
                      WebkitBoxOrient: 'vertical',
                      overflow: 'hidden',
                      whiteSpace: 'pre-line',
                      wordBreak: 'break-word',
                    }}
                  />
                </Link>
              ),
            },
            {
              title: 'Правила',
              key: 'rules',
              width: 200,
              render: (_, m) =>
                m.rules.length ? (
                  <Flex gap={4} wrap>
                    {m.rules.map((r) => (
                      <Tag
                        key={r}
                        color="gold"
                        style={{ marginInlineEnd: 0, cursor: 'pointer' }}
                        onClick={() => set({ rule: r })}
                      >
                        {r}
                      </Tag>
                    ))}
                  </Flex>
                ) : (
                  <Typography.Text type="secondary">—</Typography.Text>
                ),
            },
            ...(companyId === undefined
              ? [{ title: 'Компания', key: 'company', width: 170, render: (_: unknown, m: MessageListItem) => m.company.name }]
              : []),
          ]}
        />
      </Card>
    </>
  );
}
