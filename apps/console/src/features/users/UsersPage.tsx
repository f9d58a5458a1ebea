import { CheckCircleTwoTone, PlusOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import { COMPANY_ROLE_LABELS, isStaff, USER_ROLE_LABELS, USER_ROLES } from '@forpost/contract/permissions';
import { Link } from '@tanstack/react-router';
import { Button, Card, Flex, Space, Tag, Tooltip, Typography } from 'antd';
import { AdminTable } from '../../components/list/AdminTable';
import type { SearchPatch } from '../../components/list/listSearch';
import { pageParams } from '../../components/list/pagination';
import { PageHeading } from '../../components/page/PageHeading';
import { EmptyState } from '../../components/page/QueryState';
import { formatDate, formatDateTime } from '../../lib/format';
import { useCan, useMe } from '../auth/useMe';
import { useCompanyOptions } from '../companies/api/queries';
import { type User, useUsersQuery } from './api/queries';
import { USER_ROLE_COLORS } from './roles';
import type { UsersSearch } from './search';

export interface UsersPageProps {
  search: UsersSearch;
  onSearch: (patch: SearchPatch<UsersSearch>) => void;
}

/** /users: search, role / company / status filters and pages, all kept in the URL. */
export function UsersPage({ search, onSearch }: UsersPageProps) {
  const me = useMe();
  const canManage = useCan('users.manage');
  const staff = isStaff(me.role);
  const companies = useCompanyOptions();

  const list = useUsersQuery({
    ...pageParams(search),
    q: search.q,
    role: search.role,
    company_id: search.company_id,
    is_active: search.active === undefined ? undefined : search.active ? 'true' : 'false',
  });

  return (
    <>
      <PageHeading
        title="Пользователи"
        subtitle={staff ? 'Сотрудники и пользователи компаний' : 'Пользователи ваших компаний'}
        extra={
          canManage && (
            <Link to="/users/{-$id}/edit" params={{ id: undefined }}>
              <Button type="primary" icon={<PlusOutlined />}>
                Добавить пользователя
              </Button>
            </Link>
          )
        }
      />
      <Card>
        <AdminTable<User, UsersSearch>
          query={list}
          search={search}
          onSearch={onSearch}
          resettable
          paged
          data-testid="users-table"
          empty={(filtered) => (
            <EmptyState text={filtered ? 'Никого не нашлось — измените условия поиска' : 'Пользователей пока нет'} />
          )}
          scroll={{ x: 1000 }}
          columns={[
            {
              title: 'Пользователь',
              key: 'name',
              filter: { kind: 'text', key: 'q', placeholder: 'Имя или email', width: 280, label: 'Поиск пользователей' },
              render: (_, u) => (
                <Flex vertical>
                  {canManage ? (
                    <Link to="/users/{-$id}/edit" params={{ id: String(u.id) }}>
                      {u.name}
                    </Link>
                  ) : (
                    <Typography.Text strong>{u.name}</Typography.Text>
                  )}
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {u.email}
                  </Typography.Text>
                </Flex>
              ),
            },
            {
              title: 'Роль',
              dataIndex: 'role',
              width: 200,
              filter: staff
                ? {
                    kind: 'select',
                    key: 'role',
                    placeholder: 'Роль',
                    options: USER_ROLES.map((value) => ({ value, label: USER_ROLE_LABELS[value] })),
                    width: 230,
                  }
                : undefined,
              render: (r: User['role']) => <Tag color={USER_ROLE_COLORS[r]}>{USER_ROLE_LABELS[r]}</Tag>,
            },
            {
              title: 'Компании',
              key: 'companies',
              filter: {
                kind: 'select',
                key: 'company_id',
                placeholder: 'Компания',
                options: companies.options,
                width: 260,
                searchable: true,
                loading: companies.isLoading,
              },
              render: (_, u) =>
                u.role !== 'COMPANY_USER' ? (
                  <Typography.Text type="secondary">Все компании</Typography.Text>
                ) : u.companies.length ? (
                  <Flex gap={4} wrap>
                    {u.companies.map((c) => (
                      <Tooltip key={c.company_id} title={COMPANY_ROLE_LABELS[c.role]}>
                        <Tag>{c.name}</Tag>
                      </Tooltip>
                    ))}
                  </Flex>
                ) : (
                  <Typography.Text type="secondary">—</Typography.Text>
                ),
            },
            {
              title: 'Статус',
              key: 'status',
              width: 170,
              filter: { kind: 'active', key: 'active', width: 160 },
              render: (_, u) => (
                <Space size={4} wrap>
                  {u.is_active ? <Tag color="green">Активен</Tag> : <Tag color="red">Отключён</Tag>}
                  {u.pending_activation && <Tag color="gold">Ждёт активации</Tag>}
                </Space>
              ),
            },
            {
              title: '2FA',
              dataIndex: 'is_2fa_enabled',
              width: 70,
              align: 'center',
              render: (on: boolean) =>
                on ? (
                  <Tooltip title="Двухфакторная аутентификация включена">
                    <CheckCircleTwoTone twoToneColor="#52c41a" />
                  </Tooltip>
                ) : (
                  <Tooltip title="Двухфакторная аутентификация выключена">
                    <SafetyCertificateOutlined style={{ color: '#bfbfbf' }} />
                  </Tooltip>
                ),
            },
            {
              title: 'Последний вход',
              dataIndex: 'last_login_at',
              width: 160,
              render: (d: string | null) =>
                d ? formatDateTime(d) : <Typography.Text type="secondary">Не входил</Typography.Text>,
            },
            { title: 'Создан', dataIndex: 'created_at', width: 110, render: (d: string) => formatDate(d) },
          ]}
        />
      </Card>
    </>
  );
}
