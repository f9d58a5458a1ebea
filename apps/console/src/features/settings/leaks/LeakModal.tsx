import { leakCreateRequest } from '@forpost/contract/events-extras';
import { MSG } from '@forpost/contract/messages';
import { Alert, App, DatePicker, Form, Input, InputNumber, Modal, Select } from 'antd';
import type { Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { dayjs } from '../../../lib/format';
import { type LeakBody, useSaveLeakMutation } from '../api/mutations';
import type { Leak, LeakType } from '../api/queries';
import { applyApiErrors, zodRule } from '../ui/forms';

interface Values {
  name: string;
  leak_type_id?: number | null;
  leaked_at?: Dayjs | null;
  records_count?: number | null;
  source_url?: string;
  description?: string;
}

const S = leakCreateRequest.shape;
const FIELDS = ['name', 'leak_type_id', 'leaked_at', 'records_count', 'source_url', 'description'];

/** Create (leak = null) or edit a catalogue leak. */
export function LeakModal({
  leak,
  open,
  types,
  onClose,
}: {
  leak: Leak | null;
  open: boolean;
  types: readonly LeakType[];
  onClose: () => void;
}) {
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const save = useSaveLeakMutation();
  const [formError, setFormError] = useState<string | null>(null);

  useEffect(() => {
    if (!open) return;
    setFormError(null);
    form.resetFields();
    form.setFieldsValue({
      name: leak?.name ?? '',
      leak_type_id: leak?.leak_type_id ?? undefined,
      leaked_at: leak?.leaked_at ? dayjs(leak.leaked_at) : null,
      records_count: leak?.records_count ?? null,
      source_url: leak?.source_url ?? '',
      description: leak?.description ?? '',
    });
  }, [open, leak, form]);

  const onOk = async () => {
    setFormError(null);
    let v: Values;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    const body: LeakBody = {
      name: v.name.trim(),
      leak_type_id: v.leak_type_id ?? null,
      leaked_at: v.leaked_at ? v.leaked_at.format('YYYY-MM-DD') : null,
      records_count: v.records_count ?? null,
      source_url: v.source_url?.trim() || null,
      description: v.description?.trim() || null,
    };
    try {
      await save.mutateAsync({ id: leak?.id, body });
      message.success(leak ? 'Утечка сохранена' : 'Утечка добавлена');
      onClose();
    } catch (e) {
      setFormError(applyApiErrors(form, e, FIELDS));
    }
  };

  return (
    <Modal
      open={open}
      title={leak ? `Утечка «${leak.name}»` : 'Новая утечка'}
      okText={leak ? 'Сохранить' : 'Добавить'}
      cancelText="Отмена"
      onOk={() => void onOk()}
      confirmLoading={save.isPending}
      onCancel={onClose}
      destroyOnHidden
      forceRender
      width={620}
    >
      <Form<Values> form={form} layout="vertical" requiredMark="optional">
        {formError && <Alert type="error" showIcon title={formError} style={{ marginBottom: 16 }} />}
        <Form.Item
          name="name"
          label="Название"
          rules={[{ required: true, whitespace: true, message: MSG.required }, zodRule(S.name)]}
          validateTrigger={['onChange', 'onBlur']}
        >
          <Input autoFocus maxLength={300} placeholder="Например: Утечка клиентской базы интернет-магазина" />
        </Form.Item>
        <Form.Item name="leak_type_id" label="Тип утечки">
          <Select allowClear placeholder="Не указан" options={types.map((t) => ({ value: t.id, label: t.name }))} />
        </Form.Item>
        <div style={{ display: 'flex', gap: 16 }}>
          <Form.Item name="leaked_at" label="Дата утечки" style={{ flex: 1 }}>
            <DatePicker format="DD.MM.YYYY" style={{ width: '100%' }} placeholder="дд.мм.гггг" />
          </Form.Item>
          <Form.Item name="records_count" label="Записей" style={{ flex: 1 }} rules={[zodRule(S.records_count)]}>
            <InputNumber<number> min={0} precision={0} style={{ width: '100%' }} placeholder="Сколько строк утекло" />
          </Form.Item>
        </div>
        <Form.Item name="source_url" label="Источник" rules={[zodRule(S.source_url)]} validateTrigger="onBlur">
          <Input placeholder="https://…" />
        </Form.Item>
        <Form.Item name="description" label="Описание" rules={[zodRule(S.description)]}>
          <Input.TextArea rows={3} maxLength={5000} placeholder="Что утекло, откуда известно" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
