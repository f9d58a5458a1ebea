/*
 * «Связанные события»: other events sharing an indicator with this one (IP, domain, registrar,
 * INN/OGRN, card BIN, e-mail, phone, account) in every module and company the user may see. Each
 * indicator links to the module lists filtered by it; the newest events link to their cards.
 */
import { ReloadOutlined } from '@ant-design/icons';
import { MODULES, type ModuleDescriptor } from '@forpost/contract/modules';
import type { RelatedEventsResponse } from '@forpost/contract/related';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Alert, Button, Card, Collapse, Empty, Flex, List, Skeleton, Tag, Typography } from 'antd';
import { formatDateTime } from '../../../lib/format';
import { errorMessage, http } from '../../../lib/http';
import { paths } from '../api/paths';
import { eventKeys } from '../api/queries';
import { EventTitleLink } from '../components/EventTitleLink';

const sectionOf = (code: keyof typeof MODULES) => MODULES[code].route.slice(1);

const countText = (n: number, capped: boolean) => {
  const mod10 = n % 10;
  const mod100 = n % 100;
  const word =
    mod10 === 1 && mod100 !== 11 ? 'событие' : mod10 >= 2 && mod10 <= 4 && (mod100 < 12 || mod100 > 14) ? 'события' : 'событий';
  return `${capped ? 'более ' : ''}${n} ${capped ? 'событий' : word}`;
};

export function RelatedEvents({ m, eventId }: { m: ModuleDescriptor; eventId: number }) {
  const query = useQuery({
    queryKey: eventKeys.related(m.code, eventId),
    queryFn: () => http.get(paths.related(m.code, eventId), { context: { errorMode: 'silent' } }).json<RelatedEventsResponse>(),
    staleTime: 30_000,
  });

  let body: React.ReactNode;
  if (query.isPending) body = <Skeleton active paragraph={{ rows: 3 }} data-testid="related-loading" />;
  else if (query.isError)
    body = (
      <Alert
        type="error"
        showIcon
        message="Не удалось загрузить связанные события"
        description={errorMessage(query.error)}
        action={
          <Button size="small" icon={<ReloadOutlined />} onClick={() => void query.refetch()}>
            Повторить
          </Button>
        }
      />
    );
  else if (!query.data.items.length)
    body = (
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description="Других событий с теми же IP, доменами, ИНН, email, телефонами или аккаунтами нет"
        data-testid="related-empty"
      />
    );
  else
    body = (
      <Collapse
        size="small"
        defaultActiveKey={query.data.items.slice(0, 2).map((i) => i.indicator)}
        items={query.data.items.map((i) => ({
          key: i.indicator,
          label: (
            <Flex gap={8} wrap align="center" data-testid="related-indicator">
              <Typography.Text type="secondary">{i.label}</Typography.Text>
              <Typography.Text strong style={{ wordBreak: 'break-all' }}>
                {i.value}
              </Typography.Text>
              <Typography.Text type="secondary">— {countText(i.total, i.total_capped)}</Typography.Text>
            </Flex>
          ),
          children: (
            <Flex vertical gap={8}>
              <Flex gap={6} wrap aria-label="Показать все в списке модуля">
                {i.modules.map((x) => (
                  <Link
                    key={x.module}
                    to="/$section"
                    params={{ section: sectionOf(x.module) }}
                    search={{ indicator: i.indicator }}
                    data-testid="related-filter"
                  >
                    <Tag color="blue" style={{ cursor: 'pointer', marginInlineEnd: 0 }}>
                      {MODULES[x.module].name}: {x.count}
                      {i.total_capped ? '+' : ''}
                    </Tag>
                  </Link>
                ))}
              </Flex>
              <List
                size="small"
                dataSource={i.items}
                renderItem={(e) => (
                  <List.Item style={{ paddingInline: 0 }}>
                    <EventTitleLink
                      module={e.module}
                      id={e.id}
                      title={e.title}
                      testId="related-event"
                      meta={`${MODULES[e.module].name} · №${e.id} · ${e.company_name} · ${formatDateTime(e.created_at)}`}
                    />
                  </List.Item>
                )}
              />
            </Flex>
          ),
        }))}
      />
    );

  return (
    <Card title="Связанные события" size="small" data-testid="related-events">
      {body}
    </Card>
  );
}
