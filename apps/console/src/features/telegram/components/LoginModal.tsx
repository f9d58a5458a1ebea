import type { TelegramLoginResponse } from '@forpost/contract/telegram';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Flex, Input, Modal, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { errorMessage, http } from '../../../lib/http';
import { type TelegramAccount, telegramKeys, telegramPaths } from '../api/queries';

type Step = 'start' | 'code' | 'password' | 'done';

/**
 * «Войти»: sends the code to the account's phone, then asks for the code and, when the account has
 * one, the cloud password. Telegram's refusals (wrong code, flood-wait until …) are shown as the API
 * words them. The code and password go to our API only; nothing secret comes back.
 */
export function LoginModal({ account, onClose }: { account: TelegramAccount | null; onClose: () => void }) {
  const qc = useQueryClient();
  const [step, setStep] = useState<Step>('start');
  const [value, setValue] = useState('');
  const [hint, setHint] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (account) {
      setStep('start');
      setValue('');
      setHint(null);
      setError(null);
    }
  }, [account]);

  if (!account) return null;
  const base = `${telegramPaths.account(account.id)}/login`;
  const send = async (path: string, json: object) => {
    setBusy(true);
    setError(null);
    try {
      const r = await http.post(`${base}/${path}`, { json, context: { errorMode: 'silent' } }).json<TelegramLoginResponse>();
      setStep(r.step);
      setHint(r.password_hint);
      setValue('');
      if (r.step === 'done') await qc.invalidateQueries({ queryKey: telegramKeys.accounts() });
    } catch (e) {
      setError(errorMessage(e));
      await qc.invalidateQueries({ queryKey: telegramKeys.accounts() });
    } finally {
      setBusy(false);
    }
  };
  const submit = () =>
    step === 'start'
      ? send('start', {})
      : step === 'code'
        ? send('code', { code: value })
        : step === 'password'
          ? send('password', { password: value })
          : onClose();

  return (
    <Modal
      open
      title={`Вход в Telegram: ${account.name}`}
      onCancel={onClose}
      data-testid="telegram-login"
      footer={
        <Button type="primary" loading={busy} onClick={submit} data-testid="telegram-login-submit">
          {step === 'start' ? 'Отправить код' : step === 'done' ? 'Готово' : 'Войти'}
        </Button>
      }
    >
      <Flex vertical gap={12}>
        {step === 'start' && (
          <Typography.Text>Telegram отправит код входа на {account.phone} (в приложение Telegram или SMS).</Typography.Text>
        )}
        {step === 'code' && (
          <>
            <Typography.Text>Введите код, который пришёл на {account.phone}.</Typography.Text>
            <Input
              aria-label="Код из Telegram"
              inputMode="numeric"
              autoComplete="one-time-code"
              value={value}
              onChange={(e) => setValue(e.target.value)}
              onPressEnter={submit}
            />
          </>
        )}
        {step === 'password' && (
          <>
            <Typography.Text>
              У аккаунта включён облачный пароль (двухэтапная проверка).{hint ? ` Подсказка: ${hint}` : ''}
            </Typography.Text>
            <Input.Password
              aria-label="Облачный пароль"
              value={value}
              onChange={(e) => setValue(e.target.value)}
              onPressEnter={submit}
            />
          </>
        )}
        {step === 'done' && <Alert type="success" showIcon message="Вход выполнен: сессия сохранена, аккаунт активен" />}
        {error && <Alert type="error" showIcon message={error} data-testid="telegram-login-error" />}
      </Flex>
    </Modal>
  );
}
