import { PlusOutlined } from '@ant-design/icons';
import { Link } from '@tanstack/react-router';
import { Button, Card, Flex, Tag, Tooltip, Typography } from 'antd';
import { AdminTable } from '../../components/list/AdminTable';
import type { SearchPatch } from '../../components/list/listSearch';
import { pageParams } from '../../components/list/pagination';
import { PageHeading } from '../../components/page/PageHeading';
import { EmptyState } from '../../components/page/QueryState';
import { formatDate } from '../../lib/format';
import { useCan } from '../auth/useMe';
import { type Company, useCompaniesQuery, useModuleOptions } from './api/queries';
import type { CompaniesSearch } from './search';

export interface CompaniesPageProps {
  search: CompaniesSearch;
  onSearch: (patch: SearchPatch<CompaniesSearch>) => void;
}

/** /companies: search and the active filter (in the URL), link to each company. */
export function CompaniesPage({ search, onSearch }: CompaniesPageProps) {
  const canCreate = useCan('companies.create');
  const canUpdate = useCan('companies.update');
  const modules = useModuleOptions();
  const list = useCompaniesQuery({
    ...pageParams(search),
    q: search.q,
    is_active: search.active === undefined ? undefined : search.active ? 'true' : 'false',
  });

  return (
    <>
      <PageHeading
        title="Компании"
        subtitle="Организации под защитой: реквизиты, модули, участники и продуктовые ключи"
        extra={
          canCreate && (
            <Link to="/companies/create">
              <Button type="primary" icon={<PlusOutlined />}>
                Добавить компанию
              </Button>
            </Link>
          )
        }
      />
      <Card>
        <AdminTable<Company, CompaniesSearch>
          query={list}
          search={search}
          onSearch={onSearch}
          resettable
          paged
          data-testid="companies-table"
          scroll={{ x: 960 }}
          empty={(filtered) => (
            <EmptyState text={filtered ? 'Ничего не нашлось — измените условия поиска' : 'Компаний пока нет'} />
          )}
          columns={[
            {
              title: 'Компания',
              filter: { kind: 'text', key: 'q', placeholder: 'Название, юр. лицо или ИНН', width: 320, label: 'Поиск компаний' },
              key: 'name',
              render: (_, c) => (
                <Flex vertical>
                  {canUpdate ? (
                    <Link to="/companies/{-$id}/edit" params={{ id: String(c.id) }}>
                      {c.name}
                    </Link>
                  ) : (
                    <Typography.Text strong>{c.name}</Typography.Text>
                  )}
                  {c.legal_name && (
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      {c.legal_name}
                    </Typography.Text>
                  )}
                </Flex>
              ),
            },
            { title: 'ИНН', dataIndex: 'inn', width: 140, render: (v: string | null) => v ?? '—' },
            {
              title: 'Модули',
              dataIndex: 'modules',
              width: 260,
              render: (m: string[]) =>
                m.length === 0 ? (
                  <Typography.Text type="secondary">Не подключены</Typography.Text>
                ) : (
                  <Tooltip title={m.map(modules.nameOf).join(', ')}>
                    <Flex gap={4} wrap>
                      {m.slice(0, 3).map((code) => (
                        <Tag key={code}>{modules.nameOf(code)}</Tag>
                      ))}
                      {m.length > 3 && <Tag>+{m.length - 3}</Tag>}
                    </Flex>
                  </Tooltip>
                ),
            },
            { title: 'Участники', dataIndex: 'members_count', width: 110, align: 'right' },
            {
              title: 'Статус',
              filter: { kind: 'active', key: 'active', width: 170 },
              dataIndex: 'is_active',
              width: 120,
              render: (on: boolean) => (on ? <Tag color="green">Активна</Tag> : <Tag color="red">Отключена</Tag>),
            },
            { title: 'Создана', dataIndex: 'created_at', width: 110, render: (d: string) => formatDate(d) },
          ]}
        />
      </Card>
    </>
  );
}
