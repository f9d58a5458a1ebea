import { SafetyCertificateOutlined } from '@ant-design/icons';
import { MSG } from '@forpost/contract/messages';
import { Alert, Button, Card, Flex, Form, Input, Modal, Radio, Space, Switch, Tag, Typography } from 'antd';
import { useState } from 'react';
import { CopyButton } from '../../../components/CopyButton';
import { feedback } from '../../../lib/feedback';
import { errorMessage } from '../../../lib/http';
import { useMe } from '../../auth/useMe';
import {
  type TwoFactorSetup,
  useDisableTwoFactorMutation,
  useEnableTwoFactorMutation,
  useSetupTwoFactorMutation,
} from '../api/mutations';

const CODE_RULES = [
  { required: true, message: MSG.required },
  { pattern: /^\d{6}$/, message: 'Код должен состоять из 6 цифр' },
];

/** Step 2 of enabling: scan the QR (or type the secret), confirm with a code. */
function SetupPanel({
  setup,
  onCancel,
  onEnabled,
}: {
  setup: TwoFactorSetup;
  onCancel: () => void;
  onEnabled: (codes: string[]) => void;
}) {
  const enable = useEnableTwoFactorMutation();
  const [error, setError] = useState<string | null>(null);
  return (
    <Flex vertical gap={12} data-testid="twofa-setup">
      <Typography.Text>
        1. Отсканируйте QR-код приложением-аутентификатором (Google Authenticator, «Яндекс Ключ», FreeOTP и др.) или введите
        секрет вручную.
      </Typography.Text>
      <Flex gap={16} align="center" wrap>
        <img
          src={setup.qr_data_url}
          alt="QR-код для приложения-аутентификатора"
          width={168}
          height={168}
          style={{ border: '1px solid #f0f0f0', borderRadius: 6, background: '#fff' }}
        />
      </Flex>
      <Flex vertical gap={4}>
        <Typography.Text type="secondary">Секрет для ввода вручную</Typography.Text>
        <Flex gap={8} align="center" wrap>
          <Typography.Text code data-testid="totp-secret" style={{ fontSize: 14, letterSpacing: 0.5 }}>
            {setup.secret.match(/.{1,4}/g)?.join(' ') ?? setup.secret}
          </Typography.Text>
          <CopyButton text={setup.secret} size="small" />
        </Flex>
      </Flex>
      <Typography.Text>2. Введите шестизначный код из приложения.</Typography.Text>
      <Form<{ code: string }>
        layout="vertical"
        onFinish={({ code }) => {
          setError(null);
          enable.mutate(code, {
            onSuccess: (res) => onEnabled(res.recovery_codes),
            onError: (e) => {
              console.error('Включение 2FA не удалось', e);
              setError(errorMessage(e));
            },
          });
        }}
        disabled={enable.isPending}
      >
        <Form.Item name="code" rules={CODE_RULES} style={{ marginBottom: 12 }}>
          <Input.OTP length={6} aria-label="Код из приложения" data-testid="twofa-code" />
        </Form.Item>
        <Form.Item style={{ marginBottom: 0 }}>
          <Space>
            <Button type="primary" htmlType="submit" loading={enable.isPending}>
              Подтвердить
            </Button>
            <Button onClick={onCancel}>Отмена</Button>
          </Space>
        </Form.Item>
      </Form>
      {error && <Alert type="error" showIcon title={error} />}
    </Flex>
  );
}

/** The 10 recovery codes, shown once after enabling. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <Flex vertical gap={12} data-testid="recovery-codes">
      <Alert
        type="warning"
        showIcon
        title="Сохраните резервные коды"
        description="Каждый код позволяет войти один раз, если телефон недоступен. Коды показываются только сейчас — сохраните их в надёжном месте."
      />
      <div
        style={{
          display: 'grid',
          gridTemplateColumns: 'repeat(2, minmax(0, 1fr))',
          gap: '6px 16px',
          padding: 12,
          background: '#fafafa',
          borderRadius: 6,
          fontFamily: 'monospace',
          fontSize: 15,
        }}
      >
        {codes.map((c) => (
          <span key={c} data-testid="recovery-code">
            {c}
          </span>
        ))}
      </div>
      <Space>
        <CopyButton text={codes.join('\n')} label="Скопировать коды" />
        <Button type="primary" onClick={onDone}>
          Я сохранил коды
        </Button>
      </Space>
    </Flex>
  );
}

/** «Отключить 2FA?»: confirm with a current code or the password. */
function DisableModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { message } = feedback;
  const disable = useDisableTwoFactorMutation();
  const [form] = Form.useForm<{ by: 'code' | 'password'; code?: string; password?: string }>();
  const by = Form.useWatch('by', form) ?? 'code';
  const [error, setError] = useState<string | null>(null);

  const submit = async () => {
    let v: { by: 'code' | 'password'; code?: string; password?: string };
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    setError(null);
    disable.mutate(v.by === 'code' ? { code: v.code ?? '' } : { password: v.password ?? '' }, {
      onSuccess: () => {
        message.success('Двухфакторная аутентификация отключена');
        form.resetFields();
        onClose();
      },
      onError: (e) => {
        console.error('Отключение 2FA не удалось', e);
        setError(errorMessage(e));
      },
    });
  };

  return (
    <Modal
      open={open}
      title="Отключить двухфакторную аутентификацию?"
      okText="Отключить"
      okButtonProps={{ danger: true, loading: disable.isPending }}
      cancelText="Отмена"
      onOk={() => void submit()}
      onCancel={() => {
        setError(null);
        form.resetFields();
        onClose();
      }}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">
        Без второго фактора вход будет защищён только паролем. Подтвердите действие кодом из приложения или паролем.
      </Typography.Paragraph>
      <Form form={form} layout="vertical" initialValues={{ by: 'code' }} onFinish={() => void submit()}>
        <Form.Item name="by">
          <Radio.Group
            optionType="button"
            options={[
              { value: 'code', label: 'Код из приложения' },
              { value: 'password', label: 'Пароль' },
            ]}
            onChange={() => setError(null)}
          />
        </Form.Item>
        {by === 'code' ? (
          <Form.Item name="code" label="Код из приложения" rules={CODE_RULES}>
            <Input.OTP length={6} />
          </Form.Item>
        ) : (
          <Form.Item name="password" label="Текущий пароль" rules={[{ required: true, message: MSG.required }]}>
            <Input.Password autoComplete="current-password" />
          </Form.Item>
        )}
      </Form>
      {error && <Alert type="error" showIcon title={error} data-testid="twofa-disable-error" />}
    </Modal>
  );
}

/**
 * The profile's two-factor toggle. On: POST /me/2fa/setup (QR + secret) → code → POST
 * /me/2fa/enable → the recovery codes once. Off: a modal asking for a code or the password.
 */
export function TwoFactorCard() {
  const me = useMe();
  const setup = useSetupTwoFactorMutation();
  const [pending, setPending] = useState<TwoFactorSetup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [disableOpen, setDisableOpen] = useState(false);

  const enabled = me.is_2fa_enabled;
  const checked = enabled || pending !== null;

  const onToggle = (on: boolean) => {
    if (on) {
      setup.mutate(undefined, { onSuccess: (s) => setPending(s) });
    } else if (pending) {
      setPending(null);
    } else {
      setDisableOpen(true);
    }
  };

  return (
    <Card
      title={
        <Space>
          <SafetyCertificateOutlined />
          Двухфакторная аутентификация
        </Space>
      }
      extra={enabled ? <Tag color="green">Включена</Tag> : <Tag>Выключена</Tag>}
    >
      <Flex vertical gap={16}>
        <Flex align="center" gap={12}>
          <Switch
            checked={checked}
            loading={setup.isPending}
            onChange={onToggle}
            disabled={codes !== null}
            aria-label="Двухфакторная аутентификация"
            data-testid="twofa-switch"
          />
          <Typography.Text>
            {enabled
              ? 'При входе, кроме пароля, запрашивается код из приложения'
              : 'Включите, чтобы при входе дополнительно вводить код из приложения'}
          </Typography.Text>
        </Flex>
        {pending && !codes && (
          <SetupPanel
            setup={pending}
            onCancel={() => setPending(null)}
            onEnabled={(c) => {
              setCodes(c);
              setPending(null);
            }}
          />
        )}
        {codes && <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />}
      </Flex>
      <DisableModal open={disableOpen} onClose={() => setDisableOpen(false)} />
    </Card>
  );
}
