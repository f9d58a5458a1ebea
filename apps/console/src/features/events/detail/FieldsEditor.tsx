/*
 * «Изменить» on the detail page: the module's own fields as one form, built from the registry
 * descriptor (labels, widgets by type, the same zod rules and Russian messages as the API). Only the
 * changed fields are sent (PATCH /modules/{code}/events/{id}); the API's field errors land on their
 * fields. Card numbers are never put into the form: the field is empty, the mask is the placeholder,
 * and a new number replaces the stored one.
 */

import { groupCardNumber } from '@forpost/contract/helpers';
import { MSG } from '@forpost/contract/messages';
import { type FieldDescriptor, inputFields, type ModuleDescriptor } from '@forpost/contract/modules';
import { Alert, Button, Col, DatePicker, Flex, Form, Input, InputNumber, Row, Select, Switch, Typography } from 'antd';
import type { Rule } from 'antd/es/form';
import { useMemo, useState } from 'react';
import { applyApiErrors } from '../../../components/form/forms';
import { feedback } from '../../../lib/feedback';
import { getErrorBody, getErrorStatus } from '../../../lib/http';
import { useEditEvent } from '../api/mutations';
import { useRefList } from '../api/queries';
import { fingerprintInputs, isWide, same, toForm, toWire } from '../model/edit';
import type { EventDetail } from '../model/types';

type Values = Record<string, unknown>;

/** The rules of one field: required (unless a card number, kept when left empty) and the registry's zod schema. */
function rulesOf(f: FieldDescriptor): Rule[] {
  const required = f.required && f.sensitive !== 'card';
  return [
    {
      validator: async (_r, value: unknown) => {
        const wire = toWire(f, value);
        if (wire === null) {
          if (required) throw new Error(MSG.required);
          return;
        }
        const r = f.input.safeParse(wire);
        if (!r.success) throw new Error(r.error.issues[0]?.message ?? MSG.generic);
      },
    },
  ];
}

function RefSelect({ f, ...rest }: { f: FieldDescriptor; value?: unknown; onChange?: (v: unknown) => void; id?: string }) {
  const list = useRefList(f.ref);
  return (
    <Select
      {...rest}
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      loading={list.isPending}
      placeholder="Не выбрано"
      options={(list.data ?? []).map((x) => ({ value: x.id, label: x.name }))}
    />
  );
}

function FieldInput({
  f,
  event,
  ...rest
}: {
  f: FieldDescriptor;
  event: EventDetail;
  id?: string;
  value?: unknown;
  onChange?: (v: unknown) => void;
}) {
  const p = rest as Record<string, unknown>;
  switch (f.type) {
    case 'integer':
    case 'number':
      return <InputNumber {...p} style={{ width: '100%' }} precision={f.type === 'integer' ? 0 : undefined} />;
    case 'boolean':
      // Form.Item passes `checked` (valuePropName) for booleans.
      return <Switch {...p} />;
    case 'enum':
      return (
        <Select
          {...p}
          allowClear={!f.required}
          placeholder="Не выбрано"
          options={(f.options ?? []).map((o) => ({ value: o.value, label: o.label }))}
        />
      );
    case 'ref':
      return <RefSelect f={f} {...rest} />;
    case 'date':
      return <DatePicker {...p} format="DD.MM.YYYY" style={{ width: '100%' }} />;
    case 'datetime':
      return <DatePicker {...p} showTime={{ format: 'HH:mm' }} format="DD.MM.YYYY HH:mm" style={{ width: '100%' }} />;
    case 'string_list':
      return (
        <Select
          {...p}
          mode="tags"
          open={false}
          suffixIcon={null}
          tokenSeparators={[',', '\n']}
          placeholder="Значения через запятую"
        />
      );
    case 'text':
      return <Input.TextArea {...p} autoSize={{ minRows: 2, maxRows: 10 }} />;
    case 'card': {
      const mask = event[f.key];
      return (
        <Input
          {...p}
          autoComplete="off"
          inputMode="numeric"
          placeholder={
            typeof mask === 'string' && mask ? `${groupCardNumber(mask)} — оставьте пустым, чтобы не менять` : 'Номер карты'
          }
        />
      );
    }
    default:
      return <Input {...p} placeholder={f.hint} autoComplete="off" />;
  }
}

export function FieldsEditor({ m, event, onDone }: { m: ModuleDescriptor; event: EventDetail; onDone: () => void }) {
  const { message } = feedback;
  const [form] = Form.useForm<Values>();
  const [formError, setFormError] = useState<string | null>(null);
  const edit = useEditEvent(m.code, event.id);
  const fields = useMemo(() => {
    const all = inputFields(m);
    return [...all.filter((f) => !isWide(f)), ...all.filter(isWide)];
  }, [m]);
  const derived = m.fields.filter((f) => f.derived);
  const initial = useMemo(() => Object.fromEntries(fields.map((f) => [f.key, toForm(f, event[f.key])])), [fields, event]);

  /** `onFinish`: the form has passed its rules (a failed submit goes to `onFinishFailed`). */
  const onSave = async (values: Values) => {
    setFormError(null);
    const patch: Values = {};
    for (const f of fields) {
      const wire = toWire(f, values[f.key]);
      if (f.sensitive === 'card') {
        if (wire !== null) patch[f.key] = wire; // empty = keep the stored number
      } else if (!same(wire, event[f.key])) patch[f.key] = wire;
    }
    if (!Object.keys(patch).length) {
      message.info('Изменений нет');
      onDone();
      return;
    }
    try {
      await edit.mutateAsync(patch);
      message.success('Изменения сохранены');
      onDone();
    } catch (e) {
      // A duplicate (409 with the other event's id) belongs to the fields that identify the event.
      const body = getErrorBody(e);
      const dupOf =
        getErrorStatus(e) === 409 && body?.data && typeof body.data === 'object' ? (body.data as { id?: unknown }).id : undefined;
      const names = typeof dupOf === 'number' ? fingerprintInputs(m).filter((k) => k in patch) : [];
      if (names.length) form.setFields(names.map((name) => ({ name, errors: [body?.message ?? MSG.generic] })));
      else
        setFormError(
          applyApiErrors(
            form,
            e,
            fields.map((f) => f.key),
          ),
        );
    }
  };

  return (
    <Form<Values>
      form={form}
      name="event-fields"
      layout="vertical"
      requiredMark="optional"
      initialValues={initial}
      onFinish={(values) => void onSave(values)}
      onFinishFailed={() => setFormError(MSG.fillRequired)}
      data-testid="event-fields-form"
    >
      {formError && (
        <Alert type="error" showIcon title={formError} style={{ marginBottom: 16 }} data-testid="event-fields-error" />
      )}
      <Row gutter={16}>
        {fields.map((f) => (
          <Col key={f.key} xs={24} lg={isWide(f) ? 24 : 12}>
            <Form.Item
              name={f.key}
              label={f.label}
              required={f.required && f.sensitive !== 'card'}
              valuePropName={f.type === 'boolean' ? 'checked' : 'value'}
              rules={rulesOf(f)}
              // A card number is typed in groups of four, as it is printed (the API drops the spaces).
              normalize={f.type === 'card' ? groupCardNumber : undefined}
              validateTrigger={['onBlur', 'onChange']}
              tooltip={f.hint}
              extra={f.sensitive === 'card' ? 'Полный номер не показывается; новый номер заменит сохранённый' : undefined}
            >
              <FieldInput f={f} event={event} />
            </Form.Item>
          </Col>
        ))}
      </Row>
      {derived.length > 0 && (
        <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
          Вычисляются автоматически: {derived.map((f) => `«${f.label}»`).join(', ')}.
        </Typography.Paragraph>
      )}
      <Flex gap={8} justify="flex-end">
        <Button onClick={onDone} disabled={edit.isPending} data-testid="fields-cancel">
          Отмена
        </Button>
        <Button type="primary" htmlType="submit" loading={edit.isPending} data-testid="fields-save">
          Сохранить
        </Button>
      </Flex>
    </Form>
  );
}
