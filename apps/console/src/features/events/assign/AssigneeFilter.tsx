/*
 * The «Исполнитель» filter: fixed choices first (the list's «Мне», «Не назначен»), then the users who may
 * be assigned the module's events, searched as one types. The list's URL keeps `assignee=me|none|<id>`;
 * a mailing's filter offers «Не назначен» and users, empty meaning «Любой исполнитель».
 */
import type { ModuleCode } from '@forpost/contract/modules';
import { Select } from 'antd';
import { useState } from 'react';
import { useDebounced } from '../../../lib/useDebounced';
import { useAssignees } from './api';

/** The list's fixed choices. */
export const LIST_ASSIGNEE_CHOICES = [
  { value: 'me', label: 'Мне' },
  { value: 'none', label: 'Не назначен' },
];

export function AssigneeFilter({
  code,
  value,
  onChange,
  companyId = null,
  choices = LIST_ASSIGNEE_CHOICES,
  placeholder = 'Любой',
  testId = 'filter-assignee',
  id,
}: {
  code: ModuleCode;
  value: string | undefined;
  onChange: (v: string | undefined) => void;
  /** The company whose users are offered (none: the caller's only company, or any for staff). */
  companyId?: number | null;
  choices?: { value: string; label: string }[];
  /** Shown when nothing is chosen: the filter then matches any assignee. */
  placeholder?: string;
  testId?: string;
  /** A form item's id, so its label names the select. */
  id?: string;
}) {
  const [q, setQ] = useState('');
  const users = useAssignees(code, companyId, useDebounced(q, 250));
  const options = [...choices, ...(users.data ?? []).map((u) => ({ value: String(u.id), label: u.name }))];
  if (value && !options.some((o) => o.value === value)) options.push({ value, label: `Пользователь №${value}` });
  return (
    <Select<string>
      showSearch={{ filterOption: false, onSearch: setQ }}
      allowClear
      value={value}
      options={options}
      onChange={(v) => onChange(v ?? undefined)}
      placeholder={placeholder}
      style={{ width: '100%' }}
      aria-label="Исполнитель"
      data-testid={testId}
      id={id}
    />
  );
}
