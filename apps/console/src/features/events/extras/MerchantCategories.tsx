/* Merchants: the breach and questionable categories (lists from the API), changed in place. */
import { Card, Descriptions, Select, Tag } from 'antd';
import { EMPTY_VALUE } from '../../../lib/format';
import { usePatchEvent } from '../api/mutations';
import { useMerchantCategories } from '../api/queries';
import type { ExtrasProps } from './types';

const KINDS = [
  { kind: 'breach', field: 'breach_category', label: 'Категория нарушения', color: 'red' },
  { kind: 'questionable', field: 'questionable_category', label: 'Сомнительная категория', color: 'orange' },
] as const;

function CategorySelect({ m, event, canWrite, kind, field, label, color }: ExtrasProps & (typeof KINDS)[number]) {
  const list = useMerchantCategories(kind);
  const patch = usePatchEvent(m.code, event.id);
  const value = typeof event[field] === 'string' ? (event[field] as string) : null;
  const options = (list.data ?? []).map((c) => ({ value: c.code, label: c.name }));
  if (!canWrite) {
    const name = options.find((o) => o.value === value)?.label ?? value;
    return name ? <Tag color={color}>{name}</Tag> : <span>{EMPTY_VALUE}</span>;
  }
  return (
    <Select<string | null>
      value={value}
      options={options}
      loading={list.isPending}
      allowClear
      placeholder="Не задана"
      onChange={(v) => patch.mutate({ [field]: v ?? null })}
      style={{ width: '100%' }}
      aria-label={label}
    />
  );
}

export function MerchantCategories(props: ExtrasProps) {
  return (
    <Card title="Категории" size="small" data-testid="merchant-categories">
      <Descriptions
        column={1}
        size="small"
        styles={{ label: { width: 200 } }}
        items={KINDS.map((k) => ({ key: k.kind, label: k.label, children: <CategorySelect {...props} {...k} /> }))}
      />
    </Card>
  );
}
