import { Input } from 'antd';
import { useEffect, useState } from 'react';

/**
 * The search box of a list page whose query lives in the URL: typing stays local, Enter (or the
 * button) hands the trimmed text — or undefined when empty — to `onSearch`; a URL change refills it.
 */
export function ListSearchInput({
  value,
  onSearch,
  placeholder,
  width,
  label,
}: {
  value: string | undefined;
  onSearch: (q: string | undefined) => void;
  placeholder: string;
  width: number;
  label: string;
}) {
  const [q, setQ] = useState(value ?? '');
  useEffect(() => setQ(value ?? ''), [value]);
  return (
    <Input.Search
      placeholder={placeholder}
      allowClear
      value={q}
      onChange={(e) => setQ(e.target.value)}
      onSearch={(v) => onSearch(v.trim() || undefined)}
      style={{ width }}
      aria-label={label}
    />
  );
}
