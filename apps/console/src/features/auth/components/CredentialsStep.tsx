import { LockOutlined, MailOutlined } from '@ant-design/icons';
import { MSG } from '@forpost/contract/messages';
import { useNavigate } from '@tanstack/react-router';
import { Alert, App, Button, Form, Input } from 'antd';
import { useState } from 'react';
import { internalTarget } from '../../../lib/navigation';
import { forgetLoginEmail, rememberedLoginEmail, rememberLoginEmail } from '../../../lib/session';
import { useLoginMutation } from '../api/mutations';
import { emailRule, requiredRule, signInErrorText } from './shared';

interface Values {
  email: string;
  password: string;
}

/** Step one: email + password → POST /auth/login. */
export function CredentialsStep({ redirect, onForgotPassword }: { redirect?: string; onForgotPassword: () => void }) {
  const [form] = Form.useForm<Values>();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const login = useLoginMutation();
  const [error, setError] = useState<string | null>(null);

  const onFinish = (values: Values) => {
    setError(null);
    const email = values.email.trim();
    login.mutate(
      { email, password: values.password },
      {
        onSuccess: (res) => {
          if (res['2fa_success']) {
            forgetLoginEmail();
            void navigate({ href: internalTarget(redirect, (t) => message.warning(t)), replace: true });
          } else {
            rememberLoginEmail(email);
            void navigate({ to: '/login', search: { type: '2fa', redirect } });
          }
        },
        onError: (e) => setError(signInErrorText(e)),
      },
    );
  };

  return (
    <Form<Values>
      form={form}
      layout="vertical"
      requiredMark={false}
      initialValues={{ email: rememberedLoginEmail() ?? '' }}
      onFinish={onFinish}
      onFinishFailed={() => message.error(MSG.fillRequired)}
      onValuesChange={() => error && setError(null)}
      disabled={login.isPending}
    >
      <Form.Item name="email" label="Email" rules={[requiredRule, emailRule]}>
        <Input prefix={<MailOutlined />} autoComplete="username" inputMode="email" autoFocus size="large" />
      </Form.Item>
      <Form.Item name="password" label="Пароль" rules={[{ required: true, message: MSG.required }]}>
        <Input.Password prefix={<LockOutlined />} autoComplete="current-password" size="large" />
      </Form.Item>
      <Button type="primary" htmlType="submit" size="large" block loading={login.isPending}>
        Войти
      </Button>
      <div style={{ textAlign: 'center', marginTop: 12 }}>
        <Button type="link" onClick={onForgotPassword}>
          Забыли пароль?
        </Button>
      </div>
      {error && <Alert type="error" showIcon title={error} data-testid="login-error" style={{ marginTop: 8 }} />}
    </Form>
  );
}
