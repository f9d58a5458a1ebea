/* The list's «Исполнитель» filter: «Мне», «Не назначен» or a user (the URL keeps `assignee=me|none|<id>`). */
import type { ModuleCode } from '@forpost/contract/modules';
import { Select } from 'antd';
import { useState } from 'react';
import { useDebounced } from '../../../lib/useDebounced';
import { useAssignees } from './api';

export function AssigneeFilter({
  code,
  value,
  onChange,
}: {
  code: ModuleCode;
  value: string | undefined;
  onChange: (v: string | undefined) => void;
}) {
  const [q, setQ] = useState('');
  const users = useAssignees(code, null, useDebounced(q, 250));
  const options = [
    { value: 'me', label: 'Мне' },
    { value: 'none', label: 'Не назначен' },
    ...(users.data ?? []).map((u) => ({ value: String(u.id), label: u.name })),
  ];
  if (value && !options.some((o) => o.value === value)) options.push({ value, label: `Пользователь №${value}` });
  return (
    <Select<string>
      showSearch={{ filterOption: false, onSearch: setQ }}
      allowClear
      value={value}
      options={options}
      onChange={(v) => onChange(v ?? undefined)}
      placeholder="Любой"
      style={{ width: '100%' }}
      aria-label="Исполнитель"
      data-testid="filter-assignee"
    />
  );
}
