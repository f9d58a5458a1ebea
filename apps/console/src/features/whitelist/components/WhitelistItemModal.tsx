import { MSG } from '@forpost/contract/messages';
import {
  type CreateWhitelistItem,
  normaliseWhitelistValue,
  WHITELIST_TYPE_LABELS,
  WHITELIST_TYPES,
  type WhitelistType,
} from '@forpost/contract/whitelist';
import { Form, Input, Radio, Select, Typography } from 'antd';
import { useEffect } from 'react';
import { ExpiryPicker } from '../../../components/form/ExpiryPicker';
import { FormModal, useFormModal } from '../../../components/form/FormModal';
import { feedback } from '../../../lib/feedback';
import { dayjs } from '../../../lib/format';
import { useSaveWhitelistItemMutation } from '../api/mutations';
import type { WhitelistItem, WhitelistScope } from '../api/queries';
import { kindOptions, VALUE_PLACEHOLDERS } from '../labels';
import { type EntryFieldValues, entryFields } from './entryFields';

interface Values extends EntryFieldValues {
  type: WhitelistType;
  value: string;
}

const FIELDS = ['type', 'value', 'kind', 'comment', 'expires_at'];

/** Create (item = null) or edit a whitelist entry; the value is checked by its type's validator. */
export function WhitelistItemModal({
  scope,
  scopeLabel,
  item,
  open,
  onClose,
}: {
  scope: WhitelistScope;
  scopeLabel: string;
  item: WhitelistItem | null;
  open: boolean;
  onClose: () => void;
}) {
  const { message } = feedback;
  const { form, formError, reset, submit } = useFormModal<Values>();
  const save = useSaveWhitelistItemMutation(scope);
  const type = Form.useWatch('type', form) ?? 'domain';

  useEffect(() => {
    if (!open) return;
    reset({
      type: item?.type ?? 'domain',
      value: item?.value ?? '',
      kind: item?.kind ?? 'whitelistClient',
      comment: item?.comment ?? '',
      expires_at: item?.expires_at ? dayjs(item.expires_at) : null,
    });
  }, [open, item, reset]);

  const onOk = () =>
    submit(async (v) => {
      const body: CreateWhitelistItem = {
        type: v.type,
        value: v.value.trim(),
        ...entryFields(v),
      };
      await save.mutateAsync({ id: item?.id, body });
      message.success(item ? 'Запись сохранена' : 'Запись добавлена в белый список');
      onClose();
    }, FIELDS);

  return (
    <FormModal<Values>
      open={open}
      title={item ? 'Запись белого списка' : `Новая запись · ${scopeLabel}`}
      isNew={!item}
      saving={save.isPending}
      width={600}
      form={form}
      formError={formError}
      formProps={{ onFinish: () => void onOk() }}
      onOk={() => void onOk()}
      onClose={onClose}
    >
      <Form.Item name="type" label="Тип" rules={[{ required: true, message: MSG.required }]}>
        <Select
          options={WHITELIST_TYPES.map((t) => ({ value: t, label: WHITELIST_TYPE_LABELS[t] }))}
          onChange={() => {
            if (form.getFieldValue('value')) void form.validateFields(['value']).catch(() => undefined);
          }}
          data-testid="wl-type"
        />
      </Form.Item>
      <Form.Item
        name="value"
        label="Значение"
        validateTrigger={['onBlur', 'onChange']}
        rules={[
          { required: true, whitespace: true, message: MSG.required },
          {
            validator: async (_r, value: string | undefined) => {
              if (!value?.trim()) return;
              const r = normaliseWhitelistValue(form.getFieldValue('type') ?? 'domain', value);
              if (!r.ok) throw new Error(r.error);
            },
          },
        ]}
        extra={
          type === 'domain' ? (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              Домен совпадает и со своими поддоменами
            </Typography.Text>
          ) : type === 'ip' ? (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              IPv4 или IPv6, можно подсеть в записи CIDR
            </Typography.Text>
          ) : undefined
        }
      >
        <Input autoFocus placeholder={VALUE_PLACEHOLDERS[type]} data-testid="wl-value" />
      </Form.Item>
      <Form.Item name="kind" label="Вид" rules={[{ required: true, message: MSG.required }]}>
        <Radio.Group optionType="button" options={kindOptions} />
      </Form.Item>
      <Form.Item name="expires_at" label="Действует до">
        <ExpiryPicker style={{ width: 220 }} />
      </Form.Item>
      <Form.Item name="comment" label="Комментарий">
        <Input.TextArea rows={2} maxLength={1000} showCount placeholder="Почему запись в белом списке" />
      </Form.Item>
    </FormModal>
  );
}
