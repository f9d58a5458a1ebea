/*
 * One input per field type of the registry (the detail page's «Изменить», a message made into an
 * event): the widget a Form.Item wraps, what prop carries its value and how typing is normalised.
 */
import { groupCardNumber } from '@forpost/contract/helpers';
import type { FieldDescriptor, FieldType } from '@forpost/contract/modules';
import { DatePicker, Input, InputNumber, Select, Switch } from 'antd';
import type { ComponentType } from 'react';
import { useRefList } from '../api/queries';

/** What an input gets: its field, the stored card mask (the placeholder of a card number) and what Form.Item injects. */
export interface InputProps {
  f: FieldDescriptor;
  mask?: unknown;
  id?: string;
  value?: unknown;
  checked?: boolean;
  onChange?: (v: unknown) => void;
}

export interface InputKind {
  Input: ComponentType<InputProps>;
  /** The prop Form.Item passes the value in (a switch is `checked`). */
  valueProp: 'value' | 'checked';
  /** Typing → form value (a card number in groups of four, as it is printed; the API drops the spaces). */
  normalize?: (v: string) => string;
}

const rest = ({ f: _f, mask: _m, ...p }: InputProps) => p as Record<string, unknown>;

function RefSelect(props: InputProps) {
  const list = useRefList(props.f.ref);
  return (
    <Select
      {...rest(props)}
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      loading={list.isPending}
      placeholder="Не выбрано"
      options={(list.data ?? []).map((x) => ({ value: x.id, label: x.name }))}
    />
  );
}

const TextInput = (p: InputProps) => <Input {...rest(p)} placeholder={p.f.hint} autoComplete="off" />;
const text: InputKind = { Input: TextInput, valueProp: 'value' };
const IntegerInput = (p: InputProps) => <InputNumber {...rest(p)} style={{ width: '100%' }} precision={0} />;
const NumberInput = (p: InputProps) => <InputNumber {...rest(p)} style={{ width: '100%' }} />;

export const FIELD_INPUTS: Record<FieldType, InputKind> = {
  string: text,
  domain: text,
  host: text,
  url: text,
  email: text,
  ip: text,
  phone: text,
  inn: text,
  ogrn: text,
  integer: { Input: IntegerInput, valueProp: 'value' },
  number: { Input: NumberInput, valueProp: 'value' },
  boolean: { Input: (p) => <Switch {...rest(p)} />, valueProp: 'checked' },
  enum: {
    Input: (p) => (
      <Select
        {...rest(p)}
        allowClear={!p.f.required}
        placeholder="Не выбрано"
        options={(p.f.options ?? []).map((o) => ({ value: o.value, label: o.label }))}
      />
    ),
    valueProp: 'value',
  },
  ref: { Input: RefSelect, valueProp: 'value' },
  date: { Input: (p) => <DatePicker {...rest(p)} format="DD.MM.YYYY" style={{ width: '100%' }} />, valueProp: 'value' },
  datetime: {
    Input: (p) => <DatePicker {...rest(p)} showTime={{ format: 'HH:mm' }} format="DD.MM.YYYY HH:mm" style={{ width: '100%' }} />,
    valueProp: 'value',
  },
  string_list: {
    Input: (p) => (
      <Select
        {...rest(p)}
        mode="tags"
        open={false}
        suffixIcon={null}
        tokenSeparators={[',', '\n']}
        placeholder="Значения через запятую"
      />
    ),
    valueProp: 'value',
  },
  text: { Input: (p) => <Input.TextArea {...rest(p)} autoSize={{ minRows: 2, maxRows: 10 }} />, valueProp: 'value' },
  card: {
    Input: (p) => (
      <Input
        {...rest(p)}
        autoComplete="off"
        inputMode="numeric"
        placeholder={
          typeof p.mask === 'string' && p.mask ? `${groupCardNumber(p.mask)} — оставьте пустым, чтобы не менять` : 'Номер карты'
        }
      />
    ),
    valueProp: 'value',
    normalize: groupCardNumber,
  },
};

/** The input of a field, by its type. */
export function FieldInput(props: InputProps) {
  const Kind = FIELD_INPUTS[props.f.type].Input;
  return <Kind {...props} />;
}
