import { DeleteOutlined, EyeOutlined, PlusOutlined } from '@ant-design/icons';
import { ASSET_KIND_LABELS, type AssetKind, IDENTITY_KINDS } from '@forpost/contract/discovery';
import { Button, Card, Flex, Form, Input, Modal, Popconfirm, Select, Switch, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { apiFieldErrors } from '../../components/form/forms';
import { EmptyState, Loaded } from '../../components/page/QueryState';
import { feedback } from '../../lib/feedback';
import { formatDate } from '../../lib/format';
import { errorMessage } from '../../lib/http';
import { useCan } from '../auth/useMe';
import { type Asset, useAddAssetMutation, useAssetsQuery, useDeleteAssetMutation, useToggleAssetMutation } from './api';
import { PreviewTable } from './PreviewTable';

/** The identities of leak hunting are assets too, shown in their own card (IdentitiesCard). */
const isIdentity = (k: AssetKind) => (IDENTITY_KINDS as readonly AssetKind[]).includes(k);

/**
 * The company's protected assets: domains (shown in Unicode, punycode beside) and brand keywords; switch
 * on/off, remove, and the candidate preview of a domain. Changing needs discovery.manage in the company.
 */
export function AssetsCard({ companyId }: { companyId: number }) {
  const q = useAssetsQuery(companyId);
  const canManage = useCan('discovery.manage', companyId);
  const add = useAddAssetMutation(companyId);
  const toggle = useToggleAssetMutation(companyId);
  const remove = useDeleteAssetMutation(companyId);
  const { message } = feedback;
  const [form] = Form.useForm<{ kind: AssetKind; value: string }>();
  const [preview, setPreview] = useState<Asset | null>(null);
  const kind = Form.useWatch('kind', form) ?? 'domain';

  const onAdd = (v: { kind: AssetKind; value: string }) =>
    add
      .mutateAsync(v)
      .then(() => {
        message.success('Актив добавлен');
        form.setFieldValue('value', '');
      })
      .catch((e) => {
        form.setFields([{ name: 'value', errors: [apiFieldErrors(e).value ?? errorMessage(e)] }]);
      });

  return (
    <Card title="Защищаемые активы" data-testid="assets-card">
      <Typography.Paragraph type="secondary">
        По доменам строятся кандидаты-двойники для поиска; домены и ключевые слова сверяются с именами в журналах сертификатов.
        Слова для комбинаций добавляются к бренду при каждом запуске (vtb-lk, lk-vtb) вместе со стандартным списком (lk, bonus,
        cashback, login, support…).
      </Typography.Paragraph>
      {canManage && (
        <Form
          form={form}
          layout="inline"
          initialValues={{ kind: 'domain', value: '' }}
          onFinish={onAdd}
          style={{ marginBottom: 16 }}
        >
          <Form.Item name="kind">
            <Select
              style={{ width: 210 }}
              options={Object.entries(ASSET_KIND_LABELS)
                .filter(([value]) => !isIdentity(value as AssetKind))
                .map(([value, label]) => ({ value, label }))}
              data-testid="asset-kind"
            />
          </Form.Item>
          <Form.Item name="value" rules={[{ required: true, message: 'Введите домен, ключевое слово или слово для комбинаций' }]}>
            <Input
              placeholder={
                kind === 'domain'
                  ? 'example.ru или пример.рф'
                  : kind === 'word'
                    ? 'например premier или cashback'
                    : 'например sberbank'
              }
              style={{ width: 320 }}
              data-testid="asset-value"
            />
          </Form.Item>
          <Button type="primary" htmlType="submit" icon={<PlusOutlined />} loading={add.isPending} data-testid="asset-add">
            Добавить
          </Button>
        </Form>
      )}
      <Loaded query={q}>
        <Table<Asset>
          size="small"
          rowKey="id"
          loading={q.isPending}
          dataSource={(q.data?.items ?? []).filter((a) => !isIdentity(a.kind))}
          pagination={false}
          locale={{ emptyText: <EmptyState text="Активов пока нет — добавьте домен компании" /> }}
          columns={[
            { title: 'Вид', dataIndex: 'kind', width: 150, render: (k: AssetKind) => <Tag>{ASSET_KIND_LABELS[k]}</Tag> },
            {
              title: 'Значение',
              dataIndex: 'unicode',
              render: (u: string, a) => (
                <span data-testid="asset-row">
                  {u}
                  {u !== a.value && (
                    <Typography.Text type="secondary" style={{ marginLeft: 8 }}>
                      {a.value}
                    </Typography.Text>
                  )}
                </span>
              ),
            },
            {
              title: 'Включён',
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
            { title: 'Добавлен', dataIndex: 'created_at', width: 120, render: (d: string) => formatDate(d) },
            {
              title: '',
              key: 'actions',
              width: 200,
              render: (_: unknown, a) => (
                <Flex gap={4} justify="end">
                  {a.kind === 'domain' && (
                    <Button size="small" icon={<EyeOutlined />} onClick={() => setPreview(a)} data-testid="asset-preview">
                      Кандидаты
                    </Button>
                  )}
                  {canManage && (
                    <Popconfirm
                      title="Удалить актив?"
                      okText="Удалить"
                      cancelText="Отмена"
                      onConfirm={() => remove.mutateAsync(a.id)}
                    >
                      <Button size="small" danger icon={<DeleteOutlined />} aria-label="Удалить" />
                    </Popconfirm>
                  )}
                </Flex>
              ),
            },
          ]}
        />
      </Loaded>
      <Modal
        open={preview !== null}
        title={preview ? `Кандидаты для ${preview.unicode}` : ''}
        width={960}
        footer={null}
        onCancel={() => setPreview(null)}
        destroyOnHidden
      >
        {preview && <PreviewTable domain={preview.unicode} />}
      </Modal>
    </Card>
  );
}
