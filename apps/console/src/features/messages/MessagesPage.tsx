import { ClearOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Button, Card, Flex, Tag, Typography } from 'antd';
import { useMemo } from 'react';
import { type AdminColumn, AdminTable } from '../../components/list/AdminTable';
import { type SearchPatch, withPageReset } from '../../components/list/listSearch';
import { pageParams } from '../../components/list/pagination';
import { PageHeading } from '../../components/page/PageHeading';
import { EmptyState } from '../../components/page/QueryState';
import { dayjs, formatDateTime } from '../../lib/format';
import { useCompanyOptions } from '../companies/api/queries';
import { ALL_COMPANIES_LABEL, useCompanyFilter } from '../company/useCompanyId';
import { channelOptionsQuery } from '../telegram/api/queries';
import { type MessageListItem, useMessagesQuery } from './api/queries';
import { Highlighted } from './components/Highlighted';
import { MessageMeta } from './components/MessageMeta';
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

  // The filter bar's order (text, channel, dates, rule) is not the columns'.
  const columns: (AdminColumn<MessageListItem, MessagesSearch> | false)[] = [
    {
      title: 'Опубликовано',
      dataIndex: 'posted_at',
      width: 140,
      sortKey: 'posted_at',
      sortDirections: ['descend', 'ascend', 'descend'],
      render: (d: string) => <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(d)}</span>,
      filter: {
        kind: 'date',
        from: 'from',
        to: 'to',
        placeholder: ['Дата с', 'по'],
        label: 'Даты публикации',
        width: 250,
        order: 3,
      },
    },
    {
      title: 'Канал',
      key: 'channel',
      width: 170,
      render: (_, m) => (
        <Flex vertical style={{ minWidth: 0 }}>
          <Typography.Text>{m.channel.username}</Typography.Text>
          {m.channel.title && (
            <Typography.Text type="secondary" ellipsis={{ tooltip: m.channel.title }} style={{ fontSize: 12, maxWidth: 180 }}>
              {m.channel.title}
            </Typography.Text>
          )}
        </Flex>
      ),
      filter: {
        kind: 'select',
        key: 'channel',
        placeholder: 'Канал',
        // The URL holds the channel's id as text.
        options: (channels.data?.items ?? []).map((c) => ({
          value: String(c.id),
          label: c.title ? `${c.username} · ${c.title}` : c.username,
        })),
        width: 220,
        searchable: true,
        loading: channels.isPending,
        testId: 'filter-channel',
        order: 2,
      },
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
          <MessageMeta m={m} />
        </Link>
      ),
      filter: { kind: 'text', key: 'q', placeholder: 'Поиск по тексту сообщений', width: 300, testId: 'messages-q', order: 1 },
    },
    {
      title: 'Правила',
      key: 'rules',
      width: 150,
      render: (_, m) =>
        m.rules.length ? (
          <Flex gap={4} wrap>
            {m.rules.map((r) => (
              <Tag
                key={r}
                color="gold"
                style={{ marginInlineEnd: 0, cursor: 'pointer' }}
                onClick={() => onSearch(withPageReset<MessagesSearch>({ rule: r }))}
              >
                {r}
              </Tag>
            ))}
          </Flex>
        ) : (
          <Typography.Text type="secondary">—</Typography.Text>
        ),
      filter: {
        kind: 'autocomplete',
        key: 'rule',
        placeholder: 'Правило (ключевое слово)',
        label: 'Правило',
        options: keywords.map((k) => ({ value: k })),
        filterOptions: true,
        width: 200,
        testId: 'filter-rule',
        order: 4,
      },
    },
    companyId === undefined && { title: 'Компания', key: 'company', width: 170, render: (_, m) => m.company.name },
  ];

  return (
    <>
      <PageHeading
        title="Сообщения"
        subtitle={`Сообщения каналов Telegram, совпавшие с ключевыми словами · ${
          companyId === undefined ? ALL_COMPANIES_LABEL : (companies.nameOf(companyId) ?? '…')
        }`}
      />
      <Card>
        <AdminTable<MessageListItem, MessagesSearch>
          query={list}
          columns={columns}
          search={search}
          onSearch={onSearch}
          paged
          defaultSort="-posted_at"
          filtersTestId="messages-filters"
          filterFooter={({ filtered, reset }) =>
            filtered && (
              <Flex align="center" gap={8} style={{ marginBottom: 12 }}>
                <Typography.Text type="secondary">Найдено: {list.data?.total ?? '…'}</Typography.Text>
                <Button type="link" size="small" icon={<ClearOutlined />} onClick={reset}>
                  Сбросить фильтры
                </Button>
              </Flex>
            )
          }
          empty={(filtered) => (
            <EmptyState
              text={
                filtered
                  ? 'Ничего не нашлось — измените запрос или фильтры'
                  : 'Сообщений пока нет: их присылает сборщик по API-ключу с ролью сборщика'
              }
            />
          )}
          data-testid="messages-table"
          scroll={{ x: 920 }}
        />
      </Card>
    </>
  );
}
