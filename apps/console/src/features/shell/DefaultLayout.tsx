import { SafetyOutlined } from '@ant-design/icons';
import { Link, Outlet, useLocation } from '@tanstack/react-router';
import { Layout, theme } from 'antd';
import { lazy, Suspense, useEffect, useState } from 'react';
import { loadFeedback } from '../../lib/feedback';
import { clearGlobalError, useGlobalError } from '../../lib/global-error';
import { local, STORAGE_KEYS } from '../../lib/storage';
// dayjs in Russian (antd date pickers, relative times) before any signed-in page renders; every other
// module that formats dates imports lib/format itself. Not in Providers: /login needs no dayjs (#16).
import '../../lib/format';
import { NotificationBell } from '../bell/NotificationBell';
import { CompanySelector } from '../company/CompanySelector';
import { HEADER_HEIGHT, SIDER_WIDTH } from './metrics';
import { SideMenu } from './SideMenu';
import { UserMenu } from './UserMenu';
import { PRODUCT_NAME } from './usePageTitle';

/* The full-page error (antd Result and its illustrations, ~9 KB) loads only when a page needs it (#16). */
const ErrorPage = lazy(() => import('../errors/ErrorPage').then((m) => ({ default: m.ErrorPage })));

/** Signed-in layout: collapsible side menu, header (company selector, user menu), page content. */
export function DefaultLayout() {
  const { token } = theme.useToken();
  const [collapsed, setCollapsed] = useState(() => local.get(STORAGE_KEYS.siderCollapsed) === '1');
  const globalError = useGlobalError();
  const locationKey = useLocation({ select: (l) => l.href });

  // Toasts and confirmations are used on every signed-in page: their host loads with the shell.
  useEffect(loadFeedback, []);

  // A full-page error from a 'global' request belongs to the page it happened on.
  useEffect(() => {
    void locationKey;
    clearGlobalError();
  }, [locationKey]);

  const onCollapse = (value: boolean, type: 'clickTrigger' | 'responsive') => {
    setCollapsed(value);
    // Only the user's own choice is remembered, not the automatic collapse on a narrow window.
    if (type === 'clickTrigger') local.set(STORAGE_KEYS.siderCollapsed, value ? '1' : '0');
  };

  return (
    <Layout style={{ minHeight: '100vh' }}>
      {/* The first Tab of every page: past the menu and the header, to the page itself (WCAG 2.4.1). */}
      <a href="#main" className="fp-skip-link">
        Перейти к содержимому
      </a>
      <Layout.Sider
        collapsible
        collapsed={collapsed}
        onCollapse={onCollapse}
        width={SIDER_WIDTH}
        breakpoint="lg"
        style={{ position: 'sticky', top: 0, height: '100vh', overflow: 'auto', insetInlineStart: 0 }}
      >
        <Link
          to="/"
          aria-label={`${PRODUCT_NAME} — на главную`}
          style={{
            display: 'flex',
            alignItems: 'center',
            gap: 10,
            height: HEADER_HEIGHT,
            paddingInline: collapsed ? 28 : 24,
            color: '#fff',
            fontSize: 18,
            fontWeight: 600,
            whiteSpace: 'nowrap',
            overflow: 'hidden',
          }}
        >
          <SafetyOutlined style={{ fontSize: 22, color: token.colorPrimary }} />
          {!collapsed && <span>{PRODUCT_NAME}</span>}
        </Link>
        <SideMenu collapsed={collapsed} />
      </Layout.Sider>
      <Layout>
        <Layout.Header
          style={{
            position: 'sticky',
            top: 0,
            zIndex: 10,
            display: 'flex',
            alignItems: 'center',
            gap: 16,
            height: HEADER_HEIGHT,
            paddingInline: 24,
            background: token.colorBgContainer,
            borderBottom: `1px solid ${token.colorBorderSecondary}`,
          }}
        >
          <CompanySelector />
          <div style={{ flex: 1 }} />
          <NotificationBell />
          <UserMenu />
        </Layout.Header>
        <Layout.Content id="main" tabIndex={-1} role="main" style={{ padding: 24, outline: 'none' }}>
          {globalError ? (
            <Suspense>
              <ErrorPage status={globalError.status} message={globalError.message} />
            </Suspense>
          ) : (
            <Outlet />
          )}
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
