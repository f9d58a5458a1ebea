import { ArrowLeftOutlined, KeyOutlined, LogoutOutlined } from '@ant-design/icons';
import { activateRequest } from '@forpost/contract/companies';
import { MSG } from '@forpost/contract/messages';
import { COMPANY_ROLE_LABELS } from '@forpost/contract/permissions';
import { Link, useNavigate } from '@tanstack/react-router';
import { Alert, Button, Card, Flex, Form, Input, Table, Typography } from 'antd';
import { useState } from 'react';
import { EmptyState } from '../../components/page/QueryState';
import { feedback } from '../../lib/feedback';
import { formatDateTime } from '../../lib/format';
import { errorMessage } from '../../lib/http';
import { useLogoutMutation } from '../auth/api/mutations';
import { useMe } from '../auth/useMe';
import type { Activation } from '../companies/api/queries';
import { BlankLayout } from '../shell/BlankLayout';
import { PRODUCT_NAME, usePageTitle } from '../shell/usePageTitle';
import { useActivateMutation } from './api/mutations';
import { useActivationsQuery } from './api/queries';

const TITLE = 'Активация ключа продукта';

/**
 * /product-keys-activation (blank layout): a user waiting for activation lands here after signing
 * in; any company user can come back to add a company. Success → the profile is reloaded → /.
 */
export function ActivationPage() {
  usePageTitle(TITLE);
  const me = useMe();
  const navigate = useNavigate();
  const { message } = feedback;
  const [form] = Form.useForm<{ key: string }>();
  const activate = useActivateMutation();
  const logout = useLogoutMutation();
  const [error, setError] = useState<string | null>(null);
  const pending = me.pending_activation;
  const activations = useActivationsQuery(!pending);

  const onFinish = ({ key }: { key: string }) => {
    setError(null);
    const parsed = activateRequest.safeParse({ key });
    if (!parsed.success) {
      form.setFields([{ name: 'key', errors: [parsed.error.issues[0]?.message ?? MSG.required] }]);
      return;
    }
    activate.mutate(parsed.data.key, {
      onSuccess: (r) => {
        message.success(`Ключ активирован: доступ к компании «${r.company_name}» (${COMPANY_ROLE_LABELS[r.role]})`);
        void navigate({ to: '/', replace: true });
      },
      onError: (e) => {
        console.error('Активация ключа не удалась', e);
        setError(errorMessage(e));
      },
    });
  };

  return (
    <BlankLayout>
      <Flex vertical gap={16} style={{ width: '100%', maxWidth: 640 }}>
        <Card style={{ boxShadow: '0 8px 24px rgba(15, 27, 61, 0.08)' }}>
          <Flex vertical align="center" gap={4} style={{ marginBottom: 24, textAlign: 'center' }}>
            <KeyOutlined style={{ fontSize: 40, color: '#2f54eb' }} />
            <Typography.Title level={3} style={{ margin: 0 }} data-testid="page-title">
              {TITLE}
            </Typography.Title>
            <Typography.Text type="secondary">
              {pending
                ? `Чтобы начать работу в «${PRODUCT_NAME}», введите продуктовый ключ, который вам передал администратор.`
                : 'Ключ подключит вас к ещё одной компании.'}
            </Typography.Text>
          </Flex>
          <Form<{ key: string }>
            form={form}
            layout="vertical"
            requiredMark={false}
            onFinish={onFinish}
            onFinishFailed={() => message.error(MSG.fillRequired)}
            onValuesChange={() => error && setError(null)}
            disabled={activate.isPending}
          >
            <Form.Item name="key" label="Продуктовый ключ" rules={[{ required: true, whitespace: true, message: MSG.required }]}>
              <Input
                size="large"
                placeholder="XXXX-XXXX-XXXX-XXXX"
                autoComplete="off"
                spellCheck={false}
                autoFocus
                style={{ fontFamily: 'monospace' }}
                data-testid="activation-key"
              />
            </Form.Item>
            {error && <Alert type="error" showIcon title={error} data-testid="activation-error" style={{ marginBottom: 16 }} />}
            <Button type="primary" htmlType="submit" size="large" block loading={activate.isPending}>
              Активировать
            </Button>
          </Form>
          <Flex justify="space-between" align="center" style={{ marginTop: 16 }}>
            {pending ? (
              <Typography.Text type="secondary">Вошли как {me.email}</Typography.Text>
            ) : (
              <Link to="/">
                <ArrowLeftOutlined /> Вернуться в консоль
              </Link>
            )}
            <Button
              type="link"
              icon={<LogoutOutlined />}
              onClick={() => logout.mutate()}
              loading={logout.isPending}
              style={{ paddingInline: 0 }}
            >
              Выйти
            </Button>
          </Flex>
        </Card>
        {!pending && (
          <Card title="Мои активации" size="small">
            <Table<Activation>
              rowKey={(a) => `${a.company_id}-${a.key_prefix}-${a.activated_at}`}
              size="small"
              loading={activations.isLoading}
              dataSource={activations.data?.items ?? []}
              pagination={false}
              locale={{
                emptyText: (
                  <EmptyState text={activations.isError ? 'Не удалось загрузить список' : 'Вы ещё не активировали ключи'} />
                ),
              }}
              columns={[
                { title: 'Компания', dataIndex: 'company_name' },
                { title: 'Ключ', dataIndex: 'key_prefix', render: (p: string) => <Typography.Text code>{p}…</Typography.Text> },
                { title: 'Активирован', dataIndex: 'activated_at', render: (d: string) => formatDateTime(d) },
              ]}
            />
          </Card>
        )}
      </Flex>
    </BlankLayout>
  );
}
