import { Input } from 'antd';
import { useEffect, useState } from 'react';

/**
 * The search box of a list page whose query lives in the URL: typing stays local; Enter, the button,
 * the clear icon or erasing the text hands the trimmed text — or undefined when empty — to `onSearch`.
 * A URL change (back, «Сбросить фильтры») refills it.
 */
export function SearchInput({
  value,
  onSearch,
  placeholder,
  label = placeholder,
  width = 320,
  testId = 'list-search',
}: {
  value: string | undefined;
  onSearch: (q: string | undefined) => void;
  placeholder: string;
  /** The accessible name; the placeholder by default. */
  label?: string;
  width?: number;
  testId?: string;
}) {
  const [text, setText] = useState(value ?? '');
  useEffect(() => setText(value ?? ''), [value]);
  return (
    <Input.Search
      placeholder={placeholder}
      aria-label={label}
      allowClear
      value={text}
      onChange={(e) => {
        setText(e.target.value);
        // Erased by hand or with the clear icon: the list shows everything again at once.
        if (e.target.value === '' && value) onSearch(undefined);
      }}
      onSearch={(v, _e, info) => {
        if (info?.source !== 'clear') onSearch(v.trim() || undefined);
      }}
      style={{ width, maxWidth: '100%' }}
      data-testid={testId}
    />
  );
}
