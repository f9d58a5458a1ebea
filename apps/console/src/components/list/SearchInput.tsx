import { Input } from 'antd';
import { useEffect, useState } from 'react';

/** A search box bound to a URL param: typing is local, Enter / the button / clearing applies it. */
export function SearchInput({
  value,
  onSearch,
  placeholder,
  width = 320,
  testId = 'list-search',
}: {
  value: string | undefined;
  onSearch: (v: string | undefined) => void;
  placeholder: string;
  width?: number;
  testId?: string;
}) {
  const [text, setText] = useState(value ?? '');
  useEffect(() => setText(value ?? ''), [value]);
  return (
    <Input.Search
      placeholder={placeholder}
      aria-label={placeholder}
      allowClear
      value={text}
      onChange={(e) => {
        setText(e.target.value);
        if (e.target.value === '' && value) onSearch(undefined);
      }}
      onSearch={(v) => onSearch(v.trim() || undefined)}
      style={{ width, maxWidth: '100%' }}
      data-testid={testId}
    />
  );
}
