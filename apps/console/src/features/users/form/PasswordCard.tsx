import { Card, Form, Radio, Typography } from 'antd';

/** «Пароль» of a new user: send an invitation, or generate a password shown once. */
export function PasswordCard({ mode }: { mode: 'invite' | 'generate' | undefined }) {
  return (
    <Card title="Пароль">
      <Form.Item name="password_mode" style={{ marginBottom: 0 }}>
        <Radio.Group
          options={[
            { value: 'invite', label: 'Отправить приглашение' },
            { value: 'generate', label: 'Сгенерировать пароль' },
          ]}
        />
      </Form.Item>
      <Typography.Paragraph type="secondary" style={{ margin: '8px 0 0' }}>
        {mode === 'generate'
          ? 'Пароль будет показан один раз после создания — передайте его пользователю по защищённому каналу.'
          : 'Пользователь получит письмо со ссылкой для установки пароля (ссылка действует 7 дней).'}
      </Typography.Paragraph>
    </Card>
  );
}
