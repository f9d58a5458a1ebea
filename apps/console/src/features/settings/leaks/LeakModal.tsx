import { leakCreateRequest } from '@forpost/contract/events-extras';
import { DatePicker, Form, Input, InputNumber, Select } from 'antd';
import type { Dayjs } from 'dayjs';
import { useEffect } from 'react';
import { FormModal, useFormModal } from '../../../components/form/FormModal';
import { zodRule } from '../../../components/form/forms';
import { NameField } from '../../../components/form/NameField';
import { feedback } from '../../../lib/feedback';
import { dayjs } from '../../../lib/format';
import { type LeakBody, useSaveLeakMutation } from '../api/mutations';
import type { Leak, LeakType } from '../api/queries';

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
  const { message } = feedback;
  const { form, formError, reset, submit } = useFormModal<Values>();
  const save = useSaveLeakMutation();

  useEffect(() => {
    if (!open) return;
    reset({
      name: leak?.name ?? '',
      leak_type_id: leak?.leak_type_id ?? undefined,
      leaked_at: leak?.leaked_at ? dayjs(leak.leaked_at) : null,
      records_count: leak?.records_count ?? null,
      source_url: leak?.source_url ?? '',
      description: leak?.description ?? '',
    });
  }, [open, leak, reset]);

  const onOk = () =>
    submit(async (v) => {
      const body: LeakBody = {
        name: v.name.trim(),
        leak_type_id: v.leak_type_id ?? null,
        leaked_at: v.leaked_at ? v.leaked_at.format('YYYY-MM-DD') : null,
        records_count: v.records_count ?? null,
        source_url: v.source_url?.trim() || null,
        description: v.description?.trim() || null,
      };
      await save.mutateAsync({ id: leak?.id, body });
      message.success(leak ? 'Утечка сохранена' : 'Утечка добавлена');
      onClose();
    }, FIELDS);

  return (
    <FormModal<Values>
      open={open}
      title={leak ? `Утечка «${leak.name}»` : 'Новая утечка'}
      isNew={!leak}
      saving={save.isPending}
      width={620}
      form={form}
      formError={formError}
      onOk={() => void onOk()}
      onClose={onClose}
    >
      <NameField
        schema={S.name}
        maxLength={300}
        showCount={false}
        placeholder="Например: Утечка клиентской базы интернет-магазина"
      />
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
    </FormModal>
  );
}
