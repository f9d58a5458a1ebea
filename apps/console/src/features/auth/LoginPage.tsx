import { MailOutlined, SafetyOutlined } from '@ant-design/icons';
import { Card, Space, Typography } from 'antd';
import { useState } from 'react';
import { BlankLayout } from '../shell/BlankLayout';
import { PRODUCT_NAME, usePageTitle } from '../shell/usePageTitle';
import { CredentialsStep } from './components/CredentialsStep';
import { NewPasswordStep } from './components/NewPasswordStep';
import { ResetPasswordStep } from './components/ResetPasswordStep';
import { TwoFactorStep } from './components/TwoFactorStep';
import type { LoginSearch } from './loginSearch';

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

  return (
    <BlankLayout>
      <Card style={{ width: '100%', maxWidth: 420, boxShadow: '0 8px 24px rgba(15, 27, 61, 0.08)' }}>
        <Space orientation="vertical" size={4} style={{ width: '100%', textAlign: 'center', marginBottom: 24 }}>
          <SafetyOutlined style={{ fontSize: 40, color: '#2f54eb' }} />
          <Typography.Title level={2} style={{ margin: 0 }}>
            {PRODUCT_NAME}
          </Typography.Title>
          <Typography.Text type="secondary" data-testid="login-step">
            {SUBTITLES[step]}
          </Typography.Text>
        </Space>
        {step === 'credentials' && <CredentialsStep redirect={search.redirect} onForgotPassword={() => setResetMode(true)} />}
        {step === 'reset' && <ResetPasswordStep onBack={() => setResetMode(false)} />}
        {step === '2fa' && <TwoFactorStep redirect={search.redirect} />}
        {step === 'new-password' && <NewPasswordStep token={search.token} />}
      </Card>
      <Typography.Text type="secondary" style={{ marginTop: 24, fontSize: 12 }}>
        <MailOutlined /> Вопросы о доступе — к администратору вашей компании
      </Typography.Text>
    </BlankLayout>
  );
}
