import { MailOutlined } from '@ant-design/icons';
import { IDENTITY_MSG, MSG } from '@forpost/contract/messages';
import { Alert, Button, Form, Input, Typography } from 'antd';
import { feedback } from '../../../lib/feedback';
import { useResetPasswordMutation } from '../api/mutations';
import { emailRule, requiredRule } from './shared';

/** «Забыли пароль?»: email → POST /auth/resetpassword; the answer is neutral either way. */
export function ResetPasswordStep({ onBack }: { onBack: () => void }) {
  const { message } = feedback;
  const reset = useResetPasswordMutation();

  if (reset.isSuccess) {
    return (
      <>
        <Alert type="success" showIcon title={IDENTITY_MSG.resetSent} data-testid="reset-sent" />
        <Button type="link" block onClick={onBack} style={{ marginTop: 16 }}>
          Вернуться ко входу
        </Button>
      </>
    );
  }

  return (
    <Form<{ email: string }>
      layout="vertical"
      requiredMark={false}
      onFinish={({ email }) => reset.mutate({ email: email.trim() })}
      onFinishFailed={() => message.error(MSG.fillRequired)}
      disabled={reset.isPending}
    >
      <Typography.Paragraph type="secondary">
        Укажите email учётной записи — мы отправим ссылку для смены пароля.
      </Typography.Paragraph>
      <Form.Item name="email" label="Email" rules={[requiredRule, emailRule]}>
        <Input prefix={<MailOutlined />} autoComplete="username" inputMode="email" autoFocus size="large" />
      </Form.Item>
      <Button type="primary" htmlType="submit" size="large" block loading={reset.isPending}>
        Отправить ссылку
      </Button>
      <Button type="link" block onClick={onBack} style={{ marginTop: 12 }}>
        Вернуться ко входу
      </Button>
    </Form>
  );
}
