/*
 * /settings/integrations («Интеграции», #33): a company's webhook endpoints (Standard Webhooks) and
 * syslog/CEF outputs — the instance's own outputs too, for staff — with their state, the secret shown
 * once (creation, rotation), and the delivery log of each.
 */
import { MoreOutlined, PlusOutlined } from '@ant-design/icons';
import { outboxTypeLabel } from '@forpost/contract/integrations';
import { companiesWith, isStaff } from '@forpost/contract/permissions';
import { Alert, Button, Card, Dropdown, Modal, Space, Switch, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { PageHeading } from '../../components/page/PageHeading';
import { EmptyState, LoadError } from '../../components/page/QueryState';
import { feedback } from '../../lib/feedback';
import { usePrincipal } from '../auth/useMe';
import { useCompanyFilter } from '../company/useCompanyId';
import {
  type Created,
  type IntegrationTarget,
  useDeleteIntegrationMutation,
  useIntegrationsQuery,
  usePatchIntegrationMutation,
  useRotateMutation,
} from './api';
import { DeliveriesDrawer } from './DeliveriesDrawer';
import { IntegrationModal } from './IntegrationModal';

function SecretModal({ created, onClose }: { created: Created | null; onClose: () => void }) {
  return (
    <Modal
      open={created?.secret != null}
      title="Секрет веб-хука"
      onOk={onClose}
      onCancel={onClose}
      cancelButtonProps={{ hidden: true }}
      okText="Сохранил"
    >
      <Alert
        type="warning"
        showIcon
        message="Секрет показывается один раз: сохраните его в получателе сейчас."
        style={{ marginBottom: 12 }}
      />
      <Typography.Paragraph
        copyable={{ text: created?.secret ?? '' }}
        code
        data-testid="int-secret"
        style={{ wordBreak: 'break-all' }}
      >
        {created?.secret}
      </Typography.Paragraph>
      {created?.target.previous_until && (
        <Typography.Paragraph type="secondary">
          Прежний секрет подписывает сообщения ещё сутки: заголовок webhook-signature несёт обе подписи.
        </Typography.Paragraph>
      )}
    </Modal>
  );
}

export function IntegrationsPage() {
  const principal = usePrincipal();
  const companyId = useCompanyFilter();
  const list = useIntegrationsQuery(companyId);
  const patch = usePatchIntegrationMutation();
  const remove = useDeleteIntegrationMutation();
  const rotate = useRotateMutation();
  const [adding, setAdding] = useState<'webhook' | 'syslog' | null>(null);
  const [created, setCreated] = useState<Created | null>(null);
  const [log, setLog] = useState<IntegrationTarget | null>(null);
  const staff = isStaff(principal.role) && companiesWith(principal, 'integrations.manage') === 'all';

  const state = (t: IntegrationTarget) =>
    t.enabled ? (
      <Tag color="green">работает</Tag>
    ) : (
      <Tag color={t.disabled_reason ? 'red' : 'default'} title={t.disabled_reason ?? undefined}>
        {t.disabled_reason ? 'выключен получателем' : 'выключен'}
      </Tag>
    );

  const confirmRotate = (t: IntegrationTarget) =>
    feedback.modal.confirm({
      title: `Выпустить новый секрет для «${t.name}»?`,
      content: 'Прежний секрет будет подписывать сообщения ещё 24 часа: обновите получателя за это время.',
      okText: 'Выпустить',
      cancelText: 'Отмена',
      onOk: async () => setCreated(await rotate.mutateAsync(t.id)),
    });
  const confirmDelete = (t: IntegrationTarget) =>
    feedback.modal.confirm({
      title: `Удалить «${t.name}»?`,
      content: 'Недоставленные сообщения этого получателя будут удалены вместе с ним.',
      okText: 'Удалить',
      okButtonProps: { danger: true },
      cancelText: 'Отмена',
      onOk: async () => {
        await remove.mutateAsync(t.id);
        feedback.message.success('Интеграция удалена');
      },
    });

  const common = [
    ...(companyId
      ? []
      : [
          {
            title: 'Компания',
            dataIndex: 'company_name',
            width: 140,
            ellipsis: true,
            render: (v: string | null) => v ?? <Tag color="purple">весь экземпляр</Tag>,
          },
        ]),
    {
      title: 'Сообщения',
      dataIndex: 'types',
      width: 110,
      ellipsis: true,
      render: (t: string[]) => (t.length ? t.map(outboxTypeLabel).join(', ') : 'все'),
    },
    {
      title: 'Состояние',
      key: 'state',
      width: 150,
      render: (_: unknown, t: IntegrationTarget) => (
        <Space size={4} wrap>
          {state(t)}
          {t.pending > 0 && <Tag>{t.pending} в очереди</Tag>}
          {t.failed > 0 && <Tag color="red">{t.failed} не доставлено</Tag>}
        </Space>
      ),
    },
    {
      title: '',
      key: 'actions',
      width: 150,
      render: (_: unknown, t: IntegrationTarget) => (
        <Space size={8}>
          <Switch
            size="small"
            checked={t.enabled}
            onChange={(enabled) => patch.mutate({ id: t.id, body: { enabled } })}
            aria-label={t.enabled ? 'Выключить' : 'Включить'}
          />
          <Button size="small" onClick={() => setLog(t)} data-testid="int-log">
            Журнал
          </Button>
          <Dropdown
            trigger={['click']}
            menu={{
              items: [
                ...(t.kind === 'webhook' ? [{ key: 'rotate', label: 'Сменить секрет' }] : []),
                { key: 'delete', label: 'Удалить', danger: true },
              ],
              onClick: ({ key }) => (key === 'rotate' ? confirmRotate(t) : confirmDelete(t)),
            }}
          >
            <Button size="small" icon={<MoreOutlined />} aria-label="Ещё" data-testid="int-more" />
          </Dropdown>
        </Space>
      ),
    },
  ];

  const items = list.data?.items ?? [];
  const table = (kind: 'webhook' | 'syslog') => (
    <Table<IntegrationTarget>
      rowKey="id"
      size="middle"
      loading={list.isLoading}
      dataSource={items.filter((t) => t.kind === kind)}
      pagination={false}
      tableLayout="fixed"
      data-testid={`int-${kind}-table`}
      locale={{
        emptyText: (
          <EmptyState
            text={kind === 'webhook' ? 'Веб-хуков пока нет' : 'Выводов syslog пока нет'}
            action={
              <Button onClick={() => setAdding(kind)} icon={<PlusOutlined />}>
                {kind === 'webhook' ? 'Добавить веб-хук' : 'Добавить вывод syslog'}
              </Button>
            }
          />
        ),
      }}
      columns={[
        {
          title: 'Название',
          dataIndex: 'name',
          width: 180,
          render: (v: string) => <Typography.Text strong>{v}</Typography.Text>,
        },
        kind === 'webhook'
          ? {
              title: 'Адрес',
              dataIndex: 'url',
              ellipsis: { showTitle: true },
            }
          : {
              title: 'Сервер',
              key: 'host',
              ellipsis: true,
              render: (_: unknown, t: IntegrationTarget) => (
                <Typography.Text code>
                  {t.host}:{t.port} {t.tls ? 'TLS' : 'TCP'}
                </Typography.Text>
              ),
            },
        ...common,
      ]}
    />
  );

  return (
    <>
      <PageHeading
        title="Интеграции"
        subtitle="Веб-хуки (Standard Webhooks) для SOAR и чат-ботов и вывод syslog/CEF в SIEM. Сообщения пишутся вместе с изменением и доставляются не меньше одного раза."
      />
      {list.isError && !list.data ? (
        <LoadError error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <Space direction="vertical" size="large" style={{ width: '100%' }}>
          <Card
            title="Веб-хуки"
            extra={
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding('webhook')} data-testid="int-add-webhook">
                Добавить веб-хук
              </Button>
            }
          >
            {table('webhook')}
          </Card>
          <Card
            title="Вывод syslog/CEF"
            extra={
              <Button icon={<PlusOutlined />} onClick={() => setAdding('syslog')} data-testid="int-add-syslog">
                Добавить вывод syslog
              </Button>
            }
          >
            {table('syslog')}
          </Card>
        </Space>
      )}
      <IntegrationModal
        kind={adding}
        companyId={companyId}
        staff={staff}
        onClose={() => setAdding(null)}
        onCreated={(c) => {
          setAdding(null);
          feedback.message.success('Интеграция добавлена');
          if (c.secret) setCreated(c);
        }}
      />
      <SecretModal created={created} onClose={() => setCreated(null)} />
      <DeliveriesDrawer target={log} onClose={() => setLog(null)} />
    </>
  );
}
