import { PlusOutlined } from '@ant-design/icons';
import type { Mailing } from '@forpost/contract/mailings';
import { Link, useNavigate } from '@tanstack/react-router';
import { Badge, Button, Card, Flex, Tooltip, Typography } from 'antd';
import { AdminTable } from '../../components/list/AdminTable';
import type { SearchPatch } from '../../components/list/listSearch';
import { pageParams } from '../../components/list/pagination';
import { PageHeading } from '../../components/page/PageHeading';
import { EmptyState } from '../../components/page/QueryState';
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
  const list = useMailingsQuery({ ...pageParams(search), q: search.q, company_id: companyId });

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
        <AdminTable<Mailing, MailingsSearch>
          query={list}
          search={search}
          onSearch={onSearch}
          paged
          data-testid="mailings-table"
          scroll={{ x: 900 }}
          empty={(filtered) => (
            <EmptyState
              text={filtered ? 'Ничего не нашлось' : 'Рассылок пока нет'}
              action={
                canManage && !filtered ? (
                  <Button type="primary" onClick={() => void navigate({ to: '/notifications/$id', params: { id: 'new' } })}>
                    Создать рассылку
                  </Button>
                ) : undefined
              }
            />
          )}
          columns={[
            {
              title: 'Название',
              filter: { kind: 'text', key: 'q', placeholder: 'Название рассылки', label: 'Поиск рассылок', width: 300 },
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
              width: 140,
              render: (_, m) => m.company_name ?? <Typography.Text type="secondary">Все компании</Typography.Text>,
            },
            {
              title: 'Получатели',
              key: 'recipients',
              width: 190,
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
            { title: 'Периодичность', key: 'schedule', width: 160, render: (_, m) => scheduleText(m.params) },
            { title: 'Статус', key: 'status', width: 130, render: (_, m) => <MailingStatusTag m={m} /> },
            {
              // What was sent and when the last letter left, one column: at 1280 px with the menu open the
              // table fits without scrolling (two columns pushed the date off the right edge).
              title: 'Отправлено',
              key: 'sent',
              width: 170,
              render: (_, m) => (
                <Flex vertical>
                  <span>{eventsCount(m.stats.events_sent)}</span>
                  <Typography.Text type="secondary" data-testid="mailing-last-sent">
                    {m.last_sent_at ? `Последнее письмо: ${formatDateTime(m.last_sent_at)}` : 'Писем ещё не было'}
                  </Typography.Text>
                  {m.stats.deliveries_failed > 0 && <Badge status="error" text={`Ошибок: ${m.stats.deliveries_failed}`} />}
                </Flex>
              ),
            },
          ]}
        />
      </Card>
    </>
  );
}
