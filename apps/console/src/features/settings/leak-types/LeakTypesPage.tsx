import { EditOutlined } from '@ant-design/icons';
import { leakTypePatchRequest } from '@forpost/contract/events-extras';
import { MSG } from '@forpost/contract/messages';
import { Alert, App, Button, Card, Form, Input, Modal, Table, Tooltip, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { applyApiErrors, zodRule } from '../../../components/form/forms';
import { FilterBar } from '../../../components/list/FilterBar';
import type { SearchPatch } from '../../../components/list/listSearch';
import { SearchInput } from '../../../components/list/SearchInput';
import { PageHeading } from '../../../components/page/PageHeading';
import { EmptyState, Loaded } from '../../../components/page/QueryState';
import { useCan } from '../../auth/useMe';
import { useSaveLeakTypeMutation } from '../api/mutations';
import { type LeakType, useLeakTypesQuery } from '../api/queries';
import type { QSearch } from '../search';

/** /settings/leaks-types: the seeded leak types; their names and descriptions can be edited. */
export function LeakTypesPage({ search, onSearch }: { search: QSearch; onSearch: (p: SearchPatch<QSearch>) => void }) {
  const canManage = useCan('settings.manage');
  const list = useLeakTypesQuery(search.q);
  const [editing, setEditing] = useState<LeakType | null>(null);

  return (
    <>
      <PageHeading
        title="Типы утечек"
        subtitle="Набор типов задан системой (по ним работают импорт и фильтры): здесь меняются их названия и описания"
      />
      <Card>
        <FilterBar>
          <SearchInput value={search.q} onSearch={(q) => onSearch({ q })} placeholder="Название типа" />
        </FilterBar>
        <Loaded query={list}>
          <Table<LeakType>
            rowKey="id"
            loading={list.isFetching}
            dataSource={list.data?.items ?? []}
            data-testid="leak-types-table"
            pagination={false}
            locale={{ emptyText: <EmptyState text={search.q ? 'Ничего не нашлось' : 'Типов утечек нет'} /> }}
            columns={[
              {
                title: 'Название',
                dataIndex: 'name',
                width: 280,
                render: (n: string) => <Typography.Text strong>{n}</Typography.Text>,
              },
              {
                title: 'Описание',
                dataIndex: 'description',
                render: (d: string | null) => d ?? <Typography.Text type="secondary">—</Typography.Text>,
              },
              {
                title: 'Код',
                dataIndex: 'code',
                width: 200,
                render: (c: string) => (
                  <Typography.Text type="secondary" code>
                    {c}
                  </Typography.Text>
                ),
              },
              ...(canManage
                ? [
                    {
                      title: '',
                      key: 'actions',
                      width: 64,
                      render: (_: unknown, t: LeakType) => (
                        <Tooltip title="Изменить">
                          <Button
                            type="text"
                            icon={<EditOutlined />}
                            aria-label={`Изменить «${t.name}»`}
                            onClick={() => setEditing(t)}
                          />
                        </Tooltip>
                      ),
                    },
                  ]
                : []),
            ]}
          />
        </Loaded>
      </Card>
      <LeakTypeModal type={editing} onClose={() => setEditing(null)} />
    </>
  );
}

interface Values {
  name: string;
  description?: string;
}
const S = leakTypePatchRequest.shape;

function LeakTypeModal({ type, onClose }: { type: LeakType | null; onClose: () => void }) {
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const save = useSaveLeakTypeMutation();
  const [formError, setFormError] = useState<string | null>(null);

  useEffect(() => {
    if (!type) return;
    setFormError(null);
    form.setFieldsValue({ name: type.name, description: type.description ?? '' });
  }, [type, form]);

  const onOk = async () => {
    if (!type) return;
    setFormError(null);
    let v: Values;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    try {
      await save.mutateAsync({ id: type.id, body: { name: v.name.trim(), description: v.description?.trim() || null } });
      message.success('Тип утечки сохранён');
      onClose();
    } catch (e) {
      setFormError(applyApiErrors(form, e, ['name', 'description']));
    }
  };

  return (
    <Modal
      open={type !== null}
      title={`Тип утечки «${type?.name ?? ''}»`}
      okText="Сохранить"
      cancelText="Отмена"
      onOk={() => void onOk()}
      confirmLoading={save.isPending}
      onCancel={onClose}
      destroyOnHidden
      forceRender
    >
      <Form<Values> form={form} layout="vertical" requiredMark="optional">
        {formError && <Alert type="error" showIcon title={formError} style={{ marginBottom: 16 }} />}
        <Form.Item
          name="name"
          label="Название"
          rules={[{ required: true, whitespace: true, message: MSG.required }, zodRule(S.name)]}
          validateTrigger={['onChange', 'onBlur']}
        >
          <Input autoFocus maxLength={100} showCount />
        </Form.Item>
        <Form.Item name="description" label="Описание" rules={[zodRule(S.description)]}>
          <Input.TextArea rows={3} maxLength={1000} showCount />
        </Form.Item>
      </Form>
    </Modal>
  );
}
