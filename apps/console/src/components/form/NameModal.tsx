import { MSG } from '@forpost/contract/messages';
import { Alert, App, Form, Input, Modal } from 'antd';
import { useEffect, useState } from 'react';
import type { z } from 'zod';
import { applyApiErrors, zodRule } from './forms';

/** Create / rename an entry of a name-only reference list. */
export function NameModal({
  open,
  title,
  initial,
  schema,
  maxLength,
  placeholder,
  onSubmit,
  onClose,
  successText,
}: {
  open: boolean;
  title: string;
  initial?: string;
  schema: z.ZodType;
  maxLength: number;
  placeholder?: string;
  onSubmit: (name: string) => Promise<unknown>;
  onClose: () => void;
  successText: string;
}) {
  const { message } = App.useApp();
  const [form] = Form.useForm<{ name: string }>();
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!open) return;
    setFormError(null);
    form.setFieldsValue({ name: initial ?? '' });
  }, [open, initial, form]);

  const onOk = async () => {
    setFormError(null);
    let v: { name: string };
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    setSaving(true);
    try {
      await onSubmit(v.name.trim());
      message.success(successText);
      onClose();
    } catch (e) {
      setFormError(applyApiErrors(form, e, ['name']));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={title}
      okText={initial === undefined ? 'Добавить' : 'Сохранить'}
      cancelText="Отмена"
      onOk={() => void onOk()}
      confirmLoading={saving}
      onCancel={onClose}
      destroyOnHidden
      forceRender
    >
      <Form form={form} layout="vertical" requiredMark={false} onFinish={() => void onOk()}>
        {formError && <Alert type="error" showIcon title={formError} style={{ marginBottom: 16 }} />}
        <Form.Item
          name="name"
          label="Название"
          rules={[{ required: true, whitespace: true, message: MSG.required }, zodRule(schema)]}
          validateTrigger={['onChange', 'onBlur']}
        >
          <Input autoFocus maxLength={maxLength} showCount placeholder={placeholder} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
