import { MSG } from '@forpost/contract/messages';
import { useNavigate } from '@tanstack/react-router';
import { Alert, Button, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { feedback } from '../../../lib/feedback';
import { internalTarget } from '../../../lib/navigation';
import { forgetLoginEmail, rememberedLoginEmail } from '../../../lib/session';
import { useTwoFactorMutation } from '../api/mutations';
import { signInErrorText } from './shared';

/** Step two: the one-time code → POST /auth/2fa {code}. */
export function TwoFactorStep({ redirect }: { redirect?: string }) {
  const navigate = useNavigate();
  const { message } = feedback;
  const verify = useTwoFactorMutation();
  const [error, setError] = useState<string | null>(null);
  const [recovery, setRecovery] = useState(false);
  const email = rememberedLoginEmail();

  const onFinish = ({ code, recovery_code }: { code?: string; recovery_code?: string }) => {
    setError(null);
    verify.mutate(recovery ? { recovery_code: recovery_code?.trim() ?? '' } : { code: code ?? '' }, {
      onSuccess: () => {
        forgetLoginEmail();
        void navigate({ href: internalTarget(redirect, (t) => message.warning(t)), replace: true });
      },
      onError: (e) => setError(signInErrorText(e)),
    });
  };

  return (
    <Form<{ code?: string; recovery_code?: string }>
      layout="vertical"
      requiredMark={false}
      onFinish={onFinish}
      onFinishFailed={() => message.error(MSG.fillRequired)}
      disabled={verify.isPending}
    >
      <Typography.Paragraph type="secondary">
        {recovery
          ? 'Введите один из резервных кодов, полученных при подключении двухфакторной аутентификации'
          : 'Введите шестизначный код из приложения-аутентификатора'}
        {email ? (
          <>
            {' '}
            для <Typography.Text strong>{email}</Typography.Text>
          </>
        ) : null}
        .
      </Typography.Paragraph>
      {recovery ? (
        <Form.Item
          name="recovery_code"
          label="Резервный код"
          rules={[
            { required: true, whitespace: true, message: MSG.required },
            { min: 6, max: 20, message: 'Резервный код — от 6 до 20 символов' },
          ]}
        >
          <Input size="large" autoComplete="one-time-code" autoFocus />
        </Form.Item>
      ) : (
        <Form.Item
          name="code"
          label="Код подтверждения"
          rules={[
            { required: true, message: MSG.required },
            { pattern: /^\d{6}$/, message: 'Код должен состоять из 6 цифр' },
          ]}
        >
          <Input.OTP length={6} size="large" autoFocus />
        </Form.Item>
      )}
      <Button type="primary" htmlType="submit" size="large" block loading={verify.isPending}>
        Подтвердить
      </Button>
      <div style={{ display: 'flex', justifyContent: 'space-between', marginTop: 12 }}>
        <Button
          type="link"
          style={{ paddingInline: 0 }}
          onClick={() => {
            setError(null);
            setRecovery((r) => !r);
          }}
        >
          {recovery ? 'Ввести код из приложения' : 'Использовать резервный код'}
        </Button>
        <Button type="link" style={{ paddingInline: 0 }} onClick={() => navigate({ to: '/login', search: { redirect } })}>
          Войти заново
        </Button>
      </div>
      {error && <Alert type="error" showIcon title={error} data-testid="login-error" style={{ marginTop: 8 }} />}
    </Form>
  );
}
