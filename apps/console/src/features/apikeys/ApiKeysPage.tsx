import { PlusOutlined } from '@ant-design/icons';
import { Link, useNavigate } from '@tanstack/react-router';
import { Button, Card, Flex, Typography } from 'antd';
import { useState } from 'react';
import { AdminTable } from '../../components/list/AdminTable';
import type { SearchPatch } from '../../components/list/listSearch';
import { pageParams } from '../../components/list/pagination';
import { PageHeading } from '../../components/page/PageHeading';
import { EmptyState } from '../../components/page/QueryState';
import { SecretOnceModal } from '../../components/SecretOnceModal';
import { formatDate, formatDateTime } from '../../lib/format';
import { useCan } from '../auth/useMe';
import { useCompanyOptions } from '../companies/api/queries';
import { ALL_COMPANIES_LABEL, useCompanyFilter } from '../company/useCompanyId';
import { type ApiKey, type ApiKeyWithSecret, useApiKeysQuery } from './api/queries';
import { CreateApiKeyModal } from './components/CreateApiKeyModal';
import { RolesSummary } from './components/RolesEditor';
import type { ApiKeysSearch } from './search';
import { ApiKeyStatus } from './status';

export const SECRET_USAGE = (
  <>
    Передавайте секрет в заголовке каждого запроса к API:
    <br />
    <Typography.Text code style={{ whiteSpace: 'nowrap' }}>
      Authorization: Bearer fp_…
    </Typography.Text>
  </>
);

/** /api-keys: the keys of the company chosen in the header, name search, create (secret once). */
export function ApiKeysPage({ search, onSearch }: { search: ApiKeysSearch; onSearch: (p: SearchPatch<ApiKeysSearch>) => void }) {
  const navigate = useNavigate();
  const canManage = useCan('apikeys.manage');
  const companyId = useCompanyFilter();
  const companies = useCompanyOptions();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<ApiKeyWithSecret | null>(null);
  const list = useApiKeysQuery({ ...pageParams(search), q: search.q, company_id: companyId });

  return (
    <>
      <PageHeading
        title="API-ключи"
        subtitle={`Доступ внешних систем к API · ${companyId === undefined ? ALL_COMPANIES_LABEL : (companies.nameOf(companyId) ?? '…')}`}
        extra={
          <>
            <Link to="/api-docs">
              <Button>Документация API</Button>
            </Link>
            {canManage && (
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
                Создать ключ
              </Button>
            )}
          </>
        }
      />
      <Card>
        <AdminTable<ApiKey, ApiKeysSearch>
          query={list}
          search={search}
          onSearch={onSearch}
          paged
          data-testid="apikeys-table"
          scroll={{ x: 1000 }}
          empty={(filtered) => <EmptyState text={filtered ? 'Ничего не нашлось' : 'Ключей пока нет'} />}
          filterExtra={
            <Typography.Text type="secondary" style={{ alignSelf: 'center' }}>
              Компания выбирается в шапке
            </Typography.Text>
          }
          columns={[
            {
              title: 'Название',
              filter: { kind: 'text', key: 'q', placeholder: 'Название ключа', width: 300, label: 'Поиск ключей' },
              dataIndex: 'name',
              render: (name: string, k) => (
                <Flex vertical>
                  <Link to="/api-keys/$id" params={{ id: String(k.id) }}>
                    {name}
                  </Link>
                  <Typography.Text type="secondary" code style={{ fontSize: 12, width: 'fit-content' }}>
                    {k.prefix}
                  </Typography.Text>
                </Flex>
              ),
            },
            { title: 'Компания', dataIndex: 'company_name', width: 200 },
            { title: 'Роли', key: 'roles', render: (_, k) => <RolesSummary roles={k.roles} collector={k.collector} /> },
            { title: 'Статус', key: 'status', width: 110, render: (_, k) => <ApiKeyStatus apiKey={k} /> },
            {
              title: 'Действует до',
              dataIndex: 'expires_at',
              width: 130,
              render: (d: string | null) => (d ? formatDate(d) : 'Бессрочно'),
            },
            {
              title: 'Использован',
              key: 'last_used',
              width: 170,
              render: (_, k) =>
                k.last_used_at ? (
                  <Flex vertical>
                    <span>{formatDateTime(k.last_used_at)}</span>
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      {k.last_used_ip}
                    </Typography.Text>
                  </Flex>
                ) : (
                  <Typography.Text type="secondary">Не использовался</Typography.Text>
                ),
            },
          ]}
        />
      </Card>
      <CreateApiKeyModal
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(k) => {
          setCreating(false);
          setCreated(k);
        }}
      />
      <SecretOnceModal
        open={created !== null}
        title={`API-ключ «${created?.name ?? ''}» создан`}
        secret={created?.secret ?? null}
        description={SECRET_USAGE}
        warning="Секрет показывается один раз: после закрытия окна его нельзя будет посмотреть снова. Если он потеряется — перевыпустите ключ."
        onClose={() => {
          const id = created?.id;
          setCreated(null);
          if (id) void navigate({ to: '/api-keys/$id', params: { id: String(id) } });
        }}
      />
    </>
  );
}
