/*
 * «Мои экспорты»: a user's exports of an event list (what the list's filters select) to CSV or
 * XLSX, built by a background job and kept for the retention period set in the configs.
 */
import { z } from 'zod';
import { MSG } from './messages';
import {
  ASSIGNEE_LABEL,
  COMMON_FIELDS,
  hasDecisions,
  MODULE_CODES,
  type ModuleCode,
  type ModuleDescriptor,
} from './modules/index';

export const EXPORT_FORMATS = ['csv', 'xlsx', 'stix'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
export const EXPORT_FORMAT_LABELS: Record<ExportFormat, string> = {
  csv: 'CSV (UTF-8, для Excel)',
  xlsx: 'Excel (XLSX)',
  stix: 'STIX 2.1 (JSON, bundle)',
};
/** The file name's extension of a format. A STIX export holds every event's objects, whatever `fields` says. */
export const EXPORT_EXTENSIONS: Record<ExportFormat, string> = { csv: 'csv', xlsx: 'xlsx', stix: 'stix.json' };

export const EXPORT_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];
export const EXPORT_STATUS_LABELS: Record<ExportStatus, string> = {
  queued: 'В очереди',
  running: 'Формируется',
  done: 'Готов',
  failed: 'Ошибка',
};
export const EXPORT_STATUS_COLORS: Record<ExportStatus, string> = {
  queued: 'default',
  running: 'processing',
  done: 'success',
  failed: 'error',
};

/** Data rows per XLSX sheet (Excel's 1,048,576 rows minus the header); more rows go on the next sheet. */
export const XLSX_ROWS_PER_SHEET = 1_048_575;
/** CSV for Excel: UTF-8 with a BOM, `;` between cells (the list separator of Russian Excel). */
export const EXPORT_CSV_DELIMITER = ';';
export const EXPORT_MAX_FIELDS = 200;

export const EXPORT_MSG = {
  notFound: 'Экспорт не найден',
  notReady: 'Файл экспорта ещё не готов',
  expired: 'Срок хранения файла истёк',
  fieldUnknown: 'Неизвестное поле',
  noFields: 'Выберите хотя бы одно поле',
  failed: 'Не удалось сформировать файл, попробуйте ещё раз',
  crashed: 'Экспорт прерван: превышено число попыток',
  queueUnavailable: 'Очередь фоновых задач недоступна, попробуйте позже',
  moduleUnknown: 'Модуль не найден',
  /** A running export whose worker died; another worker takes it over within half a minute. */
  stalled: 'Обработчик не отвечает, продолжим автоматически',
} as const;

/**
 * A cell Excel or LibreOffice could read as a formula (`=`, `+`, `-`, `@`, tab or carriage return
 * first, also after leading spaces) gets a leading apostrophe, so it stays text.
 */
export function neutraliseCell(s: string): string {
  return /^[ ]*[=+\-@\t\r]/.test(s) ? `'${s}` : s;
}

export interface ExportField {
  key: string;
  label: string;
  /** Checked by default in the dialog (the list's columns). */
  default: boolean;
}

/**
 * Fields of an export that are not event fields but what the list shows besides them (LIST_ONLY_FIELDS):
 * the assignee's name and the SLA — the pending deadline (Moscow time), its stage and whether it is
 * overdue at the moment the export runs (`slaOverdue`: strictly after the deadline; «Нет» without one).
 */
export const EXPORT_EXTRA_FIELDS = [
  { key: 'assignee_id', label: ASSIGNEE_LABEL },
  { key: 'sla_due_at', label: 'Срок SLA' },
  { key: 'sla_stage', label: 'Этап SLA' },
  { key: 'sla_overdue', label: 'Просрочено' },
] as const;

/** The column title of an export field: the module's field, a common one or an extra one. */
export function exportFieldLabel(m: ModuleDescriptor, key: string): string {
  return (
    m.fields.find((f) => f.key === key)?.label ??
    COMMON_FIELDS.find((c) => c.key === key)?.label ??
    EXPORT_EXTRA_FIELDS.find((c) => c.key === key)?.label ??
    key
  );
}

/** Fields an export of a module can include: the common ones, the assignee and SLA, then the module's own (derived included). */
export function exportFieldsOf(m: ModuleDescriptor): ExportField[] {
  const columns = new Set(m.columns);
  const out: ExportField[] = [];
  for (const c of COMMON_FIELDS) {
    if (c.key === 'decision_id' && !hasDecisions(m)) continue;
    out.push({ key: c.key, label: c.label, default: columns.has(c.key) || c.key === 'title' || c.key === 'company_id' });
  }
  for (const c of EXPORT_EXTRA_FIELDS)
    out.push({
      key: c.key,
      label: c.label,
      default: columns.has(c.key) || (c.key === 'sla_overdue' && columns.has('sla_due_at')),
    });
  for (const f of m.fields) out.push({ key: f.key, label: f.label, default: columns.has(f.key) });
  return out;
}

// ---------------------------------------------------------------------------
// HTTP shapes
// ---------------------------------------------------------------------------

export const exportFieldsQuery = z
  .object({ module: z.enum(MODULE_CODES, { error: EXPORT_MSG.moduleUnknown }).optional() })
  .strict();
export const exportFieldsResponse = z.object({
  items: z.array(
    z.object({
      module: z.string(),
      name: z.string(),
      fields: z.array(z.object({ key: z.string(), label: z.string(), default: z.boolean() })),
    }),
  ),
});

export const exportCreateRequest = z
  .object({
    module: z.enum(MODULE_CODES, { error: EXPORT_MSG.moduleUnknown }),
    format: z.enum(EXPORT_FORMATS, { error: 'Выберите формат файла' }),
    fields: z
      .array(z.string().max(100), { error: EXPORT_MSG.noFields })
      .min(1, { error: EXPORT_MSG.noFields })
      .max(EXPORT_MAX_FIELDS, { error: EXPORT_MSG.noFields }),
    /**
     * The list's query string parameters, as the list sends them (`company_id`, `status=1,2`, `q`,
     * `sort` …); `page` and `page_size` are ignored: the export takes every matching row.
     */
    filters: z
      .record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(z.union([z.string(), z.number()]))]))
      .default({}),
    name: z
      .string()
      .trim()
      .max(200, { error: MSG.tooLong(200) })
      .optional(),
  })
  .strict();
export type ExportCreateRequest = z.input<typeof exportCreateRequest>;

export const exportItem = z
  .object({
    id: z.number().int(),
    module: z.string(),
    module_name: z.string(),
    name: z.string(),
    format: z.enum(EXPORT_FORMATS),
    fields: z.array(z.string()),
    filters: z.record(z.string(), z.unknown()),
    status: z.enum(EXPORT_STATUSES),
    message: z.string().nullable(),
    rows_total: z.number().int().nullable(),
    rows_written: z.number().int(),
    /** Bytes of the finished file. */
    size: z.number().int().nullable(),
    file_name: z.string(),
    created_at: z.string(),
    finished_at: z.string().nullable(),
    expires_at: z.string().nullable(),
    /** Where to download the finished file. */
    url: z.string().nullable(),
    /** Running, but its worker died (no heartbeat for 10 seconds, no lock): it is taken over automatically. */
    stalled: z.boolean(),
  })
  .meta({ id: 'Export' });
export type ExportItem = z.infer<typeof exportItem>;

export const exportListQuery = z
  .object({
    page: z.coerce.number().int().min(1).default(1),
    page_size: z.coerce.number().int().min(1).max(500).default(20),
    module: z.enum(MODULE_CODES).optional(),
  })
  .strict();
export const exportListResponse = z.object({
  items: z.array(exportItem),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});
export type ExportList = z.infer<typeof exportListResponse>;

export const isExportModule = (s: string): s is ModuleCode => (MODULE_CODES as readonly string[]).includes(s);
