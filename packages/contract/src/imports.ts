/*
 * Imports of events (any module) and of the leaks catalogue from CSV or XLSX files: statuses,
 * limits, Russian messages, the fields a file column can be mapped to, and the HTTP shapes.
 *
 * Flow: upload (the file is stored, its encoding and delimiter detected, columns mapped
 * automatically, the first rows validated) → optional re-preview with a manual mapping → start
 * (a background job imports the rows in batches) → the import can be deleted, which removes the
 * events it created.
 */
import { z } from 'zod';
import { bodyId, companyQuery, textId } from './common';
import { MSG } from './messages';
import {
  COMMON_FIELDS,
  EVENT_MSG,
  type FieldDescriptor,
  type FieldOption,
  field,
  hasDecisions,
  importHeaderMap,
  inputFields,
  ML_STATE_LABELS,
  type ModuleDescriptor,
  optionsOf,
  SOURCE_LABELS,
} from './modules/index';

/** `undone`: deleted after it ran — what it created is gone, it stays in the history as «Отменён». */
export const IMPORT_STATUSES = ['uploaded', 'queued', 'running', 'done', 'failed', 'undone'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];
export const IMPORT_STATUS_LABELS: Record<ImportStatus, string> = {
  uploaded: 'Ожидает запуска',
  queued: 'В очереди',
  running: 'Выполняется',
  done: 'Завершён',
  failed: 'Ошибка',
  undone: 'Отменён',
};
export const IMPORT_STATUS_COLORS: Record<ImportStatus, string> = {
  uploaded: 'default',
  queued: 'blue',
  running: 'processing',
  done: 'success',
  failed: 'error',
  undone: 'default',
};
/** Statuses in which the job still has work to do (the console keeps polling). */
export const IMPORT_ACTIVE: ReadonlySet<ImportStatus> = new Set<ImportStatus>(['queued', 'running']);

/** What happens to a row whose event already exists (same fingerprint in the company and module). */
export const IMPORT_MODES = ['update', 'skip'] as const;
export type ImportMode = (typeof IMPORT_MODES)[number];
export const IMPORT_MODE_LABELS: Record<ImportMode, string> = {
  update: 'Обновлять существующие',
  skip: 'Пропускать существующие',
};

export const IMPORT_FORMATS = ['csv', 'xlsx'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** The text encodings a CSV is read in (detected at upload; iconv-lite names), with the names people know. */
export const IMPORT_ENCODINGS = ['utf-8', 'utf-16le', 'utf-16be', 'windows-1251', 'koi8-r'] as const;
export type ImportEncoding = (typeof IMPORT_ENCODINGS)[number];
export const IMPORT_ENCODING_LABELS: Record<ImportEncoding, string> = {
  'utf-8': 'UTF-8',
  'utf-16le': 'UTF-16',
  'utf-16be': 'UTF-16',
  'windows-1251': 'Windows-1251',
  'koi8-r': 'KOI8-R',
};

/** The delimiters a CSV may use (detected at upload, tried in this order), with Russian names. */
export const IMPORT_DELIMITERS = [';', ',', '\t', '|'] as const;
export type ImportDelimiter = (typeof IMPORT_DELIMITERS)[number];
export const IMPORT_DELIMITER_LABELS: Record<ImportDelimiter, string> = {
  ';': '«;»',
  ',': '«,»',
  '\t': 'табуляция',
  '|': '«|»',
};

const orList = (xs: readonly string[]) => (xs.length < 2 ? xs.join('') : `${xs.slice(0, -1).join(', ')} или ${xs.at(-1)}`);
/** «UTF-8, UTF-16, Windows-1251 или KOI8-R». */
export const IMPORT_ENCODINGS_TEXT = orList([...new Set(IMPORT_ENCODINGS.map((e) => IMPORT_ENCODING_LABELS[e]))]);
/** ««;», «,», табуляция или «|»». */
export const IMPORT_DELIMITERS_TEXT = orList(IMPORT_DELIMITERS.map((d) => IMPORT_DELIMITER_LABELS[d]));

/** The leaks catalogue (settings → leaks) is imported through /modules/leaks/imports. */
export const LEAKS_CATALOGUE = 'leaks_catalogue' as const;

// ---------------------------------------------------------------------------
// Limits
// ---------------------------------------------------------------------------

/** Rows shown (and validated) in the preview. */
export const IMPORT_PREVIEW_ROWS = 20;
export const IMPORT_MAX_COLUMNS = 200;
/** One CSV record (all its cells) at most, bytes. */
export const IMPORT_MAX_RECORD_BYTES = 1024 * 1024;
/** The dry run: distinct reasons it reports (the rest are counted together), and example rows of each. */
export const IMPORT_CHECK_MAX_REASONS = 100;
export const IMPORT_CHECK_EXAMPLES = 5;
/** Row errors kept per import (the count keeps going beyond it). */
export const IMPORT_MAX_STORED_ERRORS = 100_000;
/** XLSX: entries in the zip, total uncompressed size, compression ratio of one entry, shared strings. */
export const XLSX_MAX_ENTRIES = 10_000;
export const XLSX_MAX_UNCOMPRESSED = 1024 * 1024 * 1024;
export const XLSX_MAX_RATIO = 200;
export const XLSX_MAX_SHARED_STRINGS = 500_000;

// ---------------------------------------------------------------------------
// Messages
// ---------------------------------------------------------------------------

const MB = 1024 * 1024;
const int = (n: number) => new Intl.NumberFormat('ru-RU').format(n).replace(/[\u202f\u2009 ]/g, '\u00a0');

export const IMPORT_MSG = {
  noFile: 'Прикрепите файл CSV или XLSX',
  badExtension: 'Поддерживаются файлы CSV и XLSX',
  xls: 'Старый формат Excel (.xls) не поддерживается — сохраните файл как .xlsx или CSV',
  notXlsx: 'Файл не является книгой Excel (.xlsx): содержимое не совпадает с расширением',
  binaryCsv: 'Файл не похож на текстовый CSV: содержимое не совпадает с расширением',
  empty: 'Файл пустой',
  noHeader: 'В файле нет строки заголовков',
  onlyHeader: 'В файле только строка заголовков — нет строк с данными',
  tooLarge: (bytes: number) => `Файл слишком большой: не более ${int(Math.round(bytes / MB))} МБ`,
  encoding: 'Не удалось определить кодировку файла — сохраните его в UTF-8 или Windows-1251',
  tooManyColumns: `Слишком много столбцов: не более ${IMPORT_MAX_COLUMNS}`,
  csvSyntax: (row: number, reason: string) => `Ошибка в структуре CSV в строке ${int(row)}: ${reason}`,
  recordTooLarge: 'Слишком длинная строка (более 1 МБ) — проверьте кавычки в файле',
  badZip: 'Файл XLSX повреждён: не удалось прочитать архив',
  zipTooManyEntries: `Файл XLSX отклонён: в архиве более ${int(XLSX_MAX_ENTRIES)} файлов`,
  zipBomb: 'Файл XLSX отклонён: после распаковки он слишком велик (возможна «zip-бомба»)',
  xmlDoctype: 'Файл XLSX отклонён: содержит объявления DOCTYPE или внешние сущности XML',
  sharedStrings: `Файл XLSX отклонён: более ${int(XLSX_MAX_SHARED_STRINGS)} уникальных строк — разделите файл или сохраните его как CSV`,
  noSheet: 'В книге Excel нет листов с данными',
  xlsxRead: 'Не удалось прочитать книгу Excel — пересохраните файл в Excel или как CSV',
  notFound: 'Импорт не найден',
  notStartable: 'Импорт уже запущен или завершён',
  alreadyUndone: 'Импорт уже отменён',
  undone: (n: number) => `Отменён: созданные им записи удалены (${n})`,
  running: 'Импорт ещё выполняется',
  fieldUnknown: 'Неизвестное поле',
  fieldTwice: (label: string) => `Поле «${label}» сопоставлено нескольким столбцам`,
  requiredUnmapped: (label: string) => `Не сопоставлено обязательное поле «${label}»`,
  mappingLength: 'Сопоставление не совпадает со столбцами файла',
  nothingMapped: 'Не сопоставлен ни один столбец',
  companyUnknown: 'Компания не найдена или недоступна',
  queueUnavailable: 'Очередь фоновых задач недоступна, попробуйте позже',
  fileMissing: 'Файл импорта не найден в хранилище',
  crashed: 'Импорт прерван: превышено число попыток',
  /** Set on a running import its deletion stops (seen only if the deletion then fails). */
  stoppedByRemoval: 'Импорт остановлен при удалении',
  failed: 'Импорт не выполнен, попробуйте позже',
  noErrors: 'В импорте нет ошибок строк',
  /** A running import whose worker died; another worker takes it over within half a minute. */
  stalled: 'Обработчик не отвечает, продолжим автоматически',
  // Row errors
  unknownStatus: 'Неизвестный статус',
  unknownPriority: 'Неизвестный приоритет',
  unknownDecision: 'Неизвестное решение',
  unknownTag: (name: string) => `Неизвестный тег «${name}»`,
  unknownRef: 'Значение не найдено в справочнике',
  option: (allowed: string) => `Недопустимое значение; допустимо: ${allowed}`,
  integer: EVENT_MSG.integer,
  number: EVENT_MSG.number,
  boolean: 'Ожидается «да» или «нет»',
  date: 'Неверная дата (ожидается ДД.ММ.ГГГГ или ГГГГ-ММ-ДД)',
  datetime: 'Неверные дата и время (ожидается ДД.ММ.ГГГГ ЧЧ:ММ или ISO 8601)',
  required: MSG.required,
  titleTooLong: MSG.tooLong(500),
  duplicateInFile: 'Повтор строки с тем же ключом в файле',
  otherReasons: 'Другие причины',
  /** The dry run: one mapped column fails most rows. */
  columnFailsMost: (column: string, label: string, failed: number, total: number, reason: string) =>
    `Столбец «${column}» (поле «${label}») не проходит проверку в ${int(failed)} из ${int(total)} строк: ${reason}`,
  /** Upload: a `company`-like header was not mapped because none of its values names a company. */
  /** A field taken from another one's cell (fillFrom), without its own column. */
  filledFrom: (field: string, source: string) => `Поле «${field}» берётся из поля «${source}»: своего столбца у него нет`,
  headerInvented: 'В файле нет строки заголовков: столбцы названы по содержимому, первая строка — данные',
  companyNotMapped: (column: string) =>
    `Столбец «${column}» не сопоставлен с полем «Компания»: ни одно его значение не совпало с названием компании`,
} as const;

// ---------------------------------------------------------------------------
// Fields a column can be mapped to
// ---------------------------------------------------------------------------

/** A target of a file column (a common event field, a module field, or a catalogue field). */
export interface ImportField {
  key: string;
  label: string;
  required: boolean;
  /** A common event field (company, title, status …) rather than the module's own. */
  common: boolean;
  /** How a cell is read: the module field type, or the common field's kind. */
  type: string;
  options?: readonly FieldOption[];
  hint?: string;
  /** Without its own column (or with an empty cell) the value is taken from this field's cell. */
  fill_from?: string;
}

/** Common event fields an import may set (company, title, status …), in mapping order. */
const COMMON_IMPORT_KEYS = [
  'company_id',
  'title',
  'status_id',
  'priority_id',
  'decision_id',
  'source',
  'ml_state',
  'tags',
  'detected_at',
] as const;
export type CommonImportKey = (typeof COMMON_IMPORT_KEYS)[number];

const COMMON_HINTS: Partial<Record<CommonImportKey, string>> = {
  company_id: 'Название или номер компании; пусто — компания, выбранная при запуске',
  title: 'Пусто — заголовок строится из полей события',
  status_id: 'Название статуса, например «Новое»',
  priority_id: 'Название приоритета, например «Высокий»',
  tags: 'Названия тегов через запятую',
  detected_at: 'ДД.ММ.ГГГГ ЧЧ:ММ (московское время) или ISO 8601',
};

/** The fields a column of a module's event import can be mapped to: common fields, then the module's own. */
export function importFieldsOf(m: ModuleDescriptor): ImportField[] {
  const common: ImportField[] = COMMON_IMPORT_KEYS.filter((k) => k !== 'decision_id' || hasDecisions(m)).map((k) => {
    const c = COMMON_FIELDS.find((x) => x.key === k);
    if (!c) throw new Error(`common field ${k}`);
    const hint = COMMON_HINTS[k];
    return {
      key: k,
      label: c.label,
      required: false,
      common: true,
      type: c.type,
      ...(c.options ? { options: c.options } : {}),
      ...(hint ? { hint } : {}),
    };
  });
  const own: ImportField[] = inputFields(m).map((f) => ({
    key: f.key,
    label: f.label,
    required: f.required,
    common: false,
    type: f.type,
    ...(f.options ? { options: f.options } : {}),
    ...(f.hint ? { hint: f.hint } : {}),
    ...(f.fillFrom ? { fill_from: f.fillFrom.field } : {}),
  }));
  return [...own, ...common];
}

/** Fields of the leaks catalogue (settings → leaks); the name identifies an entry (case-insensitive). */
export const LEAK_CATALOGUE_FIELDS: readonly FieldDescriptor[] = [
  field.string('name', 'Название', {
    required: true,
    max: 300,
    aliases: ['Название', 'Название утечки', 'Утечка', 'name', 'leak', 'leak name'],
  }),
  field.ref('leak_type_id', 'Тип утечки', 'leak_types', { aliases: ['Тип', 'Тип утечки', 'type', 'leak type'] }),
  field.date('leaked_at', 'Дата утечки', { aliases: ['Дата', 'Дата утечки', 'date', 'leak date', 'leaked at'] }),
  field.integer('records_count', 'Записей', {
    aliases: ['Записей', 'Количество записей', 'Кол-во записей', 'records', 'records count'],
  }),
  field.url('source_url', 'Источник', { aliases: ['Источник', 'Ссылка', 'URL', 'source', 'source url'] }),
  field.text('description', 'Описание', { aliases: ['Описание', 'description'] }),
];

export function leakCatalogueImportFields(): ImportField[] {
  return LEAK_CATALOGUE_FIELDS.map((f) => ({ key: f.key, label: f.label, required: f.required, common: false, type: f.type }));
}

const normHeader = (s: string) =>
  s
    .trim()
    .toLowerCase()
    .replace(/ё/g, 'е')
    .replace(/[\s_]+/g, ' ');

function catalogueHeaderMap(): Map<string, string> {
  const map = new Map<string, string>();
  for (const f of LEAK_CATALOGUE_FIELDS)
    for (const a of [f.key, f.label, ...f.aliases]) if (!map.has(normHeader(a))) map.set(normHeader(a), f.key);
  return map;
}

/**
 * Automatic mapping of file headers (Russian or English, case-, `ё`- and `_`-insensitive): one field
 * per column (the first column wins), null where nothing matches. `m` = null for the leaks catalogue.
 */
export function autoMapping(m: ModuleDescriptor | null, headers: readonly string[]): (string | null)[] {
  const map = m ? importHeaderMap(m) : catalogueHeaderMap();
  const allowed = new Set((m ? importFieldsOf(m) : leakCatalogueImportFields()).map((f) => f.key));
  const used = new Set<string>();
  return headers.map((h) => {
    const key = map.get(normHeader(h));
    if (!key || !allowed.has(key) || used.has(key)) return null;
    used.add(key);
    return key;
  });
}

export const COMMON_IMPORT_OPTIONS = { source: optionsOf(SOURCE_LABELS), ml_state: optionsOf(ML_STATE_LABELS) };

// ---------------------------------------------------------------------------
// HTTP shapes
// ---------------------------------------------------------------------------

const mappingItem = z.string().max(100).nullable();
export const importMapping = z
  .array(mappingItem, { error: IMPORT_MSG.mappingLength })
  .max(IMPORT_MAX_COLUMNS, { error: IMPORT_MSG.tooManyColumns });

export const importFieldItem = z.object({
  key: z.string(),
  label: z.string(),
  required: z.boolean(),
  common: z.boolean(),
  type: z.string(),
  options: z.array(z.object({ value: z.string(), label: z.string() })).optional(),
  hint: z.string().optional(),
  /** Without its own column (or with an empty cell) the value is taken from this field's cell (the domain from the URL). */
  fill_from: z.string().optional(),
});

export const importItem = z
  .object({
    id: z.number().int(),
    /** Module code, or 'leaks_catalogue'. */
    module: z.string(),
    company_id: z.number().int().nullable(),
    company_name: z.string().nullable(),
    doc_id: z.number().int().nullable(),
    file_name: z.string(),
    file_size: z.number().int(),
    format: z.enum(IMPORT_FORMATS),
    /** CSV only. */
    encoding: z.enum(IMPORT_ENCODINGS).nullable(),
    /** CSV only. */
    delimiter: z.enum(IMPORT_DELIMITERS).nullable(),
    headers: z.array(z.string()),
    mapping: z.array(z.string().nullable()),
    mode: z.enum(IMPORT_MODES),
    status: z.enum(IMPORT_STATUSES),
    /** Why the import failed (Russian). */
    message: z.string().nullable(),
    /** Data rows in the file (known once the job has read it through). */
    rows_total: z.number().int().nullable(),
    rows_read: z.number().int(),
    created: z.number().int(),
    updated: z.number().int(),
    skipped: z.number().int(),
    failed: z.number().int(),
    /** Row errors recorded (downloadable). */
    errors_count: z.number().int(),
    author_id: z.number().int().nullable(),
    author_name: z.string().nullable(),
    created_at: z.string(),
    started_at: z.string().nullable(),
    finished_at: z.string().nullable(),
    /**
     * Running, but its worker has not been heard of for 10 seconds and holds no lock (it died): another
     * worker takes the import over automatically and it resumes after its last committed batch.
     */
    stalled: z.boolean(),
  })
  .meta({ id: 'Import' });
export type ImportItem = z.infer<typeof importItem>;

export const importCell = z.object({ value: z.string(), error: z.string().optional() });
export const importPreviewRow = z.object({ row: z.number().int(), cells: z.array(importCell), errors: z.array(z.string()) });
export const importPreview = z.object({
  headers: z.array(z.string()),
  mapping: z.array(z.string().nullable()),
  fields: z.array(importFieldItem),
  rows: z.array(importPreviewRow),
  /** Problems of the mapping itself (a required field not mapped, a field mapped twice). */
  mapping_errors: z.array(z.string()),
  /** What the automatic mapping left out and why (Russian). */
  notes: z.array(z.string()).optional(),
});
export type ImportPreview = z.infer<typeof importPreview>;
export type ImportPreviewRow = z.infer<typeof importPreviewRow>;

/** The dry run: the whole file checked with a mapping, as the import would, nothing written. */
export const importCheckRequest = z
  .object({ mapping: importMapping, company_id: bodyId().optional() })
  .strict()
  .meta({ id: 'ImportCheckRequest' });
export type ImportCheckRequest = z.infer<typeof importCheckRequest>;

export const importCheckReason = z.object({
  /** The column (file header) the reason is about; null — the row as a whole. */
  column: z.string().nullable(),
  col: z.number().int().nullable(),
  message: z.string(),
  /** Errors of this reason. */
  count: z.number().int(),
  /** The first rows with it. */
  examples: z.array(z.object({ row: z.number().int(), value: z.string().nullable() })),
});
export const importCheckWarning = z.object({
  col: z.number().int(),
  column: z.string(),
  /** The field the column is mapped to, and its label. */
  field: z.string(),
  label: z.string(),
  /** Rows failing in this column. */
  failed: z.number().int(),
  /** Its most frequent reason. */
  reason: z.string(),
  message: z.string(),
});
export const importCheck = z
  .object({
    rows_total: z.number().int(),
    /** Rows the import would fail (as its «Ошибок» counter). */
    rows_failed: z.number().int(),
    /** Row errors (as the error report would hold). */
    errors_count: z.number().int(),
    /** Errors by reason, most frequent first. */
    reasons: z.array(importCheckReason),
    /** Mapped columns that fail in more than half of the rows: proposed to be left out. */
    warnings: z.array(importCheckWarning),
    mapping_errors: z.array(z.string()),
  })
  .meta({ id: 'ImportCheck' });
export type ImportCheck = z.infer<typeof importCheck>;
export type ImportCheckWarning = z.infer<typeof importCheckWarning>;

export const importUploadResponse = importItem.extend({ preview: importPreview }).meta({ id: 'ImportUpload' });
export type ImportUploadResponse = z.infer<typeof importUploadResponse>;

/** Multipart fields of the upload (before the `file` part). */
export const importUploadFields = z.object({ company_id: textId().optional() }).strict();

export const importPreviewRequest = z.object({ mapping: importMapping }).strict();
export const importStartRequest = z
  .object({
    mapping: importMapping,
    mode: z.enum(IMPORT_MODES, { error: 'Выберите, что делать с существующими событиями' }).default('update'),
    company_id: bodyId().optional(),
  })
  .strict();
export type ImportStartRequest = z.infer<typeof importStartRequest>;

export const importListQuery = z
  .object({
    page: z.coerce.number().int().min(1).default(1),
    page_size: z.coerce.number().int().min(1).max(500).default(20),
    company_id: companyQuery,
  })
  .strict();
export const importListResponse = z.object({
  items: z.array(importItem),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});
export type ImportList = z.infer<typeof importListResponse>;

/** Columns of the downloadable error report (CSV). */
export const IMPORT_ERROR_REPORT_HEADERS = ['Строка', 'Столбец', 'Значение', 'Причина'] as const;
