import { MSG } from '@forpost/contract/messages';
import { normalisePhone, TELEGRAM_MSG, type TelegramAccountStatus } from '@forpost/contract/telegram';
import { Checkbox, Divider, Flex, Form, Input, Select, Typography } from 'antd';
import { useEffect } from 'react';
import { FormModal, useFormModal } from '../../../components/form/FormModal';
import { checkRule } from '../../../components/form/forms';
import { feedback } from '../../../lib/feedback';
import { type AccountBody, useSaveAccountMutation } from '../api/mutations';
import type { TelegramAccount } from '../api/queries';
import { SecretState, statusOptions } from '../labels';

type SecretKey = 'api_id' | 'api_hash' | 'session';

interface Values {
  name: string;
  phone: string;
  status: TelegramAccountStatus;
  comment?: string;
  api_id?: string;
  api_hash?: string;
  session?: string;
  clear_api_id?: boolean;
  clear_api_hash?: boolean;
  clear_session?: boolean;
}

const SECRETS: { key: SecretKey; label: string; hint: string }[] = [
  { key: 'api_id', label: 'api_id', hint: 'Число из my.telegram.org → API development tools' },
  { key: 'api_hash', label: 'api_hash', hint: 'Строка из my.telegram.org рядом с api_id' },
  { key: 'session', label: 'Строка сессии', hint: 'Сессия клиента (Telethon / Pyrogram StringSession), после входа в аккаунт' },
];
const hasOf = (a: TelegramAccount, k: SecretKey) =>
  k === 'api_id' ? a.has_api_id : k === 'api_hash' ? a.has_api_hash : a.has_session;

const FIELDS = ['name', 'phone', 'status', 'comment', 'api_id', 'api_hash', 'session'];

/** Create (account = null) or edit a collector account. Secrets are write-only: never shown, only replaced or erased. */
export function AccountModal({
  account,
  open,
  onClose,
}: {
  account: TelegramAccount | null;
  open: boolean;
  onClose: () => void;
}) {
  const { message } = feedback;
  const { form, formError, reset, submit } = useFormModal<Values>();
  const save = useSaveAccountMutation();
  const phone = Form.useWatch('phone', form);
  const normalised = phone ? normalisePhone(phone) : null;

  useEffect(() => {
    if (!open) return;
    reset({
      name: account?.name ?? '',
      phone: account?.phone ?? '',
      status: account?.status ?? 'active',
      comment: account?.comment ?? '',
    });
  }, [open, account, reset]);

  const onOk = () =>
    submit(async (v) => {
      const body: Record<string, unknown> = {
        name: v.name.trim(),
        phone: v.phone.trim(),
        status: v.status,
        comment: v.comment?.trim() || null,
      };
      for (const { key } of SECRETS) {
        const val = v[key]?.trim();
        if (val) body[key] = val;
        else if (account && v[`clear_${key}`]) body[key] = null;
      }
      await save.mutateAsync({ id: account?.id, body: body as AccountBody });
      message.success(account ? 'Аккаунт сохранён' : 'Аккаунт добавлен');
      onClose();
    }, FIELDS);

  return (
    <FormModal<Values>
      open={open}
      title={account ? `Аккаунт «${account.name}»` : 'Новый аккаунт Telegram'}
      isNew={!account}
      saving={save.isPending}
      width={640}
      form={form}
      formError={formError}
      formProps={{ autoComplete: 'off' }}
      onOk={() => void onOk()}
      onClose={onClose}
    >
      <Flex gap={16} wrap>
        <Form.Item
          name="name"
          label="Название"
          style={{ flex: '1 1 260px' }}
          rules={[
            { required: true, whitespace: true, message: MSG.required },
            { max: 200, message: MSG.tooLong(200) },
          ]}
        >
          <Input autoFocus placeholder="Например: Сборщик №1" />
        </Form.Item>
        <Form.Item
          name="phone"
          label="Телефон"
          style={{ flex: '1 1 220px' }}
          validateTrigger="onBlur"
          rules={[
            { required: true, whitespace: true, message: MSG.required },
            checkRule((s) => (normalisePhone(s) ? null : TELEGRAM_MSG.phone)),
          ]}
          extra={
            normalised && normalised !== phone?.trim() ? (
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                Сохранится как {normalised}
              </Typography.Text>
            ) : undefined
          }
        >
          <Input placeholder="+7 912 345-67-89" inputMode="tel" />
        </Form.Item>
      </Flex>
      <Form.Item name="status" label="Статус" style={{ maxWidth: 260 }}>
        <Select options={statusOptions} />
      </Form.Item>
      <Form.Item name="comment" label="Комментарий" rules={[{ max: 1000, message: MSG.tooLong(1000) }]}>
        <Input.TextArea rows={2} maxLength={1000} />
      </Form.Item>
      <Divider titlePlacement="start" plain style={{ marginBlock: 8 }}>
        Ключи доступа
      </Divider>
      <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
        Хранятся в зашифрованном виде и никогда не показываются. Оставьте поле пустым, чтобы не менять значение.
      </Typography.Paragraph>
      {SECRETS.map((s) => (
        <Form.Item
          key={s.key}
          label={
            <Flex gap={8} align="center">
              <span>{s.label}</span>
              {account && <SecretState set={hasOf(account, s.key)} />}
            </Flex>
          }
          extra={<span style={{ fontSize: 12 }}>{s.hint}</span>}
          style={{ marginBottom: 12 }}
        >
          <Flex gap={12} align="center">
            <Form.Item
              name={s.key}
              noStyle
              rules={
                s.key === 'api_id'
                  ? [checkRule((x) => (/^\d+$/.test(x.trim()) ? null : TELEGRAM_MSG.apiId))]
                  : [{ max: s.key === 'session' ? 10_000 : 200, message: MSG.tooLong(s.key === 'session' ? 10_000 : 200) }]
              }
            >
              {s.key === 'session' ? (
                <Input.TextArea
                  rows={2}
                  placeholder={account && hasOf(account, s.key) ? 'Новое значение (текущее не показывается)' : 'Значение'}
                  autoComplete="off"
                  style={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' }}
                  aria-label={s.label}
                />
              ) : (
                <Input.Password
                  placeholder={account && hasOf(account, s.key) ? 'Новое значение (текущее не показывается)' : 'Значение'}
                  autoComplete="new-password"
                  aria-label={s.label}
                />
              )}
            </Form.Item>
            {account && hasOf(account, s.key) && (
              <Form.Item name={`clear_${s.key}`} valuePropName="checked" noStyle>
                <Checkbox style={{ whiteSpace: 'nowrap' }}>Удалить</Checkbox>
              </Form.Item>
            )}
          </Flex>
        </Form.Item>
      ))}
    </FormModal>
  );
}
