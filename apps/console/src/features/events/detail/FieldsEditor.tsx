/*
 * «Изменить» on the detail page: the module's own fields as one form, built from the registry
 * descriptor (labels, widgets by type, the same zod rules and Russian messages as the API). Only the
 * changed fields are sent (PATCH /modules/{code}/events/{id}); the API's field errors land on their
 * fields. Card numbers are never put into the form: the field is empty, the mask is the placeholder,
 * and a new number replaces the stored one.
 */

import { MSG } from '@forpost/contract/messages';
import { type FieldDescriptor, inputFields, type ModuleDescriptor } from '@forpost/contract/modules';
import { Alert, Button, Col, Flex, Form, Row, Typography } from 'antd';
import type { Rule } from 'antd/es/form';
import { useMemo, useState } from 'react';
import { applyApiErrors } from '../../../components/form/forms';
import { feedback } from '../../../lib/feedback';
import { getErrorBody, getErrorStatus } from '../../../lib/http';
import { useEditEvent } from '../api/mutations';
import { FIELD_INPUTS, FieldInput } from '../components/inputs';
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
              valuePropName={FIELD_INPUTS[f.type].valueProp}
              rules={rulesOf(f)}
              // A card number is typed in groups of four, as it is printed (the API drops the spaces).
              normalize={FIELD_INPUTS[f.type].normalize}
              validateTrigger={['onBlur', 'onChange']}
              tooltip={f.hint}
              extra={f.sensitive === 'card' ? 'Полный номер не показывается; новый номер заменит сохранённый' : undefined}
            >
              <FieldInput f={f} mask={event[f.key]} />
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
