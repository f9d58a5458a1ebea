/*
 * How event values look, shared by the list cells and the detail page: one renderer per field
 * type of the registry, so every module gets the same formatting (dates dd.MM.yyyy HH:mm, card
 * numbers in groups of four, safe external links, «Кириллица» on IDN domains…).
 */
import { ML_STATE_COLORS } from '@forpost/contract/classifier';
import { groupCardNumber, idnAsciiForm, isCyrillicHost, isMixedScriptHost, latinLookalikeOf } from '@forpost/contract/helpers';
import {
  type FieldDescriptor,
  type FieldType,
  ML_STATE_LABELS,
  type MlState,
  SOURCE_LABELS,
  type Source,
  WHITELIST_KIND_LABELS,
  type WhitelistKind,
} from '@forpost/contract/modules';
import { Space, Tag, Tooltip, Typography } from 'antd';
import type { ComponentType, ReactNode } from 'react';
import { ColorTag } from '../../../components/ColorTag';
import { EMPTY_VALUE, formatDate, formatDateTime, formatNumber } from '../../../lib/format';
import { useRefList } from '../api/queries';
import type { DecisionItem, PriorityItem, StatusItem, TagItem } from '../model/types';

export const isEmpty = (v: unknown) => v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);
const Empty = () => <Typography.Text type="secondary">{EMPTY_VALUE}</Typography.Text>;

/** Only http(s) URLs become links; anything else (javascript:, data:…) stays text. */
export function safeHref(value: string): string | null {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** An external link that never gives the opened page access to the console. */
export function SafeLink({ href, children, ellipsis }: { href: string; children?: ReactNode; ellipsis?: boolean }) {
  const safe = safeHref(href);
  const text = children ?? href;
  if (!safe) return <Typography.Text>{text}</Typography.Text>;
  return (
    <Typography.Link
      href={safe}
      target="_blank"
      rel="noopener noreferrer"
      ellipsis={ellipsis}
      style={ellipsis ? { maxWidth: '100%' } : { wordBreak: 'break-all' }}
      title={href}
    >
      {text}
    </Typography.Link>
  );
}

function CyrillicTag() {
  return (
    <Tooltip title="Домен содержит кириллические символы (IDN)">
      <Tag color="volcano" style={{ marginInlineEnd: 0 }}>
        Кириллица
      </Tag>
    </Tooltip>
  );
}

/** A host whose label mixes scripts (Latin «а» among Cyrillic letters…): a lookalike; its punycode on hover. */
function MixedScriptTag({ punycode }: { punycode: string }) {
  return (
    <Tooltip title={`Буквы разных алфавитов в одной части имени — возможна подмена. Punycode: ${punycode}`}>
      <Tag color="red" style={{ marginInlineEnd: 0 }} data-testid="mixed-script">
        Смешанные алфавиты
      </Tag>
    </Tooltip>
  );
}

/**
 * A host written wholly in Cyrillic (or Greek) letters that pass for Latin ones under a Latin TLD
 * («аррӏе.com»): a lookalike of the Latin name it reads as; that name and the punycode on hover.
 */
function LatinLookalikeTag({ reading, punycode }: { reading: string; punycode: string }) {
  return (
    <Tooltip
      title={`Имя из нелатинских букв, похожих на латинские: читается как ${reading} — возможна подмена. Punycode: ${punycode}`}
    >
      <Tag color="red" style={{ marginInlineEnd: 0 }} data-testid="latin-lookalike">
        Похоже на латиницу
      </Tag>
    </Tooltip>
  );
}

/**
 * A domain as the user reads it. Any Unicode host (its ASCII form differs) shows its punycode on hover, in
 * lists too; a mixed-script one or a Latin lookalike also carries its mark; the detail page writes the
 * punycode out beside it.
 */
function DomainValue({ value, punycode }: { value: string; punycode?: unknown }) {
  const idn = isCyrillicHost(value);
  const mixed = isMixedScriptHost(value);
  const reading = mixed ? null : latinLookalikeOf(value);
  const ascii = idnAsciiForm(value);
  return (
    <Space size={6} wrap>
      {ascii ? (
        <Tooltip title={`Punycode: ${ascii}`}>
          <span data-testid="idn-host">{value}</span>
        </Tooltip>
      ) : (
        <span>{value}</span>
      )}
      {mixed && <MixedScriptTag punycode={typeof punycode === 'string' ? punycode : (ascii ?? value)} />}
      {reading && <LatinLookalikeTag reading={reading} punycode={typeof punycode === 'string' ? punycode : (ascii ?? value)} />}
      {idn && <CyrillicTag />}
      {idn && typeof punycode === 'string' && punycode !== value && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {punycode}
        </Typography.Text>
      )}
    </Space>
  );
}

export function WhitelistTag({ kind }: { kind: WhitelistKind | null | undefined }) {
  if (kind !== 'whitelistClient' && kind !== 'whitelistPartner') return null;
  return (
    <Tooltip title="Совпадает с записью белого списка">
      <Tag color={kind === 'whitelistClient' ? 'green' : 'cyan'} style={{ marginInlineEnd: 0 }}>
        {WHITELIST_KIND_LABELS[kind]}
      </Tag>
    </Tooltip>
  );
}

/** A tag that fits its table cell: one line, an ellipsis and the full name on hover when it is too long. */
const CLIPPED = {
  marginInlineEnd: 0,
  maxWidth: '100%',
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  whiteSpace: 'nowrap',
  verticalAlign: 'middle',
} as const;

export function StatusTag({
  statuses,
  id,
  clip,
}: {
  statuses: readonly StatusItem[];
  id: number | null | undefined;
  clip?: boolean;
}) {
  const s = statuses.find((x) => x.id === id);
  if (!s) return id ? <Tag>{`#${id}`}</Tag> : <Empty />;
  return (
    <ColorTag color={s.color} style={clip ? CLIPPED : { marginInlineEnd: 0 }} title={clip ? s.name : undefined}>
      {s.name}
    </ColorTag>
  );
}

export function PriorityTag({
  priorities,
  id,
  clip,
}: {
  priorities: readonly PriorityItem[];
  id: number | null | undefined;
  clip?: boolean;
}) {
  const p = priorities.find((x) => x.id === id);
  if (!p) return id ? <Tag>{`#${id}`}</Tag> : <Empty />;
  return (
    <ColorTag color={p.color} style={clip ? CLIPPED : { marginInlineEnd: 0 }} title={clip ? p.name : undefined}>
      {p.name}
    </ColorTag>
  );
}

export function DecisionValue({ decisions, id }: { decisions: readonly DecisionItem[]; id: number | null | undefined }) {
  const d = decisions.find((x) => x.id === id);
  if (!d) return id ? <span>{`#${id}`}</span> : <Empty />;
  return <span>{d.name}</span>;
}

export function TagsValue({
  tags,
  ids,
  clip,
}: {
  tags: readonly TagItem[];
  ids: readonly number[] | null | undefined;
  clip?: boolean;
}) {
  if (!ids?.length) return <Empty />;
  if (clip) {
    // One line in a table cell: as many tags as fit, each shortened if needed; every name on hover.
    const names = ids.map((id) => tags.find((x) => x.id === id)?.name ?? `#${id}`);
    return (
      <div title={names.join(', ')} style={{ display: 'flex', gap: 4, overflow: 'hidden', minWidth: 0 }}>
        {ids.map((id, i) => (
          <ColorTag key={id} color={tags.find((x) => x.id === id)?.color} style={{ ...CLIPPED, flex: '0 1 auto', minWidth: 24 }}>
            {names[i]}
          </ColorTag>
        ))}
      </div>
    );
  }
  return (
    <Space size={[4, 4]} wrap>
      {ids.map((id) => {
        const t = tags.find((x) => x.id === id);
        return (
          <ColorTag key={id} color={t?.color} style={{ marginInlineEnd: 0 }}>
            {t?.name ?? `#${id}`}
          </ColorTag>
        );
      })}
    </Space>
  );
}

export const mlStateLabel = (s: string) => ML_STATE_LABELS[s as MlState] ?? s;
export const sourceLabel = (s: string) => SOURCE_LABELS[s as Source] ?? s;

export function MlStateTag({ state }: { state: string }) {
  return (
    <Tag color={ML_STATE_COLORS[state as MlState] ?? 'default'} style={{ marginInlineEnd: 0 }}>
      {mlStateLabel(state)}
    </Tag>
  );
}

function RefName({ field, id }: { field: FieldDescriptor; id: number }) {
  const list = useRefList(field.ref);
  const name = list.data?.find((x) => x.id === id)?.name;
  return <span>{name ?? `#${id}`}</span>;
}

/** A module field value's plain text (the value is never empty here). */
type TextOf = (field: FieldDescriptor, value: unknown) => string;
const anyText: TextOf = (_f, value) => (typeof value === 'object' ? JSON.stringify(value) : String(value));
// Exact-match integers are codes (port, HTTP status): never grouped like amounts.
const numberText: TextOf = (field, value) =>
  typeof value !== 'number' ? String(value) : field.filter === 'eq' ? String(value) : formatNumber(value);

/** Plain text per field type (history entries, titles, the values shown as text). */
const FIELD_TEXT: Record<FieldType, TextOf> = {
  string: anyText,
  text: anyText,
  domain: anyText,
  host: anyText,
  url: anyText,
  email: anyText,
  ip: anyText,
  phone: anyText,
  inn: anyText,
  ogrn: anyText,
  ref: anyText,
  date: (_f, value) => formatDate(String(value)),
  datetime: (_f, value) => formatDateTime(String(value)),
  boolean: (_f, value) => (value ? 'Да' : 'Нет'),
  enum: (field, value) => field.options?.find((o) => o.value === value)?.label ?? String(value),
  card: (_f, value) => groupCardNumber(String(value)),
  integer: numberText,
  number: numberText,
  string_list: (_f, value) => (Array.isArray(value) ? value.join(', ') : String(value)),
};

/** Plain text of a module field value (history entries, titles); no links or tags. */
export function fieldText(field: FieldDescriptor, value: unknown): string {
  if (isEmpty(value)) return EMPTY_VALUE;
  return FIELD_TEXT[field.type](field, value);
}

/** What a display gets: the value (never empty), the whole event (a domain's punycode), the place. */
export interface DisplayProps {
  field: FieldDescriptor;
  value: unknown;
  row?: Record<string, unknown>;
  mode: 'cell' | 'detail';
}

/** The value as text; short values (numbers, dates, codes) do not break across lines in a table cell. */
const NowrapText = ({ field, value, mode }: DisplayProps) => (
  <span style={{ whiteSpace: mode === 'cell' ? 'nowrap' : undefined }}>{fieldText(field, value)}</span>
);
const PlainText = ({ field, value }: DisplayProps) => <span>{fieldText(field, value)}</span>;
const CopyableDisplay = ({ value, mode }: DisplayProps) => (
  <Typography.Text copyable={mode === 'detail'}>{String(value)}</Typography.Text>
);
const LineDisplay = ({ value, mode }: DisplayProps) =>
  mode === 'cell' ? (
    <Typography.Text ellipsis={{ tooltip: String(value) }} style={{ maxWidth: '100%' }}>
      {String(value)}
    </Typography.Text>
  ) : (
    <span style={{ wordBreak: 'break-word' }}>{String(value)}</span>
  );

/**
 * One display component per field type (as Twenty's FieldDisplay hands off): `cell` = compact (one
 * line, ellipsis) for the table; `detail` = full (multi-line texts, punycode of IDN domains).
 */
export const FIELD_DISPLAYS: Record<FieldType, ComponentType<DisplayProps>> = {
  url: ({ value, mode }) => <SafeLink href={String(value)} ellipsis={mode === 'cell'} />,
  domain: ({ value, row, mode }) => (
    <DomainValue value={String(value)} punycode={mode === 'detail' ? row?.domain_punycode : undefined} />
  ),
  email: CopyableDisplay,
  ip: CopyableDisplay,
  host: CopyableDisplay,
  card: ({ value }) => (
    <Typography.Text code style={{ whiteSpace: 'nowrap' }}>
      {groupCardNumber(String(value))}
    </Typography.Text>
  ),
  boolean: ({ value }) => (value ? <Tag color="red">Да</Tag> : <span>Нет</span>),
  ref: ({ field, value }) => (typeof value === 'number' ? <RefName field={field} id={value} /> : <span>{String(value)}</span>),
  string_list: ({ value }) => (
    <Space size={[4, 4]} wrap>
      {(Array.isArray(value) ? value : [value]).map((v) => (
        <Tag key={String(v)} style={{ marginInlineEnd: 0 }}>
          {String(v)}
        </Tag>
      ))}
    </Space>
  ),
  text: ({ value, mode }) =>
    mode === 'cell' ? (
      <Typography.Text ellipsis={{ tooltip: String(value) }} style={{ maxWidth: '100%' }}>
        {String(value)}
      </Typography.Text>
    ) : (
      <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', marginBottom: 0 }}>{String(value)}</Typography.Paragraph>
    ),
  string: LineDisplay,
  integer: NowrapText,
  number: NowrapText,
  date: NowrapText,
  datetime: NowrapText,
  inn: NowrapText,
  ogrn: NowrapText,
  phone: NowrapText,
  enum: PlainText,
};

/**
 * How the list's primary column shows a value of the type: `text` — the value itself, as the link to
 * the event (two lines before the ellipsis); `link` — the same, with the external link beside it;
 * `display` — the type's display inside the link.
 */
export const PRIMARY_CELL: Record<FieldType, 'text' | 'link' | 'display'> = {
  url: 'link',
  string: 'text',
  text: 'text',
  domain: 'display',
  host: 'display',
  email: 'display',
  ip: 'display',
  phone: 'display',
  integer: 'display',
  number: 'display',
  boolean: 'display',
  date: 'display',
  datetime: 'display',
  enum: 'display',
  card: 'display',
  inn: 'display',
  ogrn: 'display',
  string_list: 'display',
  ref: 'display',
};

/** A module field's value, by its type's display (empty: a dash). */
export function FieldValue(props: DisplayProps) {
  if (isEmpty(props.value)) return <Empty />;
  const Display = FIELD_DISPLAYS[props.field.type];
  return <Display {...props} />;
}
