import { MSG } from '@forpost/contract/messages';
import {
  type FieldDescriptor,
  getModule,
  inputFields,
  MODULE_LIST,
  type ModuleCode,
  messageTarget,
} from '@forpost/contract/modules';
import { Flex, Form, Input, Select, Typography } from 'antd';
import { useEffect, useMemo } from 'react';
import { FormModal, useFormModal } from '../../../components/form/FormModal';
import { zodRule } from '../../../components/form/forms';
import { FIELD_INPUTS, FieldInput } from '../../events/components/inputs';
import { FORM_KINDS } from '../../events/model/edit';
import { type ToEventResult, useToEventMutation } from '../api/mutations';
import type { Message } from '../api/queries';

interface Values {
  module?: ModuleCode;
  title?: string;
  fields?: Record<string, unknown>;
}

/** The module fields the API does not fill from the message (its first URL and text fields are prefilled). */
function fieldsToAsk(code: ModuleCode): { ask: FieldDescriptor[]; prefilled: FieldDescriptor[] } {
  const fields = inputFields(getModule(code));
  const url = messageTarget(fields, 'link');
  const text = messageTarget(fields, 'body');
  const prefilled = [url, text].filter((f): f is FieldDescriptor => f !== undefined);
  return { ask: fields.filter((f) => f.required && !prefilled.includes(f)), prefilled };
}

const firstLine = (text: string) => text.trim().split(/\r?\n/)[0]?.slice(0, 200) ?? '';

/** Form value → wire value of a module field. */
function toWire(f: FieldDescriptor, v: unknown): unknown {
  if (v === undefined || v === null || v === '') return undefined;
  const convert = FORM_KINDS[f.type].toWire;
  if (convert) return convert(v);
  if (typeof v === 'string') return v.trim();
  return v;
}

/** «Создать событие»: the module, a title and the module's required fields the message cannot fill. */
export function ToEventModal({
  message,
  open,
  onClose,
  onCreated,
}: {
  message: Message;
  open: boolean;
  onClose: () => void;
  onCreated: (r: ToEventResult) => void;
}) {
  const { form, formError, reset, submit } = useFormModal<Values>();
  const toEvent = useToEventMutation(message.id);
  const module = Form.useWatch('module', form);
  const { ask, prefilled } = useMemo(() => (module ? fieldsToAsk(module) : { ask: [], prefilled: [] }), [module]);

  useEffect(() => {
    if (!open) return;
    reset({ module: undefined, title: firstLine(message.text) || undefined, fields: {} });
  }, [open, message, reset]);

  const onOk = () =>
    submit(
      async (v) => {
        if (!v.module) return;
        const fields: Record<string, unknown> = {};
        for (const f of ask) {
          const w = toWire(f, v.fields?.[f.key]);
          if (w !== undefined) fields[f.key] = w;
        }
        const r = await toEvent.mutateAsync({
          module: v.module,
          title: v.title?.trim() || undefined,
          fields: Object.keys(fields).length ? fields : undefined,
        });
        onCreated(r);
      },
      ['module', 'title', ...ask.map((f) => `fields.${f.key}`)],
      (k) => (k.startsWith('fields.') ? ['fields', k.slice(7)] : k),
    );

  return (
    <FormModal<Values>
      open={open}
      title="Создать событие из сообщения"
      isNew
      okText="Создать событие"
      okButtonProps={{ disabled: !module }}
      saving={toEvent.isPending}
      width={620}
      form={form}
      formError={formError}
      onOk={() => void onOk()}
      onClose={onClose}
    >
      <Form.Item name="module" label="Модуль" rules={[{ required: true, message: MSG.required }]}>
        <Select
          showSearch={{ optionFilterProp: 'label' }}
          placeholder="В какой раздел мониторинга"
          options={MODULE_LIST.map((m) => ({ value: m.code, label: m.name, title: m.description }))}
          data-testid="to-event-module"
        />
      </Form.Item>
      {module && (
        <Typography.Paragraph type="secondary" style={{ marginTop: -12, fontSize: 12 }}>
          {getModule(module).description} Компания — {message.company.name}, источник — Telegram, дата обнаружения — дата
          публикации
          {prefilled.length ? `; ${prefilled.map((f) => `«${f.label}»`).join(' и ')} заполнятся из сообщения` : ''}.
        </Typography.Paragraph>
      )}
      <Form.Item name="title" label="Заголовок события" rules={[{ max: 500, message: MSG.tooLong(500) }]}>
        <Input placeholder="По умолчанию — первая строка сообщения" />
      </Form.Item>
      {ask.length > 0 && (
        <Flex vertical>
          <Typography.Text strong style={{ marginBottom: 8 }}>
            Обязательные поля модуля
          </Typography.Text>
          {ask.map((f) => (
            <Form.Item
              key={f.key}
              name={['fields', f.key]}
              label={f.label}
              valuePropName={FIELD_INPUTS[f.type].valueProp}
              rules={[{ required: true, message: MSG.required }, ...(FORM_KINDS[f.type].checksAsTyped ? [zodRule(f.input)] : [])]}
              validateTrigger="onBlur"
            >
              <FieldInput f={f} />
            </Form.Item>
          ))}
        </Flex>
      )}
    </FormModal>
  );
}
