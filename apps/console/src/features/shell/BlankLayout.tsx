import type { ReactNode } from 'react';

/** Blank layout (login, product key activation, API docs): no menu, content centred. */
export function BlankLayout({ children, centered = true }: { children: ReactNode; centered?: boolean }) {
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
        background: 'linear-gradient(160deg, #eef2fb 0%, #f5f7fa 60%)',
      }}
    >
      {children}
    </div>
  );
}
