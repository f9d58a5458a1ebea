import { ArrowLeftOutlined, DeleteOutlined } from '@ant-design/icons';
import { Link, useNavigate } from '@tanstack/react-router';
import { Button, Tabs, Tag, Tooltip } from 'antd';
import { PageHeading } from '../../components/page/PageHeading';
import { LoadingCard } from '../../components/page/QueryState';
import { feedback } from '../../lib/feedback';
import { formatDate } from '../../lib/format';
import { useCan } from '../auth/useMe';
import { AssetsCard } from '../discovery/AssetsCard';
import { IdentitiesCard } from '../discovery/IdentitiesCard';
import { SlaPolicyEditor } from '../sla/SlaPolicyEditor';
import { WatchSettingsCard } from '../watch/WatchSettingsCard';
import { useCreateCompanyMutation, useDeleteCompanyMutation, useUpdateCompanyMutation } from './api/mutations';
import { type CompanyDetail, useCompanyQuery } from './api/queries';
import { CompanyForm } from './components/CompanyForm';
import { MembersCard } from './components/MembersCard';
import { ProductKeysCard } from './components/ProductKeysCard';
import type { CompanyTab } from './search';

const backLink = (
  <Link to="/companies" style={{ display: 'inline-block', marginBottom: 8 }}>
    <ArrowLeftOutlined /> К списку компаний
  </Link>
);

/** /companies/create: the company's details; then its page (members, product keys). */
export function CompanyCreatePage() {
  const navigate = useNavigate();
  const { message } = feedback;
  const create = useCreateCompanyMutation();
  return (
    <>
      <PageHeading
        title="Новая компания"
        subtitle="После создания можно добавить участников и выпустить продуктовые ключи"
        back={backLink}
      />
      <div style={{ maxWidth: 1100 }}>
        <CompanyForm
          submitText="Создать"
          submitting={create.isPending}
          onSubmit={(body) =>
            create.mutateAsync(body).then((c) => {
              message.success('Компания создана');
              void navigate({
                to: '/companies/{-$id}/edit',
                params: { id: String(c.id) },
                search: { tab: 'keys' },
                replace: true,
              });
            })
          }
          extraActions={
            <Link to="/companies">
              <Button>Отмена</Button>
            </Link>
          }
        />
      </div>
    </>
  );
}

/** /companies/{id}/edit: details, members, product keys. */
export function CompanyEditPage({ id, tab, onTab }: { id: number; tab?: CompanyTab; onTab: (tab: CompanyTab) => void }) {
  const company = useCompanyQuery(id);
  if (!company.data) {
    return (
      <>
        <PageHeading title="Компания" back={backLink} />
        {company.isError ? null : <LoadingCard />}
      </>
    );
  }
  return <CompanyEdit company={company.data} tab={tab} onTab={onTab} />;
}

function CompanyEdit({ company, tab, onTab }: { company: CompanyDetail; tab?: CompanyTab; onTab: (tab: CompanyTab) => void }) {
  const navigate = useNavigate();
  const { message, modal } = feedback;
  const update = useUpdateCompanyMutation(company.id);
  const remove = useDeleteCompanyMutation();
  const canKeys = useCan('companies.keys');
  const canDelete = useCan('companies.delete');
  const canAssets = useCan('discovery.read', company.id);
  const canUpdate = useCan('companies.update', company.id);

  const onDelete = () =>
    modal.confirm({
      title: `Удалить компанию «${company.name}»?`,
      content: 'Удалятся её события, ключи, белый список и участие пользователей. Действие нельзя отменить.',
      okText: 'Удалить',
      okButtonProps: { danger: true },
      cancelText: 'Отмена',
      onOk: () =>
        remove.mutateAsync(company.id).then(() => {
          message.success('Компания удалена');
          void navigate({ to: '/companies' });
        }),
    });

  const active = tab && (tab !== 'keys' || canKeys) && ((tab !== 'assets' && tab !== 'watch') || canAssets) ? tab : 'main';

  return (
    <>
      <PageHeading
        title={company.name}
        subtitle={
          <>
            {company.is_active ? <Tag color="green">Активна</Tag> : <Tag color="red">Отключена</Tag>}
            {company.legal_name ? `${company.legal_name} · ` : ''}создана {formatDate(company.created_at)}
          </>
        }
        back={backLink}
        extra={
          canDelete && (
            <Tooltip title={company.is_active ? 'Сначала отключите компанию' : undefined}>
              <Button danger icon={<DeleteOutlined />} disabled={company.is_active} onClick={onDelete} loading={remove.isPending}>
                Удалить
              </Button>
            </Tooltip>
          )
        }
      />
      <Tabs
        activeKey={active}
        onChange={(k) => onTab(k as CompanyTab)}
        destroyOnHidden={false}
        items={[
          {
            key: 'main',
            label: 'Основное',
            children: (
              <div style={{ maxWidth: 1100 }}>
                <CompanyForm
                  key={company.updated_at}
                  company={company}
                  submitText="Сохранить"
                  submitting={update.isPending}
                  onSubmit={(body) =>
                    update.mutateAsync(body).then(() => {
                      message.success('Компания сохранена');
                    })
                  }
                />
              </div>
            ),
          },
          {
            key: 'members',
            label: `Участники (${company.members.length})`,
            children: <MembersCard company={company} />,
          },
          ...(canKeys ? [{ key: 'keys', label: 'Продуктовые ключи', children: <ProductKeysCard company={company} /> }] : []),
          ...(canAssets
            ? [
                {
                  key: 'assets',
                  label: 'Защищаемые активы',
                  children: (
                    <>
                      <AssetsCard companyId={company.id} />
                      <IdentitiesCard companyId={company.id} />
                    </>
                  ),
                },
              ]
            : []),
          ...(canAssets ? [{ key: 'watch', label: 'Наблюдение', children: <WatchSettingsCard companyId={company.id} /> }] : []),
          {
            key: 'sla',
            label: 'Сроки SLA',
            children: <SlaPolicyEditor scope={company.id} canEdit={canUpdate} />,
          },
        ]}
      />
    </>
  );
}
