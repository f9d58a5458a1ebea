import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { ASSET_KIND_LABELS, type AssetKind, LOGIN_FOLD_VALUE } from '@forpost/contract/discovery';
import { Button, Card, Flex, Form, Input, Popconfirm, Select, Switch, Table, Tag, Typography } from 'antd';
import { apiFieldErrors } from '../../components/form/forms';
import { EmptyState, Loaded } from '../../components/page/QueryState';
import { feedback } from '../../lib/feedback';
import { formatDate } from '../../lib/format';
import { errorMessage } from '../../lib/http';
import { useCan } from '../auth/useMe';
import { type Asset, useAddAssetMutation, useAssetsQuery, useDeleteAssetMutation, useToggleAssetMutation } from './api';

type IdKind = 'login' | 'login_pattern';
const ID_KINDS: IdKind[] = ['login', 'login_pattern'];

/**
 * Protected identities of leak hunting (#34), kept as the company's assets: exact logins/emails, login patterns
 * (`*`, `?`, `#`) and the switch that folds `+tags` and Gmail dots. The email domains are the domain assets.
 */
export function IdentitiesCard({ companyId }: { companyId: number }) {
  const q = useAssetsQuery(companyId);
  const canManage = useCan('discovery.manage', companyId);
  const add = useAddAssetMutation(companyId);
  const toggle = useToggleAssetMutation(companyId);
  const remove = useDeleteAssetMutation(companyId);
  const [form] = Form.useForm<{ kind: IdKind; value: string }>();
  const kind = Form.useWatch('kind', form) ?? 'login';
  const items = q.data?.items ?? [];
  const rows = items.filter((a) => a.kind === 'login' || a.kind === 'login_pattern');
  const fold = items.find((a) => a.kind === 'login_fold');
  const domains = items.filter((a) => a.kind === 'domain' && a.enabled).length;

  const onAdd = (v: { kind: AssetKind; value: string }) =>
    add
      .mutateAsync(v)
      .then(() => {
        feedback.message.success('Учётная запись добавлена');
        form.setFieldValue('value', '');
      })
      .catch((e) => form.setFields([{ name: 'value', errors: [apiFieldErrors(e).value ?? errorMessage(e)] }]));

  const setFold = (on: boolean) =>
    fold ? toggle.mutate({ id: fold.id, enabled: on }) : add.mutate({ kind: 'login_fold', value: LOGIN_FOLD_VALUE });

  return (
    <Card title="Учётные записи для поиска утечек" data-testid="identities-card" style={{ marginTop: 16 }}>
      <Typography.Paragraph type="secondary">
        Поиск утечек находит адреса на включённых доменах компании ({domains}) и их поддоменах, а также логины ниже. Шаблон: * —
        любые символы (не больше двух), ? — один символ, # — одна цифра; например cid-########.
      </Typography.Paragraph>
      <Loaded query={q}>
        <Flex align="center" gap={8} style={{ marginBottom: 16 }}>
          <Switch
            checked={fold?.enabled ?? false}
            disabled={!canManage}
            loading={toggle.isPending || (add.isPending && add.variables?.kind === 'login_fold')}
            onChange={setFold}
            data-testid="identities-fold"
            aria-label="Сворачивать +теги и точки"
          />
          <span>Сворачивать +теги и точки у почтовых сервисов, которые их не различают (ivan+x@gmail.com = ivan@gmail.com)</span>
        </Flex>
        {canManage && (
          <Form
            form={form}
            layout="inline"
            initialValues={{ kind: 'login', value: '' }}
            onFinish={onAdd}
            style={{ marginBottom: 16 }}
          >
            <Form.Item name="kind">
              <Select
                style={{ width: 210 }}
                options={ID_KINDS.map((k) => ({ value: k, label: ASSET_KIND_LABELS[k] }))}
                data-testid="identity-kind"
              />
            </Form.Item>
            <Form.Item name="value" rules={[{ required: true, message: 'Введите логин, адрес или шаблон' }]}>
              <Input
                placeholder={kind === 'login' ? 'ivan.petrov или ceo@example.ru' : 'например cid-######'}
                style={{ width: 320 }}
                data-testid="identity-value"
              />
            </Form.Item>
            <Button type="primary" htmlType="submit" icon={<PlusOutlined />} loading={add.isPending} data-testid="identity-add">
              Добавить
            </Button>
          </Form>
        )}
        <Table<Asset>
          size="small"
          rowKey="id"
          dataSource={rows}
          pagination={false}
          locale={{ emptyText: <EmptyState text="Логинов и шаблонов нет — ищутся только адреса на доменах компании" /> }}
          columns={[
            { title: 'Вид', dataIndex: 'kind', width: 170, render: (k: AssetKind) => <Tag>{ASSET_KIND_LABELS[k]}</Tag> },
            {
              title: 'Значение',
              dataIndex: 'unicode',
              render: (u: string, a) => (
                <span data-testid="identity-row">
                  <Typography.Text code={a.kind === 'login_pattern'}>{u}</Typography.Text>
                  {u !== a.value && (
                    <Typography.Text type="secondary" style={{ marginLeft: 8 }}>
                      {a.value}
                    </Typography.Text>
                  )}
                </span>
              ),
            },
            {
              title: 'Включена',
              dataIndex: 'enabled',
              width: 100,
              render: (on: boolean, a) => (
                <Switch
                  size="small"
                  checked={on}
                  disabled={!canManage}
                  loading={toggle.isPending && toggle.variables?.id === a.id}
                  onChange={(enabled) => toggle.mutate({ id: a.id, enabled })}
                />
              ),
            },
            { title: 'Добавлена', dataIndex: 'created_at', width: 120, render: (d: string) => formatDate(d) },
            {
              title: '',
              key: 'actions',
              width: 60,
              render: (_: unknown, a) =>
                canManage && (
                  <Popconfirm
                    title="Удалить учётную запись?"
                    okText="Удалить"
                    cancelText="Отмена"
                    onConfirm={() => remove.mutateAsync(a.id)}
                  >
                    <Button size="small" danger icon={<DeleteOutlined />} aria-label="Удалить" />
                  </Popconfirm>
                ),
            },
          ]}
        />
      </Loaded>
    </Card>
  );
}
