import { QueryClientProvider } from '@tanstack/react-query';
import { ConfigProvider, theme } from 'antd';
import ruRU from 'antd/locale/ru_RU';
import { type ComponentType, lazy, type ReactNode, Suspense, useEffect, useMemo, useSyncExternalStore } from 'react';
import { prefersReducedMotion, useDarkMode } from './features/views/theme';
import { feedbackWanted, onFeedbackWanted } from './lib/feedback';
import { FONT_FAMILY } from './lib/font';
import { queryClient } from './lib/query-client';
import { readableTheme } from './lib/readable-theme';

const THEME = {
  token: {
    colorPrimary: '#2f54eb',
    colorInfo: '#2f54eb',
    colorLink: '#2f54eb',
    borderRadius: 6,
    fontFamily: FONT_FAMILY,
  },
  components: {
    Layout: { siderBg: '#0f1b3d', triggerBg: '#0b1530', headerHeight: 64 },
    Menu: { darkItemBg: '#0f1b3d', darkSubMenuItemBg: '#0b1530' },
  },
};

/**
 * Read once, when the console loads: switching antd's motion off remounts everything under the
 * provider (open dialogs and typed text would be lost), so a change of the system setting applies on
 * the next load.
 */
const REDUCED_MOTION = prefersReducedMotion();

/** The message/notification/modal host (lib/feedback): its own chunk, mounted once asked for. */
const NO_HOST: { default: ComponentType } = { default: () => null };
const FeedbackHost = lazy(
  (): Promise<{ default: ComponentType }> =>
    import('./features/shell/FeedbackHost')
      // A chunk gone after a deploy resolves to nothing once version-check has reloaded the page;
      // without the network it fails: either way the calls stay queued and nothing breaks the page.
      .then((m: { default?: ComponentType } | undefined) => (m?.default ? { default: m.default } : NO_HOST))
      .catch(() => NO_HOST),
);

function FeedbackSlot() {
  const wanted = useSyncExternalStore(onFeedbackWanted, feedbackWanted);
  return wanted ? (
    <Suspense fallback={null}>
      <FeedbackHost />
    </Suspense>
  ) : null;
}

/** The text colour, size and font of the theme for everything inside (what antd's App wrapper set). */
function AppFrame({ children }: { children: ReactNode }) {
  const { token } = theme.useToken();
  return (
    <div style={{ color: token.colorText, fontSize: token.fontSize, lineHeight: token.lineHeight, fontFamily: token.fontFamily }}>
      {children}
    </div>
  );
}

/** antd (ru_RU, theme) + the feedback host + TanStack Query. */
export function Providers({ children }: { children: ReactNode }) {
  // The user's theme (light, dark, the system's): antd's algorithm recolours every token.
  const dark = useDarkMode();
  // (readableTheme: the same algorithm, with the greys, the danger red and the tag text shades of WCAG AA)
  const themeConfig = useMemo(() => {
    const t = readableTheme(THEME, dark);
    // Less motion when the system asks for it: antd's opening animations are off.
    return REDUCED_MOTION ? { ...t, token: { ...t.token, motion: false } } : t;
  }, [dark]);
  useEffect(() => {
    document.documentElement.style.colorScheme = dark ? 'dark' : 'light';
  }, [dark]);
  return (
    <ConfigProvider locale={ruRU} theme={themeConfig}>
      <AppFrame>
        <FeedbackSlot />
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </AppFrame>
    </ConfigProvider>
  );
}
