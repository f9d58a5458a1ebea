import { EditOutlined } from '@ant-design/icons';
import { leakTypePatchRequest } from '@forpost/contract/events-extras';
import { Button, Card, Form, Input, Tooltip, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { FormModal, useFormModal } from '../../../components/form/FormModal';
import { zodRule } from '../../../components/form/forms';
import { NameField } from '../../../components/form/NameField';
import { AdminTable } from '../../../components/list/AdminTable';
import type { SearchPatch } from '../../../components/list/listSearch';
import { PageHeading } from '../../../components/page/PageHeading';
import { EmptyState } from '../../../components/page/QueryState';
import { feedback } from '../../../lib/feedback';
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
        <AdminTable<LeakType, QSearch>
          query={list}
          search={search}
          onSearch={onSearch}
          data-testid="leak-types-table"
          empty={(filtered) => <EmptyState text={filtered ? 'Ничего не нашлось' : 'Типов утечек нет'} />}
          columns={[
            {
              title: 'Название',
              filter: { kind: 'text', key: 'q', placeholder: 'Название типа' },
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
  const { message } = feedback;
  const { form, formError, reset, submit } = useFormModal<Values>();
  const save = useSaveLeakTypeMutation();

  useEffect(() => {
    if (type) reset({ name: type.name, description: type.description ?? '' });
  }, [type, reset]);

  const onOk = () =>
    submit(
      async (v) => {
        if (!type) return;
        await save.mutateAsync({ id: type.id, body: { name: v.name.trim(), description: v.description?.trim() || null } });
        message.success('Тип утечки сохранён');
        onClose();
      },
      ['name', 'description'],
    );

  return (
    <FormModal<Values>
      open={type !== null}
      title={`Тип утечки «${type?.name ?? ''}»`}
      isNew={false}
      saving={save.isPending}
      width={520}
      form={form}
      formError={formError}
      onOk={() => void onOk()}
      onClose={onClose}
    >
      <NameField schema={S.name} maxLength={100} />
      <Form.Item name="description" label="Описание" rules={[zodRule(S.description)]}>
        <Input.TextArea rows={3} maxLength={1000} showCount />
      </Form.Item>
    </FormModal>
  );
}
