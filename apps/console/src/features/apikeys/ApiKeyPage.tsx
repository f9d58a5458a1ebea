import { ArrowLeftOutlined, DeleteOutlined, SaveOutlined, SyncOutlined } from '@ant-design/icons';
import { apiKeyRolesInput, updateApiKeyRequest } from '@forpost/contract/apikeys';
import { MSG } from '@forpost/contract/messages';
import { isStaff } from '@forpost/contract/permissions';
import { Link, useNavigate } from '@tanstack/react-router';
import { Alert, Button, Card, Checkbox, Col, Descriptions, Flex, Form, Input, Row, Switch, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { AllowedIpsFields, withStashedIp } from '../../components/form/AllowedIpsFields';
import { ExpiryPicker, expiryIso } from '../../components/form/ExpiryPicker';
import { useCheckedSave } from '../../components/form/useCheckedSave';
import { PageHeading } from '../../components/page/PageHeading';
import { LoadingCard } from '../../components/page/QueryState';
import { SecretOnceModal } from '../../components/SecretOnceModal';
import { feedback } from '../../lib/feedback';
import { dayjs, formatDate, formatDateTime } from '../../lib/format';
import { requiredRule } from '../auth/components/shared';
import { useCan, useMe } from '../auth/useMe';
import { SECRET_USAGE } from './ApiKeysPage';
import {
  useDeleteApiKeyMutation,
  useRotateApiKeyMutation,
  useSetApiKeyRolesMutation,
  useUpdateApiKeyMutation,
} from './api/mutations';
import { type ApiKey, useApiKeyQuery } from './api/queries';
import { type KeyRole, RolesEditor } from './components/RolesEditor';
import { ApiKeyStatus } from './status';

const backLink = (
  <Link to="/api-keys" style={{ display: 'inline-block', marginBottom: 8 }}>
    <ArrowLeftOutlined /> К списку ключей
  </Link>
);

/** /api-keys/{id}: details, settings, roles, rotate (new secret once), delete. */
export function ApiKeyPage({ id }: { id: number }) {
  const key = useApiKeyQuery(id);
  if (!key.data) {
    return (
      <>
        <PageHeading title="API-ключ" back={backLink} />
        {key.isError ? null : <LoadingCard />}
      </>
    );
  }
  return <ApiKeyView apiKey={key.data} />;
}

interface SettingsValues {
  name: string;
  expires_at?: Dayjs | null;
  is_active: boolean;
  allowed_ips: string[];
  allowed_ips_stash?: string;
}

function SettingsCard({ apiKey, readOnly }: { apiKey: ApiKey; readOnly: boolean }) {
  const { message } = feedback;
  const [form] = Form.useForm<SettingsValues>();
  const update = useUpdateApiKeyMutation(apiKey.id);
  const save = useCheckedSave('Сохранение ключа не удалось');

  const onFinish = (v: SettingsValues) => {
    const body = {
      name: v.name,
      expires_at: expiryIso(v.expires_at),
      is_active: v.is_active,
      allowed_ips: withStashedIp(v),
    };
    void save.run(updateApiKeyRequest, body, async (b) => {
      const k = await update.mutateAsync(b);
      form.setFieldsValue({ allowed_ips: k.allowed_ips, allowed_ips_stash: '' });
      message.success('Настройки ключа сохранены');
    });
  };

  return (
    <Card title="Настройки">
      <Form<SettingsValues>
        form={form}
        layout="vertical"
        disabled={readOnly}
        initialValues={{
          name: apiKey.name,
          expires_at: apiKey.expires_at ? dayjs(apiKey.expires_at) : null,
          is_active: apiKey.is_active,
          allowed_ips: apiKey.allowed_ips,
          allowed_ips_stash: '',
        }}
        onFinish={onFinish}
        onFinishFailed={() => message.error(MSG.fillRequired)}
        onValuesChange={save.clearError}
        data-testid="apikey-settings-form"
      >
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item name="name" label="Название" rules={[requiredRule, { max: 200, message: MSG.tooLong(200) }]}>
              <Input maxLength={200} />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item name="expires_at" label="Действует до">
              <ExpiryPicker allowPast style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item name="is_active" label="Включён" valuePropName="checked">
              <Switch />
            </Form.Item>
          </Col>
        </Row>
        <AllowedIpsFields extra="Если список не пуст, ключ принимается только с этих адресов и подсетей." disabled={readOnly} />
        {save.error && <Alert type="error" showIcon title={save.error} style={{ marginTop: 16 }} />}
        {!readOnly && (
          <Button type="primary" htmlType="submit" icon={<SaveOutlined />} loading={update.isPending} style={{ marginTop: 16 }}>
            Сохранить
          </Button>
        )}
      </Form>
    </Card>
  );
}

function RolesCard({ apiKey, readOnly }: { apiKey: ApiKey; readOnly: boolean }) {
  const me = useMe();
  const { message } = feedback;
  const [form] = Form.useForm<{ roles: Partial<KeyRole>[]; collector: boolean }>();
  const setRoles = useSetApiKeyRolesMutation(apiKey.id);
  const save = useCheckedSave('Сохранение ролей не удалось');

  const onFinish = (v: { roles: Partial<KeyRole>[]; collector: boolean }) =>
    void save.run(apiKeyRolesInput, { roles: v.roles ?? [], collector: Boolean(v.collector) }, async (b) => {
      await setRoles.mutateAsync(b);
      message.success('Роли ключа сохранены');
    });

  return (
    <Card title="Права доступа">
      <Form
        form={form}
        layout="vertical"
        disabled={readOnly}
        initialValues={{ roles: apiKey.roles, collector: apiKey.collector }}
        onFinish={onFinish}
        onFinishFailed={() => message.error(MSG.fillRequired)}
      >
        <RolesEditor disabled={readOnly} />
        {isStaff(me.role) && (
          <Form.Item name="collector" valuePropName="checked" style={{ marginTop: 16, marginBottom: 0 }}>
            <Checkbox>Сборщик сообщений Telegram-фильтра</Checkbox>
          </Form.Item>
        )}
        {save.error && <Alert type="error" showIcon title={save.error} style={{ marginTop: 16 }} />}
        {!readOnly && (
          <Button type="primary" htmlType="submit" icon={<SaveOutlined />} loading={setRoles.isPending} style={{ marginTop: 16 }}>
            Сохранить роли
          </Button>
        )}
      </Form>
    </Card>
  );
}

function ApiKeyView({ apiKey }: { apiKey: ApiKey }) {
  const navigate = useNavigate();
  const { message, modal } = feedback;
  const canManage = useCan('apikeys.manage', apiKey.company_id);
  const rotate = useRotateApiKeyMutation(apiKey.id);
  const remove = useDeleteApiKeyMutation();
  const [secret, setSecret] = useState<string | null>(null);

  const onRotate = () =>
    modal.confirm({
      title: 'Перевыпустить секрет?',
      content:
        'Будет создан новый секрет, а старый перестанет работать сразу. Обновите его во всех интеграциях, которые используют этот ключ.',
      okText: 'Перевыпустить',
      okButtonProps: { danger: true },
      cancelText: 'Отмена',
      onOk: () =>
        rotate.mutateAsync().then((k) => {
          setSecret(k.secret);
        }),
    });

  const onDelete = () =>
    modal.confirm({
      title: `Удалить ключ «${apiKey.name}»?`,
      content: 'Запросы с этим ключом сразу перестанут проходить. Действие нельзя отменить.',
      okText: 'Удалить',
      okButtonProps: { danger: true },
      cancelText: 'Отмена',
      onOk: () =>
        remove.mutateAsync(apiKey.id).then(() => {
          message.success('Ключ удалён');
          void navigate({ to: '/api-keys' });
        }),
    });

  return (
    <>
      <PageHeading
        title={apiKey.name}
        subtitle={
          <>
            {apiKey.company_name} · <Typography.Text code>{apiKey.prefix}</Typography.Text>
          </>
        }
        back={backLink}
        extra={
          canManage && (
            <>
              <Button icon={<SyncOutlined />} onClick={onRotate} loading={rotate.isPending}>
                Перевыпустить
              </Button>
              <Button danger icon={<DeleteOutlined />} onClick={onDelete} loading={remove.isPending}>
                Удалить
              </Button>
            </>
          )
        }
      />
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={9}>
          <Flex vertical gap={16}>
            <Card title="Сведения">
              <Descriptions
                column={1}
                size="small"
                items={[
                  { key: 'status', label: 'Статус', children: <ApiKeyStatus apiKey={apiKey} /> },
                  { key: 'company', label: 'Компания', children: apiKey.company_name },
                  { key: 'prefix', label: 'Префикс', children: <Typography.Text code>{apiKey.prefix}</Typography.Text> },
                  { key: 'created', label: 'Создан', children: formatDateTime(apiKey.created_at) },
                  {
                    key: 'expires',
                    label: 'Действует до',
                    children: apiKey.expires_at ? formatDate(apiKey.expires_at) : 'Бессрочно',
                  },
                  {
                    key: 'used',
                    label: 'Последнее использование',
                    children: apiKey.last_used_at ? (
                      <span data-testid="apikey-last-used">
                        {formatDateTime(apiKey.last_used_at)}
                        {apiKey.last_used_ip ? `, ${apiKey.last_used_ip}` : ''}
                      </span>
                    ) : (
                      'Не использовался'
                    ),
                  },
                ]}
              />
            </Card>
            <Alert type="info" showIcon title="Как пользоваться" description={SECRET_USAGE} />
          </Flex>
        </Col>
        <Col xs={24} xl={15}>
          <Flex vertical gap={16}>
            <SettingsCard key={`s${apiKey.id}-${apiKey.is_active}`} apiKey={apiKey} readOnly={!canManage} />
            <RolesCard key={`r${JSON.stringify(apiKey.roles)}${apiKey.collector}`} apiKey={apiKey} readOnly={!canManage} />
          </Flex>
        </Col>
      </Row>
      <SecretOnceModal
        open={secret !== null}
        title="Новый секрет ключа"
        secret={secret}
        description={SECRET_USAGE}
        warning="Старый секрет больше не работает. Новый показывается один раз: после закрытия окна его нельзя будет посмотреть снова."
        onClose={() => setSecret(null)}
      />
    </>
  );
}
