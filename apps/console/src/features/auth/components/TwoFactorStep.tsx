import { MSG } from '@forpost/contract/messages';
import { useNavigate } from '@tanstack/react-router';
import { Alert, App, Button, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { forgetLoginEmail, rememberedLoginEmail, safeRedirect } from '../../../lib/session';
import { useTwoFactorMutation } from '../api/mutations';
import { signInErrorText } from './shared';

/** Step two: the one-time code → POST /auth/2fa {code}. */
export function TwoFactorStep({ redirect }: { redirect?: string }) {
  const navigate = useNavigate();
  const { message } = App.useApp();
  const verify = useTwoFactorMutation();
  const [error, setError] = useState<string | null>(null);
  const email = rememberedLoginEmail();

  const onFinish = ({ code }: { code: string }) => {
    setError(null);
    verify.mutate(
      { code },
      {
        onSuccess: () => {
          forgetLoginEmail();
          void navigate({ href: safeRedirect(redirect) ?? '/', replace: true });
        },
        onError: (e) => setError(signInErrorText(e)),
      },
    );
  };

  return (
    <Form<{ code: string }>
      layout="vertical"
      requiredMark={false}
      onFinish={onFinish}
      onFinishFailed={() => message.error(MSG.fillRequired)}
      disabled={verify.isPending}
    >
      <Typography.Paragraph type="secondary">
        Введите шестизначный код из приложения-аутентификатора
        {email ? (
          <>
            {' '}
            для <Typography.Text strong>{email}</Typography.Text>
          </>
        ) : null}
        .
      </Typography.Paragraph>
      <Form.Item
        name="code"
        label="Код подтверждения"
        rules={[
          { required: true, message: MSG.required },
          { pattern: /^\d{6}$/, message: 'Код состоит из 6 цифр' },
        ]}
      >
        <Input.OTP length={6} size="large" autoFocus />
      </Form.Item>
      <Button type="primary" htmlType="submit" size="large" block loading={verify.isPending}>
        Подтвердить
      </Button>
      <div style={{ textAlign: 'center', marginTop: 12 }}>
        <Button type="link" onClick={() => navigate({ to: '/login', search: { redirect } })}>
          Войти с другим email
        </Button>
      </div>
      {error && <Alert type="error" showIcon title={error} data-testid="login-error" style={{ marginTop: 8 }} />}
    </Form>
  );
}
