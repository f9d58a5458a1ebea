import { MSG } from '@forpost/contract/messages';
import { Form, Input } from 'antd';
import type { z } from 'zod';
import { zodRule } from './forms';

/** The required «Название» field of a modal form, checked as typed by the contract's schema of the name. */
export function NameField({
  schema,
  maxLength,
  placeholder,
  showCount = true,
}: {
  schema: z.ZodType;
  maxLength: number;
  placeholder?: string;
  showCount?: boolean;
}) {
  return (
    <Form.Item
      name="name"
      label="Название"
      rules={[{ required: true, whitespace: true, message: MSG.required }, zodRule(schema)]}
      validateTrigger={['onChange', 'onBlur']}
    >
      <Input autoFocus maxLength={maxLength} showCount={showCount} placeholder={placeholder} />
    </Form.Item>
  );
}
