/* The list table's columns, from the module descriptor's `columns` (labels, types, sortability). */
import { ExportOutlined } from '@ant-design/icons';
import {
  COMMON_FIELDS,
  type ColumnDescriptor,
  columnsOf,
  fieldOf,
  type ModuleDescriptor,
  type WhitelistKind,
} from '@forpost/contract/modules';
import { Link } from '@tanstack/react-router';
import { Flex, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { ReactNode } from 'react';
import { EMPTY_VALUE, formatDateTime } from '../../../lib/format';
import type { EventRefs } from '../api/queries';
import {
  DecisionValue,
  FieldValue,
  MlStateTag,
  PriorityTag,
  StatusTag,
  safeHref,
  sourceLabel,
  TagsValue,
  WhitelistTag,
} from '../components/values';
import { type EventSearch, sortOrderOf } from '../model/search';
import type { EventItem } from '../model/types';

/** Column widths by type (the table uses a fixed layout: long values get an ellipsis, headers wrap). */
const WIDTHS: Record<ColumnDescriptor['type'], number> = {
  id: 72,
  company: 150,
  status: 112,
  priority: 104,
  decision: 124,
  tags: 140,
  datetime: 124,
  user: 140,
  import: 90,
  enum: 128,
  string: 150,
  text: 200,
  domain: 210,
  host: 170,
  url: 210,
  email: 180,
  ip: 116,
  phone: 140,
  integer: 92,
  number: 92,
  boolean: 86,
  date: 100,
  card: 172,
  inn: 116,
  ogrn: 136,
  string_list: 160,
  ref: 140,
};
/** Wide enough for the header's longest word (headers wrap between words, never inside one). */
function widthOf(col: ColumnDescriptor): number {
  const longest = Math.max(...col.label.split(/[\s,-]+/).map((w) => w.length));
  return Math.max(WIDTHS[col.type], longest * 8.5 + (col.sortable ? 46 : 26));
}

/** The column that names the event (the first of the module's own) gets room to be read. */
const PRIMARY_WIDTH = 240;

/** The selection checkbox column. */
export const SELECTION_WIDTH = 40;

/** Total width of the columns (the table scrolls horizontally beyond it). */
export const columnsWidth = (cols: ColumnsType<EventItem>) =>
  cols.reduce((n, c) => n + (typeof c.width === 'number' ? c.width : 120), 0);

function EventLink({ section, id, children, grow }: { section: string; id: number; children: ReactNode; grow?: boolean }) {
  return (
    <Link
      to="/$section/$id"
      params={{ section, id: String(id) }}
      data-testid={`event-link-${id}`}
      style={grow ? { minWidth: 0, overflow: 'hidden', display: 'inline-flex', alignItems: 'center', gap: 6 } : undefined}
    >
      {children}
    </Link>
  );
}

function commonCell(col: ColumnDescriptor, row: EventItem, refs: EventRefs, section: string): ReactNode {
  switch (col.type) {
    case 'id':
      return <EventLink section={section} id={row.id}>{`№${row.id}`}</EventLink>;
    case 'company':
      return row.company_name;
    case 'status':
      return <StatusTag statuses={refs.statuses} id={row.status_id} />;
    case 'priority':
      return <PriorityTag priorities={refs.priorities} id={row.priority_id} />;
    case 'decision':
      return <DecisionValue decisions={refs.decisions} id={row.decision_id} />;
    case 'tags':
      return <TagsValue tags={refs.tags} ids={row.tags} />;
    case 'datetime': {
      const v = row[col.key];
      return typeof v === 'string' ? <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(v)}</span> : EMPTY_VALUE;
    }
    case 'user':
      return row.author_name ?? EMPTY_VALUE;
    case 'import':
      return row.import_id ? `№${row.import_id}` : EMPTY_VALUE;
    case 'string':
      return (
        <EventLink section={section} id={row.id}>
          {row.title}
        </EventLink>
      );
    default:
      if (col.key === 'source') return sourceLabel(row.source);
      if (col.key === 'ml_state') return <MlStateTag state={row.ml_state} />;
      if (col.key === 'whitelist_kind') return <WhitelistTag kind={row.whitelist_kind as WhitelistKind | null} />;
      return String(row[col.key] ?? EMPTY_VALUE);
  }
}

/**
 * Table columns of a module. The first of the module's own columns links to the event and carries
 * the whitelist tag; with «Все компании» selected a «Компания» column follows the number.
 */
export function eventColumns(
  m: ModuleDescriptor,
  refs: EventRefs,
  search: EventSearch,
  section: string,
  showCompany: boolean,
): ColumnsType<EventItem> {
  const cols = columnsOf(m);
  if (showCompany && !cols.some((c) => c.key === 'company_id')) {
    const company = COMMON_FIELDS.find((c) => c.key === 'company_id');
    const at = cols[0]?.key === 'id' ? 1 : 0;
    if (company) cols.splice(at, 0, { key: company.key, label: company.label, type: company.type, sortable: true, common: true });
  }
  const primary = cols.find((c) => !c.common)?.key;
  const last = cols[cols.length - 1]?.key;
  return cols.map((col) => ({
    key: col.key,
    dataIndex: col.key,
    title: col.label,
    width: col.key === primary ? Math.max(widthOf(col), PRIMARY_WIDTH) : widthOf(col),
    // The number stays on the left and the last column (usually «Создано») on the right while scrolling.
    fixed: col.type === 'id' ? ('left' as const) : col.key === last ? ('right' as const) : undefined,
    sorter: col.sortable,
    sortOrder: col.sortable ? sortOrderOf(search, col.key) : undefined,
    sortDirections: ['descend', 'ascend'],
    showSorterTooltip: false,
    render: (_v: unknown, row: EventItem) => {
      if (col.common) return commonCell(col, row, refs, section);
      const f = fieldOf(m, col.key);
      const raw = row[col.key];
      if (!f) return String(raw ?? EMPTY_VALUE);
      if (col.key !== primary) return <FieldValue field={f} value={raw} row={row} mode="cell" />;
      // The primary value links to the event; an external URL gets its own small link beside it.
      const external = f.type === 'url' && typeof raw === 'string' ? safeHref(raw) : null;
      const plain = f.type === 'url' || f.type === 'string' || f.type === 'text';
      return (
        <Flex gap={6} align="center" style={{ minWidth: 0 }}>
          <EventLink section={section} id={row.id} grow>
            {plain ? (
              <Typography.Text ellipsis={{ tooltip: String(raw ?? '') }} style={{ color: 'inherit', maxWidth: '100%' }}>
                {raw === null || raw === undefined ? `№${row.id}` : String(raw)}
              </Typography.Text>
            ) : (
              <FieldValue field={f} value={raw} row={row} mode="cell" />
            )}
          </EventLink>
          {external && (
            <a
              href={external}
              target="_blank"
              rel="noopener noreferrer"
              aria-label="Открыть ссылку"
              title={external}
              style={{ flex: 'none' }}
            >
              <ExportOutlined />
            </a>
          )}
          <WhitelistTag kind={row.whitelist_kind as WhitelistKind | null} />
        </Flex>
      );
    },
  }));
}
