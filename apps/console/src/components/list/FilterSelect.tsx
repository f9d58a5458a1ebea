import { Select } from 'antd';
import type { ReactNode } from 'react';

/**
 * A clearable filter of a list page: `label` is both the placeholder and the accessible name;
 * clearing hands `undefined` to `onChange` (the filter is off).
 */
export function FilterSelect<V extends string | number>({
  label,
  value,
  onChange,
  options,
  width = 180,
  searchable,
  loading,
  testId,
}: {
  label: string;
  value: V | undefined;
  onChange: (value: V | undefined) => void;
  options: { value: V; label: ReactNode }[];
  width?: number;
  /** Typing filters the options by their label. */
  searchable?: boolean;
  loading?: boolean;
  testId?: string;
}) {
  return (
    <Select<V>
      allowClear
      placeholder={label}
      aria-label={label}
      showSearch={searchable ? { optionFilterProp: 'label' } : undefined}
      style={{ width }}
      value={value}
      onChange={(v) => onChange(v)}
      options={options}
      loading={loading}
      data-testid={testId}
    />
  );
}
