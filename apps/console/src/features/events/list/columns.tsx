/* The list table's columns, from the module descriptor's `columns` (labels, types, sortability). */
import { ExportOutlined } from '@ant-design/icons';
import {
  type ColumnDescriptor,
  columnOf,
  fieldOf,
  LIST_ONLY_FIELDS,
  type ModuleDescriptor,
  type WhitelistKind,
} from '@forpost/contract/modules';
import { listColumnKeysOf, pinnedColumnsOf, primaryColumnOf, TRIAGE_KEYS } from '@forpost/contract/views';
import { Link } from '@tanstack/react-router';
import { Flex, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { ReactNode } from 'react';
import { FONT_FAMILY } from '../../../lib/font';
import { EMPTY_VALUE, formatDateTime } from '../../../lib/format';
import type { EventRefs } from '../api/queries';
import { SlaValue } from '../components/SlaValue';
import {
  DecisionValue,
  FieldValue,
  MlStateTag,
  PRIMARY_CELL,
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
  sla: 160,
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
  return Math.max(col.listWidth ?? WIDTHS[col.type], headerWidth(col));
}
function headerWidth(col: ColumnDescriptor): number {
  const longest = Math.max(...col.label.split(/[\s,-]+/).map((w) => w.length));
  return longest * 8.5 + (col.sortable ? 46 : 26);
}

/** The column that names the event (the first of the module's own) gets room to be read. */
const PRIMARY_WIDTH = 190;
/**
 * …and what is left beside the selection and the status where the screen is too narrow to pin columns
 * (the primary and the status come first): 390 px phones see both.
 */
const compactPrimaryWidth = (width: number | undefined) =>
  Math.min(150, Math.max(90, (width ?? 0) - SELECTION_WIDTH - STATUS_MIN));

/**
 * Columns pinned to the right edge: what triage reads first — how overdue the event is, its status,
 * priority and assignee. They are always read whole at 1280 px (their widths fit the longest name
 * of the module's statuses and priorities); the decision, the tags and the module's own columns
 * scroll between them and the event's name.
 */
export const PINNED_RIGHT = ['sla_due_at', 'status_id', 'priority_id', 'assignee_id'] as const;
/** A tag in a small table cell: the tag's padding and border, the cell's padding, a little slack. */
const TAG_CHROME = 7 * 2 + 2 + 8 * 2 + 6;
const STATUS_MIN = 100;
/** The assignee's name (longer names end with an ellipsis; the whole name is in the title). */
const ASSIGNEE_WIDTH = 150;
const ASSIGNEE_WIDTH_WIDE = 190;

let measureCtx: CanvasRenderingContext2D | null | undefined;
/** Width of a tag's text (12 px, the console's font); an estimate where there is no canvas (tests). */
export function tagTextWidth(text: string): number {
  if (measureCtx === undefined) {
    try {
      measureCtx = document.createElement('canvas').getContext('2d');
      if (measureCtx) measureCtx.font = `12px ${FONT_FAMILY}`;
    } catch {
      measureCtx = null;
    }
  }
  return Math.ceil(measureCtx ? measureCtx.measureText(text).width : text.length * 7.2);
}
/** Wide enough for the longest of `names` as a tag, within [min, max]. */
const tagsWidth = (names: string[], min: number, max: number) =>
  Math.min(max, Math.max(min, ...names.map((n) => tagTextWidth(n) + TAG_CHROME)));

/** The width of a right-pinned column (never narrower than its header); undefined for other columns. */
function pinnedRightWidth(col: ColumnDescriptor, refs: EventRefs, wide: boolean): number | undefined {
  const head = headerWidth(col);
  switch (col.key) {
    case 'sla_due_at':
      // The compact text as a tag: the longest of days-and-hours and hours-and-minutes.
      return Math.max(head, ...['−10 д 23 ч', '−23 ч 59 мин'].map((t) => tagTextWidth(t) + TAG_CHROME));
    case 'status_id':
      return tagsWidth(
        refs.statuses.map((x) => x.name),
        Math.max(head, STATUS_MIN),
        220,
      );
    case 'priority_id':
      return tagsWidth(
        refs.priorities.map((x) => x.name),
        head,
        180,
      );
    case 'assignee_id':
      return Math.max(head, wide ? ASSIGNEE_WIDTH_WIDE : ASSIGNEE_WIDTH);
    default:
      return undefined;
  }
}
/** A scrolling column of a pinned table: the decision fits its longest name, the tags get room for two. */
function middleWidth(col: ColumnDescriptor, refs: EventRefs): number {
  if (col.key === 'decision_id')
    return tagsWidth(
      refs.decisions.map((x) => x.name),
      headerWidth(col),
      200,
    );
  if (col.key === 'tags') return Math.max(180, headerWidth(col));
  return widthOf(col);
}
/** Narrow screens (nothing pinned): the triage columns stay narrow (longer names end with an ellipsis). */
const NARROW_WIDTHS: Record<string, number> = {
  status_id: STATUS_MIN,
  priority_id: 100,
  decision_id: 112,
  assignee_id: 120,
  tags: 120,
};
/** Table width from which the wide assignee column is used. */
const WIDE_TABLE = 1400;

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
      return <StatusTag statuses={refs.statuses} id={row.status_id} clip />;
    case 'priority':
      return <PriorityTag priorities={refs.priorities} id={row.priority_id} clip />;
    case 'decision':
      return <DecisionValue decisions={refs.decisions} id={row.decision_id} />;
    case 'tags':
      return <TagsValue tags={refs.tags} ids={row.tags} clip />;
    case 'datetime': {
      const v = row[col.key];
      return typeof v === 'string' ? <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(v)}</span> : EMPTY_VALUE;
    }
    case 'user': {
      // author_id → author_name, assignee_id → assignee_name
      const name = row[col.key.replace(/_id$/, '_name')];
      return typeof name === 'string' ? name : EMPTY_VALUE;
    }
    case 'import':
      return row.import_id ? `№${row.import_id}` : EMPTY_VALUE;
    case 'sla':
      return <SlaValue sla={row.sla} compact />;
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

/** The columns a module's list shows: the user's choice (else the descriptor's), plus the pinned ones. */
export function visibleColumnKeys(m: ModuleDescriptor, chosen: readonly string[] | undefined): string[] {
  const known = new Set(listColumnKeysOf(m));
  // By default the SLA deadline comes first among the scrolling columns (next to the event's name).
  const base = (chosen?.length ? chosen : [...LIST_ONLY_FIELDS.map((f) => f.key), ...m.columns]).filter((k) => known.has(k));
  return [...base, ...pinnedColumnsOf(m).filter((k) => !base.includes(k))];
}

/** Width of the columns that stay on screen when pinned (the table needs this much, plus the selection). */
export const pinnedWidth = (cols: ColumnsType<EventItem>) =>
  cols.reduce((n, c) => n + (c.fixed && typeof c.width === 'number' ? c.width : 0), 0);

/**
 * Table columns of a module, in the user's order. With `pinned`, the primary column (it links to the
 * event and carries the whitelist tag) stays on the left and the triage columns (status, priority,
 * decision, assignee, tags) on the right; the module's other columns scroll between them. Without it
 * (narrow screens) nothing is pinned and the primary column and the triage columns come first. With
 * «Все компании» selected a «Компания» column leads the scrolling ones.
 */
export function eventColumns(
  m: ModuleDescriptor,
  refs: EventRefs,
  search: EventSearch,
  section: string,
  showCompany: boolean,
  layout: { keys: readonly string[]; pinned: boolean; width?: number },
): ColumnsType<EventItem> {
  const primary = primaryColumnOf(m);
  const head = primary && layout.keys.includes(primary) ? [primary] : [];
  let order: string[];
  let right: readonly string[] = [];
  if (layout.pinned) {
    // Pinned: the name on the left; the SLA, status, priority and assignee on the right; the rest
    // (the decision and the tags among them) scroll between, the company leading them.
    right = PINNED_RIGHT.filter((k) => layout.keys.includes(k));
    const middle = layout.keys.filter((k) => k !== primary && !right.includes(k));
    if (showCompany && !middle.includes('company_id')) middle.unshift('company_id');
    order = [...head, ...middle, ...right];
  } else {
    // Narrow screens pin nothing: the status right after the name (a phone shows these two), then
    // the SLA deadline, the other triage columns and the rest.
    const triage = TRIAGE_KEYS.filter((k) => layout.keys.includes(k));
    const middle = layout.keys.filter((k) => k !== primary && !(triage as readonly string[]).includes(k));
    if (showCompany && !middle.includes('company_id')) middle.splice(middle[0] === 'sla_due_at' ? 1 : 0, 0, 'company_id');
    const sla = middle[0] === 'sla_due_at' ? middle.splice(0, 1) : [];
    const [status, ...restTriage] = triage;
    order = [...head, ...(status ? [status] : []), ...sla, ...restTriage, ...middle];
  }
  const cols = order.map((k) => columnOf(m, k));
  const wide = layout.pinned && (layout.width ?? 0) >= WIDE_TABLE;
  return cols.map((col) => ({
    key: col.key,
    dataIndex: col.key,
    title: col.label,
    width:
      col.key === primary
        ? layout.pinned
          ? Math.max(widthOf(col), PRIMARY_WIDTH)
          : compactPrimaryWidth(layout.width)
        : layout.pinned
          ? (pinnedRightWidth(col, refs, wide) ?? middleWidth(col, refs))
          : Math.max(NARROW_WIDTHS[col.key] ?? widthOf(col), headerWidth(col)),
    fixed: !layout.pinned
      ? undefined
      : col.key === primary
        ? ('left' as const)
        : right.includes(col.key)
          ? ('right' as const)
          : undefined,
    // One line per cell: longer values end with an ellipsis, the whole value is in the tooltip.
    ellipsis: col.key !== primary,
    sorter: col.sortable,
    sortOrder: col.sortable ? sortOrderOf(search, col.key) : undefined,
    sortDirections: ['descend', 'ascend'],
    showSorterTooltip: false,
    render: (_v: unknown, row: EventItem) => {
      if (col.common) return commonCell(col, row, refs, section);
      const f = fieldOf(m, col.key);
      const raw = row[col.key];
      if (!f) return String(raw ?? EMPTY_VALUE);
      if (col.key !== primary)
        return (
          <div title={raw === null || raw === undefined ? undefined : String(raw)} style={CLIP}>
            <FieldValue field={f} value={raw} row={row} mode="cell" />
          </div>
        );
      // The primary value links to the event; an external URL gets its own small link beside it.
      const primaryCell = PRIMARY_CELL[f.type];
      const external = primaryCell === 'link' && typeof raw === 'string' ? safeHref(raw) : null;
      const plain = primaryCell !== 'display';
      return (
        <Flex gap={6} align="center" style={{ minWidth: 0 }}>
          <EventLink section={section} id={row.id} grow>
            {plain ? (
              // Two lines before the ellipsis: titles that differ late («…: розничные» / «…: корпоративные») read whole.
              <Typography.Paragraph
                ellipsis={{ rows: 2, tooltip: String(raw ?? '') }}
                style={{ color: 'inherit', maxWidth: '100%', margin: 0 }}
              >
                {raw === null || raw === undefined ? `№${row.id}` : String(raw)}
              </Typography.Paragraph>
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

const CLIP = { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' } as const;
