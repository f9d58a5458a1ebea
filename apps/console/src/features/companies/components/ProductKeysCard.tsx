import { KeyOutlined, StopOutlined } from '@ant-design/icons';
import { createProductKeyRequest } from '@forpost/contract/companies';
import { MSG } from '@forpost/contract/messages';
import { COMPANY_ROLE_LABELS, type CompanyRole } from '@forpost/contract/permissions';
import { Alert, Button, Card, Flex, Form, Input, InputNumber, Modal, Popconfirm, Select, Table, Tag, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { ExpiryPicker, expiryIso } from '../../../components/form/ExpiryPicker';
import { useCheckedSave } from '../../../components/form/useCheckedSave';
import { EmptyState, LoadError } from '../../../components/page/QueryState';
import { SecretOnceModal } from '../../../components/SecretOnceModal';
import { feedback } from '../../../lib/feedback';
import { dayjs, formatDate, formatDateTime } from '../../../lib/format';
import { companyRoleOptions } from '../../users/roles';
import { useCreateProductKeyMutation, useRevokeProductKeyMutation } from '../api/mutations';
import { type CompanyDetail, type ProductKey, useModuleOptions, useProductKeysQuery } from '../api/queries';

const KEY_STATUS: Record<ProductKey['status'], { label: string; color: string }> = {
  active: { label: 'Действует', color: 'green' },
  expired: { label: 'Истёк', color: 'orange' },
  revoked: { label: 'Отозван', color: 'red' },
  exhausted: { label: 'Исчерпан', color: 'default' },
};

interface IssueValues {
  valid_until?: Dayjs | null;
  modules: string[];
  max_activations: number;
  company_role: CompanyRole;
  comment?: string;
}

/** «Выпустить ключ»: validity date, modules, activations, company role → the key text once. */
function IssueKeyModal({
  company,
  open,
  onClose,
  onIssued,
}: {
  company: CompanyDetail;
  open: boolean;
  onClose: () => void;
  onIssued: (key: string) => void;
}) {
  const [form] = Form.useForm<IssueValues>();
  const modules = useModuleOptions();
  const create = useCreateProductKeyMutation(company.id);
  const save = useCheckedSave('Выпуск ключа не удался');

  const submit = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    const body = {
      valid_until: expiryIso(v.valid_until),
      modules: v.modules ?? [],
      max_activations: v.max_activations,
      company_role: v.company_role,
      comment: v.comment?.trim() || undefined,
    };
    await save.run(createProductKeyRequest, body, async (b) => {
      const k = await create.mutateAsync(b);
      form.resetFields();
      onIssued(k.key);
    });
  };

  return (
    <Modal
      open={open}
      title={`Новый продуктовый ключ — ${company.name}`}
      okText="Выпустить"
      cancelText="Отмена"
      onOk={() => void submit()}
      okButtonProps={{ loading: create.isPending }}
      onCancel={onClose}
      destroyOnHidden
      width={560}
    >
      <Typography.Paragraph type="secondary">
        Пользователь, активировавший ключ, становится участником компании с выбранной ролью; модули ключа подключаются компании.
      </Typography.Paragraph>
      <Form<IssueValues>
        form={form}
        layout="vertical"
        initialValues={{ modules: [], max_activations: 1, company_role: 'COMPANY_VIEWER', valid_until: dayjs().add(30, 'day') }}
        onValuesChange={save.clearError}
      >
        <Flex gap={16}>
          <Form.Item name="valid_until" label="Действует до" style={{ flex: 1 }} extra="Пусто — бессрочно">
            <ExpiryPicker style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item
            name="max_activations"
            label="Число активаций"
            rules={[{ required: true, message: MSG.required }]}
            style={{ flex: 1 }}
          >
            <InputNumber min={1} max={10000} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </Flex>
        <Form.Item name="company_role" label="Роль в компании" rules={[{ required: true, message: MSG.required }]}>
          <Select options={companyRoleOptions} />
        </Form.Item>
        <Form.Item name="modules" label="Модули" extra="Подключатся компании при активации">
          <Select
            mode="multiple"
            allowClear
            options={modules.options}
            showSearch={{ optionFilterProp: 'label' }}
            placeholder="Без изменений"
          />
        </Form.Item>
        <Form.Item name="comment" label="Комментарий" rules={[{ max: 500, message: MSG.tooLong(500) }]}>
          <Input maxLength={500} placeholder="Для кого или зачем выпущен ключ" />
        </Form.Item>
      </Form>
      {save.error && <Alert type="error" showIcon title={save.error} />}
    </Modal>
  );
}

/** «Продуктовые ключи»: the company's keys, issue (key shown once), revoke. */
export function ProductKeysCard({ company }: { company: CompanyDetail }) {
  const { message } = feedback;
  const keys = useProductKeysQuery(company.id);
  const modules = useModuleOptions();
  const revoke = useRevokeProductKeyMutation(company.id);
  const [issuing, setIssuing] = useState(false);
  const [issued, setIssued] = useState<string | null>(null);

  return (
    <Card
      title="Продуктовые ключи"
      extra={
        <Button type="primary" icon={<KeyOutlined />} onClick={() => setIssuing(true)} disabled={!company.is_active}>
          Выпустить ключ
        </Button>
      }
    >
      {!company.is_active && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          title="Компания отключена: ключи не активируются, новые выпустить нельзя"
        />
      )}
      {keys.isError ? (
        <LoadError error={keys.error} onRetry={() => void keys.refetch()} />
      ) : (
        <Table<ProductKey>
          rowKey="id"
          loading={keys.isLoading}
          dataSource={keys.data?.items ?? []}
          pagination={false}
          data-testid="product-keys-table"
          locale={{
            emptyText: <EmptyState text={'Ключей пока нет. Выпустите ключ, чтобы пользователи могли подключиться к компании.'} />,
          }}
          scroll={{ x: 900 }}
          columns={[
            {
              title: 'Ключ',
              dataIndex: 'key_prefix',
              render: (p: string, k) => (
                <Flex vertical>
                  <Typography.Text code>{p}…</Typography.Text>
                  {k.comment && (
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      {k.comment}
                    </Typography.Text>
                  )}
                </Flex>
              ),
            },
            { title: 'Роль', dataIndex: 'company_role', render: (r: CompanyRole) => COMPANY_ROLE_LABELS[r] },
            {
              title: 'Модули',
              dataIndex: 'modules',
              render: (m: string[]) =>
                m.length ? (
                  <Flex gap={4} wrap>
                    {m.map((c) => (
                      <Tag key={c}>{modules.nameOf(c)}</Tag>
                    ))}
                  </Flex>
                ) : (
                  <Typography.Text type="secondary">—</Typography.Text>
                ),
            },
            {
              title: 'Действует до',
              dataIndex: 'valid_until',
              width: 130,
              render: (d: string | null) => (d ? formatDate(d) : 'Бессрочно'),
            },
            {
              title: 'Активации',
              key: 'activations',
              width: 110,
              align: 'center',
              render: (_, k) => `${k.activations} / ${k.max_activations}`,
            },
            {
              title: 'Статус',
              dataIndex: 'status',
              width: 120,
              render: (s: ProductKey['status']) => <Tag color={KEY_STATUS[s].color}>{KEY_STATUS[s].label}</Tag>,
            },
            {
              title: 'Выпущен',
              dataIndex: 'created_at',
              width: 150,
              render: (d: string) => formatDateTime(d),
            },
            {
              title: '',
              key: 'actions',
              width: 120,
              align: 'right',
              render: (_, k) =>
                k.status !== 'revoked' && (
                  <Popconfirm
                    title="Отозвать ключ?"
                    description="Его больше нельзя будет активировать. Уже подключённые пользователи сохранят доступ."
                    okText="Отозвать"
                    okButtonProps={{ danger: true }}
                    cancelText="Отмена"
                    onConfirm={() =>
                      revoke.mutateAsync(k.id).then(() => {
                        message.success('Ключ отозван');
                      })
                    }
                  >
                    <Button size="small" danger icon={<StopOutlined />}>
                      Отозвать
                    </Button>
                  </Popconfirm>
                ),
            },
          ]}
        />
      )}
      <IssueKeyModal
        company={company}
        open={issuing}
        onClose={() => setIssuing(false)}
        onIssued={(key) => {
          setIssuing(false);
          setIssued(key);
        }}
      />
      <SecretOnceModal
        open={issued !== null}
        title="Продуктовый ключ выпущен"
        secret={issued}
        description="Передайте ключ пользователю: он вводит его на странице активации после входа."
        warning="Ключ показывается один раз: после закрытия окна его нельзя будет посмотреть снова."
        onClose={() => setIssued(null)}
      />
    </Card>
  );
}
