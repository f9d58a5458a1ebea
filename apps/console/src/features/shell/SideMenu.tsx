import { Link, useLocation } from '@tanstack/react-router';
import type { MenuProps } from 'antd';
import { Menu } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { usePrincipal } from '../auth/useMe';
import { NAV_GROUPS, type NavGroupKey, type NavItem, navItemForPath, visibleNavItems } from './nav';

type MenuItem = Required<MenuProps>['items'][number];

function itemNode(item: NavItem): MenuItem {
  const Icon = item.icon;
  // Nav paths are concrete URLs ('/domains'), not route ids ('/$section'): the typed `to` can't express them.
  return {
    key: item.path,
    icon: <Icon />,
    label: (
      <Link to={item.path as '/'} data-testid={`nav-${item.path}`}>
        {item.label}
      </Link>
    ),
  };
}

/** Side menu built from nav.ts, showing only what the user may open. */
export function SideMenu({ collapsed }: { collapsed: boolean }) {
  const principal = usePrincipal();
  const pathname = useLocation({ select: (l) => l.pathname });

  const items = useMemo<MenuItem[]>(() => {
    const visible = visibleNavItems(principal);
    const out: MenuItem[] = visible.filter((i) => i.group === null).map(itemNode);
    for (const group of NAV_GROUPS) {
      const children = visible.filter((i) => i.group === group.key).map(itemNode);
      if (children.length === 0) continue;
      const Icon = group.icon;
      out.push({ key: `group:${group.key}`, icon: <Icon />, label: group.label, children });
    }
    return out;
  }, [principal]);

  const current = navItemForPath(pathname);
  const currentGroup: NavGroupKey | null = current?.group ?? null;
  const [openKeys, setOpenKeys] = useState<string[]>(() => (currentGroup ? [`group:${currentGroup}`] : []));

  // Navigating into a group opens it (other open groups stay as the user left them).
  useEffect(() => {
    if (!currentGroup) return;
    const key = `group:${currentGroup}`;
    setOpenKeys((keys) => (keys.includes(key) ? keys : [...keys, key]));
  }, [currentGroup]);

  return (
    <Menu
      theme="dark"
      mode="inline"
      items={items}
      selectedKeys={current ? [current.path] : []}
      {...(collapsed ? {} : { openKeys, onOpenChange: setOpenKeys })}
      style={{ borderInlineEnd: 0 }}
    />
  );
}
