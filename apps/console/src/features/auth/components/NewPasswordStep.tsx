import { LockOutlined } from '@ant-design/icons';
import { MSG } from '@forpost/contract/messages';
import { PASSWORD_MIN_LENGTH } from '@forpost/contract/validators';
import { useNavigate } from '@tanstack/react-router';
import { Alert, Button, Form, Input } from 'antd';
import { feedback } from '../../../lib/feedback';
import { useSetPasswordMutation } from '../api/mutations';
import { strongPasswordRule } from './shared';

interface Values {
  password: string;
  password_repeat: string;
}

/** /login?type=new-password&token=…: a new password → POST /auth/setpassword {token, password}. */
export function NewPasswordStep({ token }: { token?: string }) {
  const navigate = useNavigate();
  const { message } = feedback;
  const setPassword = useSetPasswordMutation();

  if (!token) {
    return (
      <>
        <Alert type="error" showIcon title="Ссылка для смены пароля недействительна или устарела" />
        <Button type="link" block style={{ marginTop: 16 }} onClick={() => navigate({ to: '/login' })}>
          Вернуться ко входу
        </Button>
      </>
    );
  }

  const onFinish = ({ password }: Values) =>
    setPassword.mutate(
      { token, password },
      {
        onSuccess: () => {
          message.success('Пароль изменён. Войдите с новым паролем');
          void navigate({ to: '/login', replace: true });
        },
      },
    );

  return (
    <Form<Values>
      layout="vertical"
      requiredMark={false}
      onFinish={onFinish}
      onFinishFailed={() => message.error(MSG.fillRequired)}
      disabled={setPassword.isPending}
    >
      <Form.Item
        name="password"
        label="Новый пароль"
        extra={`Не короче ${PASSWORD_MIN_LENGTH} символов: строчные и заглавные буквы, цифра и спецсимвол`}
        rules={[{ required: true, message: MSG.required }, strongPasswordRule]}
      >
        <Input.Password prefix={<LockOutlined />} autoComplete="new-password" autoFocus size="large" />
      </Form.Item>
      <Form.Item
        name="password_repeat"
        label="Повторите пароль"
        dependencies={['password']}
        validateTrigger="onBlur"
        rules={[
          { required: true, message: MSG.required },
          ({ getFieldValue }) => ({
            validator: (_, value: unknown) =>
              !value || value === getFieldValue('password') ? Promise.resolve() : Promise.reject(new Error(MSG.passwordsDiffer)),
          }),
        ]}
      >
        <Input.Password prefix={<LockOutlined />} autoComplete="new-password" size="large" />
      </Form.Item>
      <Button type="primary" htmlType="submit" size="large" block loading={setPassword.isPending}>
        Сохранить пароль
      </Button>
      <Button type="link" block style={{ marginTop: 12 }} onClick={() => navigate({ to: '/login' })}>
        Вернуться ко входу
      </Button>
    </Form>
  );
}
