import { USER_ROLE_LABELS, type UserRole } from '@forpost/contract/permissions';
import { Card, Descriptions, Flex, Tag, Typography } from 'antd';
import { formatDate, formatDateTime } from '../../../lib/format';
import type { User } from '../api/queries';
import { USER_ROLE_HELP } from '../roles';

/** «Сведения» of an existing user: role, status, 2FA, activation, created, last sign-in. */
export function UserFacts({ user }: { user: User }) {
  return (
    <Card title="Сведения">
      <Descriptions
        column={1}
        size="small"
        items={[
          { key: 'role', label: 'Роль', children: USER_ROLE_LABELS[user.role] },
          {
            key: 'status',
            label: 'Статус',
            children: user.is_active ? <Tag color="green">Активен</Tag> : <Tag color="red">Отключён</Tag>,
          },
          {
            key: '2fa',
            label: '2FA',
            children: user.is_2fa_enabled ? <Tag color="green">Включена</Tag> : <Tag>Выключена</Tag>,
          },
          ...(user.pending_activation
            ? [{ key: 'pending', label: 'Активация', children: <Tag color="gold">Ждёт активации ключа</Tag> }]
            : []),
          { key: 'created', label: 'Создан', children: formatDate(user.created_at) },
          {
            key: 'login',
            label: 'Последний вход',
            children: user.last_login_at ? formatDateTime(user.last_login_at) : 'Не входил',
          },
        ]}
      />
    </Card>
  );
}

/** «Роли»: what each role the actor may give can do. */
export function RolesHelp({ roles }: { roles: readonly UserRole[] }) {
  return (
    <Card title="Роли" size="small">
      <Flex vertical gap={8}>
        {roles.map((r) => (
          <div key={r}>
            <Typography.Text strong>{USER_ROLE_LABELS[r]}</Typography.Text>
            <Typography.Paragraph type="secondary" style={{ margin: 0, fontSize: 13 }}>
              {USER_ROLE_HELP[r]}
            </Typography.Paragraph>
          </div>
        ))}
      </Flex>
    </Card>
  );
}
