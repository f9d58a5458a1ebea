import { DeleteOutlined, UserAddOutlined } from '@ant-design/icons';
import { MSG } from '@forpost/contract/messages';
import { COMPANY_ROLE_LABELS, type CompanyRole } from '@forpost/contract/permissions';
import { Link } from '@tanstack/react-router';
import { Button, Card, Form, Modal, Popconfirm, Select, Table, Typography } from 'antd';
import { useState } from 'react';
import { EmptyState } from '../../../components/page/QueryState';
import { feedback } from '../../../lib/feedback';
import { errorMessage } from '../../../lib/http';
import { useDebounced } from '../../../lib/useDebounced';
import { useCan } from '../../auth/useMe';
import { useUsersQuery } from '../../users/api/queries';
import { companyRoleOptions } from '../../users/roles';
import { useUpdateCompanyMutation } from '../api/mutations';
import type { CompanyDetail } from '../api/queries';

type Member = CompanyDetail['members'][number];

/** «Добавить участника»: a company user (searched by name or email) and a company role. */
function AddMemberModal({ open, company, onClose }: { open: boolean; company: CompanyDetail; onClose: () => void }) {
  const { message } = feedback;
  const [form] = Form.useForm<{ user_id: number; role: CompanyRole }>();
  const [q, setQ] = useState('');
  const query = useDebounced(q, 300);
  const users = useUsersQuery({ page: 1, page_size: 20, role: 'COMPANY_USER', q: query || undefined }, open);
  const update = useUpdateCompanyMutation(company.id);
  const taken = new Set(company.members.map((m) => m.user_id));

  const submit = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    update.mutate(
      { members: [...company.members.map((m) => ({ user_id: m.user_id, role: m.role })), { user_id: v.user_id, role: v.role }] },
      {
        onSuccess: () => {
          message.success('Участник добавлен');
          form.resetFields();
          onClose();
        },
        onError: (e) => message.error(errorMessage(e)),
      },
    );
  };

  return (
    <Modal
      open={open}
      title="Добавить участника"
      okText="Добавить"
      cancelText="Отмена"
      onOk={() => void submit()}
      okButtonProps={{ loading: update.isPending }}
      onCancel={onClose}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">
        Участниками бывают только пользователи компаний: сотрудники и так видят все компании. Нового пользователя можно создать в
        разделе{' '}
        <Link to="/users/{-$id}/edit" params={{ id: undefined }}>
          «Пользователи»
        </Link>
        .
      </Typography.Paragraph>
      <Form form={form} layout="vertical" initialValues={{ role: 'COMPANY_VIEWER' }}>
        <Form.Item name="user_id" label="Пользователь" rules={[{ required: true, message: MSG.required }]}>
          <Select
            showSearch={{ filterOption: false, onSearch: setQ }}
            placeholder="Начните вводить имя или email"
            loading={users.isFetching}
            notFoundContent={users.isFetching ? 'Поиск…' : 'Никого не нашлось'}
            options={(users.data?.items ?? []).map((u) => ({
              value: u.id,
              label: `${u.name} · ${u.email}`,
              disabled: taken.has(u.id),
            }))}
            aria-label="Пользователь"
          />
        </Form.Item>
        <Form.Item name="role" label="Роль в компании" rules={[{ required: true, message: MSG.required }]}>
          <Select options={companyRoleOptions} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** The company's members (company users) with their company roles: add, change role, remove. */
export function MembersCard({ company }: { company: CompanyDetail }) {
  const { message } = feedback;
  const canEdit = useCan('companies.update', company.id);
  const update = useUpdateCompanyMutation(company.id);
  const [adding, setAdding] = useState(false);

  const save = (members: { user_id: number; role: CompanyRole }[], done: string) =>
    update.mutateAsync({ members }).then(
      () => {
        message.success(done);
      },
      (e: unknown) => {
        message.error(errorMessage(e));
      },
    );
  const rest = (userId: number) =>
    company.members.filter((m) => m.user_id !== userId).map((m) => ({ user_id: m.user_id, role: m.role }));

  return (
    <Card
      title={`Участники (${company.members.length})`}
      extra={
        canEdit && (
          <Button icon={<UserAddOutlined />} onClick={() => setAdding(true)}>
            Добавить участника
          </Button>
        )
      }
    >
      <Table<Member>
        rowKey="user_id"
        dataSource={company.members}
        pagination={company.members.length > 20 ? { pageSize: 20 } : false}
        loading={update.isPending}
        locale={{ emptyText: <EmptyState text={'В компании пока нет пользователей'} /> }}
        data-testid="members-table"
        columns={[
          {
            title: 'Пользователь',
            dataIndex: 'name',
            render: (_, m) => (
              <Link to="/users/{-$id}/edit" params={{ id: String(m.user_id) }}>
                {m.name}
              </Link>
            ),
          },
          { title: 'Email', dataIndex: 'email' },
          {
            title: 'Роль в компании',
            dataIndex: 'role',
            width: 260,
            render: (role: CompanyRole, m) =>
              canEdit ? (
                <Select
                  value={role}
                  options={companyRoleOptions}
                  style={{ width: 240 }}
                  onChange={(r) => void save([...rest(m.user_id), { user_id: m.user_id, role: r }], 'Роль изменена')}
                  aria-label={`Роль ${m.name}`}
                />
              ) : (
                COMPANY_ROLE_LABELS[role]
              ),
          },
          {
            title: '',
            key: 'actions',
            width: 60,
            align: 'right',
            render: (_, m) =>
              canEdit && (
                <Popconfirm
                  title={`Убрать ${m.name} из компании?`}
                  description="Пользователь потеряет доступ к данным компании."
                  okText="Убрать"
                  okButtonProps={{ danger: true }}
                  cancelText="Отмена"
                  onConfirm={() => save(rest(m.user_id), 'Участник убран')}
                >
                  <Button type="text" danger icon={<DeleteOutlined />} aria-label={`Убрать ${m.name}`} />
                </Popconfirm>
              ),
          },
        ]}
      />
      <AddMemberModal open={adding} company={company} onClose={() => setAdding(false)} />
    </Card>
  );
}
