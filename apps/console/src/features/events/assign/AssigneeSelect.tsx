/*
 * The assignee picker: users who may see the module's events of the company (GET …/assignees),
 * searched by name or e-mail as one types; «Не назначен» clears. The current assignee stays shown
 * even when the search does not list them.
 */
import type { ModuleCode } from '@forpost/contract/modules';
import { Select } from 'antd';
import type { RefSelectProps } from 'antd/es/select';
import { type Ref, useState } from 'react';
import { useDebounced } from '../../../lib/useDebounced';
import { useAssignees } from './api';

/** What a dialog needs of the select's handle. */
export interface SelectRefLike {
  focus: () => void;
}

export function AssigneeSelect({
  code,
  companyId,
  value,
  currentName,
  onChange,
  selectRef,
  testId = 'assignee-select',
  style,
}: {
  code: ModuleCode;
  companyId: number | null;
  value: number | null;
  /** The current assignee's name (shown before the list loads). */
  currentName?: string | null;
  onChange: (id: number | null) => void;
  /** Lets a dialog focus the select once it is shown. */
  selectRef?: Ref<SelectRefLike>;
  testId?: string;
  style?: React.CSSProperties;
}) {
  const [q, setQ] = useState('');
  const debounced = useDebounced(q, 250);
  const users = useAssignees(code, companyId, debounced);
  const options = (users.data ?? []).map((u) => ({ value: u.id, label: u.name, title: u.email }));
  if (value !== null && currentName && !options.some((o) => o.value === value))
    options.unshift({ value, label: currentName, title: currentName });
  return (
    <Select<number | null>
      showSearch={{ filterOption: false, onSearch: setQ }}
      value={value}
      options={options}
      onChange={(v) => onChange(v ?? null)}
      allowClear
      placeholder="Не назначен"
      loading={users.isFetching}
      notFoundContent={users.isError ? 'Не удалось загрузить пользователей' : 'Никого не найдено'}
      style={{ width: '100%', ...style }}
      aria-label="Исполнитель"
      ref={selectRef as Ref<RefSelectProps>}
      data-testid={testId}
      optionRender={(o) => (
        <span>
          {o.label}
          <span style={{ color: 'var(--ant-color-text-tertiary)', marginLeft: 8, fontSize: 12 }}>{o.data.title}</span>
        </span>
      )}
    />
  );
}
