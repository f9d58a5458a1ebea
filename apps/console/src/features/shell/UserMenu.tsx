import { CheckOutlined, DownOutlined, LogoutOutlined, UserOutlined } from '@ant-design/icons';
import { THEME_LABELS, THEMES, type ThemePreference } from '@forpost/contract/enums';
import { USER_ROLE_LABELS } from '@forpost/contract/permissions';
import { useNavigate } from '@tanstack/react-router';
import type { MenuProps } from 'antd';
import { Avatar, Button, Dropdown, Space, Typography } from 'antd';
import { useState } from 'react';
import { useLogoutMutation } from '../auth/api/mutations';
import { useMe } from '../auth/useMe';
import { useThemeSetting } from '../views/theme';

/** Header user menu: name (+avatar), «Профиль», «Выйти». */
export function UserMenu() {
  const me = useMe();
  const navigate = useNavigate();
  const logout = useLogoutMutation();
  const [themePref, setThemePref] = useThemeSetting();
  const [open, setOpen] = useState(false);

  const items: MenuProps['items'] = [
    {
      key: 'who',
      type: 'group',
      label: (
        <div style={{ maxWidth: 260 }}>
          <Typography.Text ellipsis style={{ display: 'block' }}>
            {me.email}
          </Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {USER_ROLE_LABELS[me.role] ?? me.role}
          </Typography.Text>
        </div>
      ),
    },
    { type: 'divider' },
    { key: 'profile', icon: <UserOutlined />, label: 'Профиль' },
    {
      key: 'theme',
      type: 'group',
      label: 'Тема',
      children: THEMES.map((t) => ({
        key: `theme:${t}`,
        label: THEME_LABELS[t],
        icon: <CheckOutlined style={{ visibility: t === themePref ? 'visible' : 'hidden' }} />,
        'data-testid': `theme-${t}`,
      })),
    },
    { type: 'divider' },
    { key: 'logout', icon: <LogoutOutlined />, label: 'Выйти', danger: true, disabled: logout.isPending },
  ];

  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (key === 'profile') void navigate({ to: '/profile' });
    if (key.startsWith('theme:')) setThemePref(key.slice(6) as ThemePreference);
    if (key === 'logout') logout.mutate();
  };

  return (
    <Dropdown menu={{ items, onClick }} trigger={['click']} placement="bottomRight" open={open} onOpenChange={setOpen}>
      <Button
        type="text"
        data-testid="user-menu"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-label={`Меню пользователя ${me.name || me.email}`}
        style={{ height: 48, paddingInline: 8 }}
      >
        <Space size={8} aria-hidden>
          <Avatar size={32} src={me.avatar_url || undefined} icon={me.avatar_url ? undefined : <UserOutlined />} />
          <span style={{ maxWidth: 220, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
            {me.name || me.email}
          </span>
          <DownOutlined style={{ fontSize: 10 }} />
        </Space>
      </Button>
    </Dropdown>
  );
}
