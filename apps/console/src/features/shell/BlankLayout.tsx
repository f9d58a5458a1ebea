import type { ReactNode } from 'react';
import { useDarkMode } from '../views/theme';

/** The page behind the box: a pale blue wash, or the menu's navy fading to black in the dark theme. */
const BACKGROUND = {
  light: 'linear-gradient(160deg, #eef2fb 0%, #f5f7fa 60%)',
  dark: 'linear-gradient(160deg, #0f1b3d 0%, #000 60%)',
};

/** Blank layout (login, product key activation, API docs): no menu, content centred. */
export function BlankLayout({ children, centered = true }: { children: ReactNode; centered?: boolean }) {
  const dark = useDarkMode();
  return (
    <div
      style={{
        minHeight: '100vh',
        display: 'flex',
        flexDirection: 'column',
        alignItems: centered ? 'center' : 'stretch',
        justifyContent: centered ? 'center' : 'flex-start',
        padding: 24,
        boxSizing: 'border-box',
        background: BACKGROUND[dark ? 'dark' : 'light'],
      }}
    >
      {children}
    </div>
  );
}
