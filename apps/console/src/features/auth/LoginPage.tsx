import { MailOutlined, SafetyOutlined } from '@ant-design/icons';
import { theme } from 'antd';
import { lazy, Suspense, useLayoutEffect, useState } from 'react';
import { BlankLayout } from '../shell/BlankLayout';
import { PRODUCT_NAME, usePageTitle } from '../shell/usePageTitle';
import { CredentialsStep } from './components/CredentialsStep';
import type { LoginSearch } from './loginSearch';
import { removeLoginShell } from './removeLoginShell';

/*
 * What /login shows first is the credentials step; the others (and antd Typography, which only they
 * use) load when reached. The frame is a plain box in the Card's colours: antd Card brings Tabs, Menu
 * and Dropdown with it (~20 KB of the sign-in page's budget, issue #16).
 */
const ResetPasswordStep = lazy(() => import('./components/ResetPasswordStep').then((m) => ({ default: m.ResetPasswordStep })));
const TwoFactorStep = lazy(() => import('./components/TwoFactorStep').then((m) => ({ default: m.TwoFactorStep })));
const NewPasswordStep = lazy(() => import('./components/NewPasswordStep').then((m) => ({ default: m.NewPasswordStep })));

type Step = 'credentials' | 'reset' | '2fa' | 'new-password';

const SUBTITLES: Record<Step, string> = {
  credentials: 'Вход в консоль',
  reset: 'Восстановление пароля',
  '2fa': 'Подтверждение входа',
  'new-password': 'Новый пароль',
};

/** /login: the credentials step, the 2FA code step, password reset and setting a new password. */
export function LoginPage({ search }: { search: LoginSearch }) {
  const [resetMode, setResetMode] = useState(false);
  const step: Step = search.type ?? (resetMode ? 'reset' : 'credentials');
  usePageTitle(SUBTITLES[step]);
  const { token } = theme.useToken();
  const secondary = { color: token.colorTextDescription, wordBreak: 'break-word' } as const;
  // The HTML picture of this page drawn before the scripts ran (loginShell.ts) leaves in the same frame.
  useLayoutEffect(removeLoginShell, []);

  return (
    <BlankLayout>
      <div
        style={{
          width: '100%',
          maxWidth: 420,
          boxSizing: 'border-box',
          position: 'relative',
          padding: token.paddingLG,
          color: token.colorText,
          fontSize: token.fontSize,
          lineHeight: token.lineHeight,
          background: token.colorBgContainer,
          border: `${token.lineWidth}px ${token.lineType} ${token.colorBorderSecondary}`,
          borderRadius: token.borderRadiusLG,
          boxShadow: '0 8px 24px rgba(15, 27, 61, 0.08)',
        }}
      >
        <div style={{ display: 'flex', flexDirection: 'column', gap: 4, width: '100%', textAlign: 'center', marginBottom: 24 }}>
          <div>
            <SafetyOutlined style={{ fontSize: 40, color: '#2f54eb' }} />
          </div>
          <h2
            style={{
              margin: 0,
              color: token.colorTextHeading,
              fontWeight: token.fontWeightStrong,
              fontSize: token.fontSizeHeading2,
              lineHeight: token.lineHeightHeading2,
              wordBreak: 'break-word',
            }}
          >
            {PRODUCT_NAME}
          </h2>
          <span style={secondary} data-testid="login-step">
            {SUBTITLES[step]}
          </span>
        </div>
        {step === 'credentials' && <CredentialsStep redirect={search.redirect} onForgotPassword={() => setResetMode(true)} />}
        <Suspense>
          {step === 'reset' && <ResetPasswordStep onBack={() => setResetMode(false)} />}
          {step === '2fa' && <TwoFactorStep redirect={search.redirect} />}
          {step === 'new-password' && <NewPasswordStep token={search.token} />}
        </Suspense>
      </div>
      <span style={{ ...secondary, marginTop: 24, fontSize: 12 }}>
        <MailOutlined /> Вопросы о доступе — к администратору вашей компании
      </span>
    </BlankLayout>
  );
}
