/*
 * The list's filter bar, built from the module's filter descriptors: search, status, priority and
 * decision always in view; the other common filters and the module's own behind «Фильтры».
 * Every change goes to the URL (the page re-reads it), so a filtered list is a shareable link.
 */
import { ClearOutlined, FilterOutlined, SearchOutlined } from '@ant-design/icons';
import {
  FIELD_KINDS,
  type FieldType,
  type FilterDescriptor,
  INDICATOR_LABELS,
  type ModuleDescriptor,
  parseIndicator,
} from '@forpost/contract/modules';
import { Badge, Button, DatePicker, Flex, Input, InputNumber, Select, Space, Tag, Typography } from 'antd';
import { type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import { dayjs } from '../../../lib/format';
import { type EventRefs, useRefList } from '../api/queries';
import { AssigneeFilter } from '../assign/AssigneeFilter';
import { type EventSearch, joinList, listFiltersOf, paramsOfFilter, splitList } from '../model/search';

/** A range filter picks days, not numbers, on a date or date-time field (a module's or a common one: `detected_at`). */
function datePicked(t: FilterDescriptor['type']): boolean {
  const v = t !== undefined && Object.hasOwn(FIELD_KINDS, t) ? FIELD_KINDS[t as FieldType].filterValue : undefined;
  return v === 'date' || v === 'datetime';
}

export type SearchPatch = Partial<Record<string, string | number | undefined>>;

const DATE_FORMAT = 'DD.MM.YYYY';
const API_DATE = 'YYYY-MM-DD';
/** Shown in the first row; the rest is in the collapsible panel. */
const PRIMARY = new Set(['q', 'status', 'priority', 'decision']);
/** Set by links from other pages (an import, an author, related events); shown as removable chips. */
const CHIPS: Record<string, string> = { import_id: 'Импорт', author_id: 'Автор', indicator: 'Индикатор' };

/** A chip's text: «Импорт: №12», «IP-адрес: 185.1.2.3». */
function chipText(key: string, label: string, value: string | number | undefined): string {
  if (key === 'indicator') {
    const i = parseIndicator(String(value));
    return i ? `${INDICATOR_LABELS[i.kind]}: ${i.value}` : `${label}: ${String(value)}`;
  }
  return `${label}: №${value}`;
}

/** A text input that writes to the URL after a pause in typing, on Enter, or on blur. */
function TextFilter({
  value,
  onCommit,
  placeholder,
  width,
  testId,
  prefix,
  ariaLabel,
}: {
  ariaLabel?: string;
  value: string | undefined;
  onCommit: (v: string | undefined) => void;
  placeholder: string;
  width: number | string;
  testId?: string;
  prefix?: ReactNode;
}) {
  const [text, setText] = useState(value ?? '');
  const committed = useRef(value ?? '');
  useEffect(() => {
    committed.current = value ?? '';
    setText(value ?? '');
  }, [value]);
  const commit = (v: string) => {
    const t = v.trim();
    if (t === committed.current) return;
    committed.current = t;
    onCommit(t || undefined);
  };
  useEffect(() => {
    if (text.trim() === committed.current) return;
    const timer = setTimeout(() => commit(text), 600);
    return () => clearTimeout(timer);
  });
  return (
    <Input
      allowClear
      value={text}
      placeholder={placeholder}
      prefix={prefix}
      onChange={(e) => {
        setText(e.target.value);
        if (e.type === 'click') commit(''); // the clear icon
      }}
      onPressEnter={() => commit(text)}
      onBlur={() => commit(text)}
      style={{ width }}
      data-testid={testId}
      aria-label={ariaLabel ?? placeholder}
    />
  );
}

function NumberRange({ from, to, onCommit }: { from?: string; to?: string; onCommit: (from?: string, to?: string) => void }) {
  const [a, setA] = useState<number | null>(from ? Number(from) : null);
  const [b, setB] = useState<number | null>(to ? Number(to) : null);
  useEffect(() => setA(from ? Number(from) : null), [from]);
  useEffect(() => setB(to ? Number(to) : null), [to]);
  const commit = () => onCommit(a === null ? undefined : String(a), b === null ? undefined : String(b));
  return (
    <Space.Compact style={{ width: '100%' }}>
      <InputNumber value={a} onChange={setA} onBlur={commit} onPressEnter={commit} placeholder="от" style={{ width: '50%' }} />
      <InputNumber value={b} onChange={setB} onBlur={commit} onPressEnter={commit} placeholder="до" style={{ width: '50%' }} />
    </Space.Compact>
  );
}

function DateRange({ from, to, onChange }: { from?: string; to?: string; onChange: (from?: string, to?: string) => void }) {
  const value: [dayjs.Dayjs | null, dayjs.Dayjs | null] | null =
    from || to ? [from ? dayjs(from, API_DATE) : null, to ? dayjs(to, API_DATE) : null] : null;
  return (
    <DatePicker.RangePicker
      format={DATE_FORMAT}
      value={value}
      allowEmpty={[true, true]}
      placeholder={['с', 'по']}
      style={{ width: '100%' }}
      onChange={(range) => onChange(range?.[0]?.format(API_DATE), range?.[1]?.format(API_DATE))}
    />
  );
}

/** One filter's control (everything but the first row's). */
function FilterControl({
  m,
  f,
  search,
  refs,
  set,
}: {
  m: ModuleDescriptor;
  f: FilterDescriptor;
  search: EventSearch;
  refs: EventRefs;
  set: (p: SearchPatch) => void;
}) {
  const field = m.fields.find((x) => x.key === f.param);
  const byId = field !== undefined && FIELD_KINDS[field.type].filterValue === 'id';
  const refList = useRefList(f.kind === 'in' && byId ? field.ref : undefined);
  const value = search[f.param];
  switch (f.kind) {
    case 'in':
    case 'tags': {
      const options =
        f.kind === 'tags'
          ? refs.tags.map((t) => ({ value: String(t.id), label: t.name }))
          : byId
            ? (refList.data ?? []).map((x) => ({ value: String(x.id), label: x.name }))
            : (f.options ?? []).map((o) => ({ value: o.value, label: o.label }));
      return (
        <Select
          mode="multiple"
          allowClear
          maxTagCount="responsive"
          placeholder="Все"
          value={splitList(value)}
          options={options}
          optionFilterProp="label"
          onChange={(v: string[]) => set({ [f.param]: joinList(v) })}
          style={{ width: '100%' }}
          aria-label={f.label}
          data-testid={`filter-${f.param}`}
        />
      );
    }
    case 'bool':
      return (
        <Select
          allowClear
          placeholder="Все"
          value={value === undefined ? undefined : String(value)}
          options={[
            { value: 'true', label: 'Да' },
            { value: 'false', label: 'Нет' },
          ]}
          onChange={(v?: string) => set({ [f.param]: v })}
          style={{ width: '100%' }}
          aria-label={f.label}
        />
      );
    case 'range': {
      const from = search[`${f.param}_from`];
      const to = search[`${f.param}_to`];
      const patch = (a?: string, b?: string) => set({ [`${f.param}_from`]: a, [`${f.param}_to`]: b });
      return datePicked(f.type) ? (
        <DateRange
          from={from === undefined ? undefined : String(from)}
          to={to === undefined ? undefined : String(to)}
          onChange={patch}
        />
      ) : (
        <NumberRange
          from={from === undefined ? undefined : String(from)}
          to={to === undefined ? undefined : String(to)}
          onCommit={patch}
        />
      );
    }
    case 'assignee':
      return (
        <AssigneeFilter
          code={m.code}
          value={value === undefined ? undefined : String(value)}
          onChange={(v) => set({ [f.param]: v })}
        />
      );
    case 'eq':
    case 'contains':
    case 'text':
      return (
        <TextFilter
          value={value === undefined ? undefined : String(value)}
          onCommit={(v) => set({ [f.param]: v })}
          placeholder={f.kind === 'eq' ? 'Точное значение' : 'Содержит'}
          width="100%"
          testId={`filter-${f.param}`}
          ariaLabel={f.label}
        />
      );
    default:
      return null;
  }
}

export function FilterBar({
  m,
  search,
  refs,
  onChange,
  onReset,
  canReset,
}: {
  m: ModuleDescriptor;
  search: EventSearch;
  refs: EventRefs;
  onChange: (patch: SearchPatch) => void;
  onReset: () => void;
  canReset: boolean;
}) {
  const filters = useMemo(() => listFiltersOf(m), [m]);
  const advanced = filters.filter((f) => !PRIMARY.has(f.param) && !(f.param in CHIPS));
  const advancedActive = advanced.filter((f) => paramsOfFilter(f).some((k) => search[k] !== undefined)).length;
  const [open, setOpen] = useState(advancedActive > 0);
  const has = (param: string) => filters.some((f) => f.param === param);

  const refSelect = (
    param: 'status' | 'priority' | 'decision',
    label: string,
    items: readonly { code: string; name: string }[],
  ) =>
    has(param) && (
      <Select
        mode="multiple"
        allowClear
        maxTagCount="responsive"
        placeholder={label}
        value={splitList(search[param])}
        options={items.map((x) => ({ value: x.code, label: x.name }))}
        optionFilterProp="label"
        onChange={(v: string[]) => onChange({ [param]: joinList(v) })}
        style={{ width: 170 }}
        aria-label={label}
        data-testid={`filter-${param}`}
      />
    );

  const chips = Object.entries(CHIPS).filter(([k]) => search[k] !== undefined);

  return (
    <Flex vertical gap={12} data-testid="filter-bar">
      <Flex gap={8} wrap align="center">
        <TextFilter
          value={search.q}
          onCommit={(v) => onChange({ q: v })}
          placeholder="Домен, IP, номер, адрес, текст"
          ariaLabel="Поиск по событиям"
          width={280}
          testId="filter-q"
          prefix={<SearchOutlined style={{ color: 'rgba(0,0,0,.35)' }} />}
        />
        {refSelect('status', 'Статус', refs.statuses)}
        {refSelect('priority', 'Приоритет', refs.priorities)}
        {refSelect('decision', 'Решение', refs.decisions)}
        <Badge count={advancedActive} size="small" color="#2f54eb">
          <Button
            icon={<FilterOutlined />}
            onClick={() => setOpen((v) => !v)}
            type={open ? 'primary' : 'default'}
            ghost={open}
            data-testid="filters-toggle"
          >
            Фильтры
          </Button>
        </Badge>
        {canReset && (
          <Button icon={<ClearOutlined />} onClick={onReset} type="link" data-testid="filters-reset">
            Сбросить
          </Button>
        )}
        {chips.map(([k, label]) => (
          <Tag key={k} closable onClose={() => onChange({ [k]: undefined })} style={{ marginInlineEnd: 0 }}>
            {chipText(k, label, search[k])}
          </Tag>
        ))}
      </Flex>
      {open && (
        <div
          data-testid="filters-panel"
          style={{
            display: 'grid',
            gridTemplateColumns: 'repeat(auto-fill, minmax(230px, 1fr))',
            gap: '12px 16px',
            padding: 16,
            background: 'rgba(0,0,0,0.02)',
            borderRadius: 8,
          }}
        >
          {advanced.map((f) => (
            <div key={f.param} style={{ display: 'flex', flexDirection: 'column', gap: 4, minWidth: 0 }}>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {f.label}
              </Typography.Text>
              <FilterControl m={m} f={f} search={search} refs={refs} set={onChange} />
            </div>
          ))}
        </div>
      )}
    </Flex>
  );
}
