import { ERROR_TOAST_MS, ERROR_TOAST_OFFSET, NOTIFICATION_MS } from '@forpost/contract/http-constants';
import { QueryClientProvider } from '@tanstack/react-query';
import { App, ConfigProvider } from 'antd';
import ruRU from 'antd/locale/ru_RU';
import { type ReactNode, useEffect, useMemo } from 'react';
import { NotifyBridge } from './features/shell/NotifyBridge';
import { useDarkMode, useReducedMotion } from './features/views/theme';
import { queryClient } from './lib/query-client';
import { readableTheme } from './lib/readable-theme';

const THEME = {
  token: {
    colorPrimary: '#2f54eb',
    colorInfo: '#2f54eb',
    colorLink: '#2f54eb',
    borderRadius: 6,
    fontFamily: "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', sans-serif",
  },
  components: {
    Layout: { siderBg: '#0f1b3d', triggerBg: '#0b1530', headerHeight: 64 },
    Menu: { darkItemBg: '#0f1b3d', darkSubMenuItemBg: '#0b1530' },
  },
};

/** antd (ru_RU, theme, App context for message/notification) + TanStack Query. */
export function Providers({ children }: { children: ReactNode }) {
  // The user's theme (light, dark, the system's): antd's algorithm recolours every token.
  const dark = useDarkMode();
  // (readableTheme: the same algorithm, with the greys, the danger red and the tag text shades of WCAG AA)
  const reducedMotion = useReducedMotion();
  const themeConfig = useMemo(() => {
    const t = readableTheme(THEME, dark);
    // Less motion when the system asks for it: antd's opening animations are off.
    return reducedMotion ? { ...t, token: { ...t.token, motion: false } } : t;
  }, [dark, reducedMotion]);
  useEffect(() => {
    document.documentElement.style.colorScheme = dark ? 'dark' : 'light';
  }, [dark]);
  return (
    <ConfigProvider locale={ruRU} theme={themeConfig}>
      <App
        message={{ top: ERROR_TOAST_OFFSET, duration: ERROR_TOAST_MS / 1000, maxCount: 3 }}
        notification={{ duration: NOTIFICATION_MS / 1000, placement: 'topRight' }}
      >
        <NotifyBridge />
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </App>
    </ConfigProvider>
  );
}
