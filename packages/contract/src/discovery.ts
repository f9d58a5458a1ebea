/*
 * Discovery of lookalike domains (#17): the assets a company protects (domains and brand keywords),
 * the candidate preview of a domain, and the runs that resolve the candidates and raise domain events.
 */
import { z } from 'zod';
import { bodyId, companyQuery, listResponse, pageQuery, textId } from './common';
import { punycodeToUnicode, unicodeToPunycode } from './helpers';
import { isDomain } from './validation';

/**
 * `word`: the company's own word for combosquatting candidates (brand + word: vtb-lk, lkvtb), added to the
 * default list of the «dictionary» family at every run of the company.
 */
export const ASSET_KINDS = ['domain', 'keyword', 'word', 'login', 'login_pattern', 'login_fold'] as const;
export type AssetKind = (typeof ASSET_KINDS)[number];
export const ASSET_KIND_LABELS: Record<AssetKind, string> = {
  domain: 'Домен',
  keyword: 'Ключевое слово',
  word: 'Слово для комбинаций',
  login: 'Логин или адрес',
  login_pattern: 'Шаблон логина',
  login_fold: 'Сворачивание +тегов и точек',
};
/**
 * Protected identities of leak hunting (#34), kept as assets next to the domains (whose `domain` assets are the
 * email domains): `login` — an exact login or email; `login_pattern` — a login format in the safe pattern
 * language below; `login_fold` — its one value `providers`: fold `+tags` (and dots for Gmail) of the mail
 * providers that ignore them, switched on and off by `enabled`.
 */
export const IDENTITY_KINDS = ['login', 'login_pattern', 'login_fold'] as const satisfies readonly AssetKind[];
export const LOGIN_FOLD_VALUE = 'providers';
/** Limits of a login pattern: the language has no user regex, so the matcher's work per login stays bounded. */
export const LOGIN_PATTERN_MAX = 64;
export const LOGIN_PATTERN_MAX_STARS = 2;
/** Logins longer than this never match a pattern (a lookahead bounds the regex's input). */
export const LOGIN_PATTERN_INPUT_MAX = 128;

export const RUN_TRIGGERS = ['manual', 'schedule'] as const;
export type RunTrigger = (typeof RUN_TRIGGERS)[number];
export const RUN_TRIGGER_LABELS: Record<RunTrigger, string> = { manual: 'Вручную', schedule: 'По расписанию' };

export const RUN_STATUSES = ['queued', 'running', 'done', 'failed', 'cancelled'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
export const RUN_STATUS_LABELS: Record<RunStatus, string> = {
  queued: 'В очереди',
  running: 'Выполняется',
  done: 'Завершён',
  failed: 'Ошибка',
  cancelled: 'Отменён',
};
/** Statuses of a run that has not ended (it counts against the company's limit and may be cancelled). */
export const ACTIVE_RUN_STATUSES = ['queued', 'running'] as const satisfies readonly RunStatus[];
export const isActiveRun = (s: RunStatus) => s === 'queued' || s === 'running';

/**
 * Unfinished (queued or running) runs a company may have at once. One: every run of a company checks
 * the same candidates (all its enabled domains), so a second one would only repeat the first one's
 * queries. Held by the partial unique index `discovery_runs_active_uq`.
 */
export const MAX_ACTIVE_RUNS_PER_COMPANY = 1;

export const DISCOVERY_MSG = {
  domain: 'Укажите домен, например example.ru или пример.рф',
  keyword: 'Ключевое слово: от 3 до 63 букв, цифр или дефисов (латиница или кириллица)',
  word: 'Слово для комбинаций: от 2 до 30 латинских или кириллических букв, цифр или дефисов, например lk или bonus',
  login: 'Укажите логин или адрес почты: до 128 символов без пробелов, двоеточий, точек с запятой, запятых и «|»',
  loginPattern:
    'Шаблон логина: от 3 до 64 символов; * — любые символы (не больше двух *), ? — один символ, # — одна цифра, остальное — буквы, цифры и . _ - + @; хотя бы три символа кроме *',
  loginFold: 'Значение сворачивания — providers',
  kind: 'Выберите вид актива: домен, ключевое слово, слово для комбинаций, логин, шаблон логина или сворачивание',
  duplicate: 'Такой актив уже есть у компании',
  assetNotFound: 'Актив не найден',
  companyNotFound: 'Компания не найдена',
  runNotFound: 'Запуск поиска не найден',
  companyRequired: 'Выберите компанию',
  noDomains: 'У компании нет включённых доменов для поиска — добавьте домен в активы',
  alreadyRunning:
    'Поиск для этой компании уже выполняется: одновременно допускается не больше одного запуска на компанию. Дождитесь его окончания или остановите его',
  alreadyFinished: 'Запуск поиска уже завершён — остановить можно только запуск в очереди или выполняющийся',
  noResolvers: 'Не заданы DNS-серверы для поиска доменов (настройки, группа «Поиск доменов»)',
  interrupted: 'Поиск прерван: обработчик задач остановился',
  sourceDnsMissing: 'Не заданы DNS-серверы — запуск невозможен (настройки, группа «Поиск доменов»)',
  sourceDnsDown:
    'DNS-серверы не отвечают — кандидаты не будут проверены, и «0 зарегистрировано» не будет значить, что двойников нет',
  sourceRdapMissing: 'RDAP не настроен — у найденных доменов не будет регистратора и даты регистрации',
  sourceRdapBootstrapDown: 'Файл bootstrap RDAP недоступен — регистратор и дата регистрации найденных доменов получены не будут',
  sourceRdapBootstrapDownPartial:
    'Файл bootstrap RDAP недоступен — регистрационные данные будут только для зон с явно заданным сервером',
  sourceCtMissing: 'Журналы сертификатов (CT) не заданы — новые сертификаты на похожие имена не отслеживаются',
} as const;

/** A keyword: letters of any script, digits and inner hyphens, 3–63 characters. */
export const isKeyword = (s: string) => /^[\p{L}\p{N}](?:[\p{L}\p{N}-]{1,61})[\p{L}\p{N}]$/u.test(s);

/** A combosquatting word: letters of any script, digits and inner hyphens, 2–30 characters. */
export const isComboWord = (s: string) => /^[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,28})[\p{L}\p{N}]$/u.test(s) && !s.includes('--');

/** The Russian refusal for a value that is not valid for its kind. */
export const assetValueMessage = (kind: AssetKind) =>
  ({
    domain: DISCOVERY_MSG.domain,
    word: DISCOVERY_MSG.word,
    keyword: DISCOVERY_MSG.keyword,
    login: DISCOVERY_MSG.login,
    login_pattern: DISCOVERY_MSG.loginPattern,
    login_fold: DISCOVERY_MSG.loginFold,
  })[kind];

/** A login pattern of the safe language (`*`, `?`, `#`, literal letters, digits and `. _ - + @`), lower-cased. */
export function isLoginPattern(s: string): boolean {
  if (s.length < 3 || s.length > LOGIN_PATTERN_MAX) return false;
  if (!/^[\p{L}\p{N}._\-+@*?#]+$/u.test(s) || s.includes('**')) return false;
  const stars = s.split('*').length - 1;
  return stars <= LOGIN_PATTERN_MAX_STARS && s.length - stars >= 3;
}

/**
 * The regular expression (source, for `^(?:…)$` with the `i` flag) of a valid login pattern: literals escaped,
 * `*` → `.*`, `?` → `.`, `#` → `\d`, behind a lookahead that caps the login at LOGIN_PATTERN_INPUT_MAX
 * characters: with at most two `*` the backtracking is at most quadratic in that cap, whatever the dump holds.
 */
export function loginPatternRegex(p: string): string {
  let out = `(?=.{1,${LOGIN_PATTERN_INPUT_MAX}}$)`;
  for (const ch of p) {
    if (ch === '*') out += '.*';
    else if (ch === '?') out += '.';
    else if (ch === '#') out += '\\d';
    else out += ch.replace(/[.+-]/g, (c) => `\\${c}`);
  }
  return out;
}

/** An exact login or email: an email's domain is stored as punycode in `value`, Unicode in `unicode`. */
function normaliseLogin(s: string): { value: string; unicode: string } | null {
  if (s.length === 0 || s.length > 128 || /[\s:;|,"]/u.test(s)) return null;
  const at = s.lastIndexOf('@');
  if (at < 0) return { value: s, unicode: s };
  const local = s.slice(0, at);
  const host = s.slice(at + 1);
  if (!local || !isDomain(host)) return null;
  const ascii = unicodeToPunycode(punycodeToUnicode(host));
  if (!isDomain(ascii)) return null;
  return { value: `${local}@${ascii}`, unicode: `${local}@${punycodeToUnicode(ascii)}` };
}

/**
 * An asset value as stored: a domain as punycode (`value`) and Unicode (`unicode`); a keyword
 * lower-cased in both. Null when the value is not valid for its kind.
 */
export function normaliseAsset(kind: AssetKind, raw: string): { value: string; unicode: string } | null {
  if (kind === 'login') return normaliseLogin(raw.trim().toLowerCase().normalize('NFC'));
  if (kind === 'login_pattern') {
    const p = raw.trim().toLowerCase().normalize('NFC');
    return isLoginPattern(p) ? { value: p, unicode: p } : null;
  }
  if (kind === 'login_fold')
    return raw.trim().toLowerCase() === LOGIN_FOLD_VALUE ? { value: LOGIN_FOLD_VALUE, unicode: LOGIN_FOLD_VALUE } : null;
  const s = raw.trim().toLowerCase().replace(/\.$/, '');
  if (kind === 'keyword') return isKeyword(s) ? { value: s, unicode: s } : null;
  if (kind === 'word') {
    const w = s.normalize('NFC');
    return isComboWord(w) ? { value: w, unicode: w } : null;
  }
  if (!isDomain(s)) return null;
  const value = unicodeToPunycode(punycodeToUnicode(s));
  return isDomain(value) ? { value, unicode: punycodeToUnicode(value) } : null;
}

export const assetParams = z.object({ id: textId() });
export const assetItemParams = z.object({ id: textId(), assetId: textId() });

export const createAssetRequest = z
  .strictObject({
    kind: z.enum(ASSET_KINDS, { error: DISCOVERY_MSG.kind }),
    value: z.string({ error: DISCOVERY_MSG.domain }).max(300, { error: DISCOVERY_MSG.domain }),
    enabled: z.boolean().default(true),
  })
  .superRefine((b, ctx) => {
    if (!normaliseAsset(b.kind, b.value))
      ctx.addIssue({
        code: 'custom',
        path: ['value'],
        message: assetValueMessage(b.kind),
      });
  });
export type CreateAssetRequest = z.infer<typeof createAssetRequest>;
export const updateAssetRequest = z.strictObject({ enabled: z.boolean({ error: 'Укажите, включён ли актив' }) });

export const assetListQuery = pageQuery.extend({
  page_size: z.coerce.number().int().min(1).max(500).default(100),
  kind: z.enum(ASSET_KINDS, { error: DISCOVERY_MSG.kind }).optional(),
});
export type AssetListQuery = z.infer<typeof assetListQuery>;

export const assetResponse = z.object({
  id: z.number().int(),
  company_id: z.number().int(),
  kind: z.enum(ASSET_KINDS),
  /** Domain: punycode (ASCII); keyword: as typed, lower-case. */
  value: z.string(),
  unicode: z.string(),
  enabled: z.boolean(),
  created_by: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Asset = z.infer<typeof assetResponse>;
export const assetListResponse = listResponse(assetResponse);

export const previewRequest = z.strictObject({
  domain: z.string({ error: DISCOVERY_MSG.domain }).max(300, { error: DISCOVERY_MSG.domain }),
});
export const previewItem = z.object({ domain: z.string(), unicode: z.string(), fuzzer: z.string() });
export type PreviewItem = z.infer<typeof previewItem>;
export const previewResponse = z.object({ total: z.number().int(), items: z.array(previewItem) });
export type PreviewResponse = z.infer<typeof previewResponse>;

export const startRunRequest = z.strictObject({ company_id: bodyId(DISCOVERY_MSG.companyRequired) });

export const runListQuery = pageQuery.extend({ company_id: companyQuery });
export type RunListQuery = z.infer<typeof runListQuery>;

/* ---------- Why a run's result is incomplete: errors by reason, sources missing ---------- */

/** Reasons a candidate's DNS check or a registered name's RDAP lookup gave no answer. */
export const RUN_ISSUE_REASONS = [
  'dns_timeout',
  'dns_servfail',
  'dns_refused',
  'dns_network',
  'dns_other',
  'rdap_not-found',
  'rdap_timeout',
  'rdap_http',
  'rdap_network',
  'rdap_invalid',
  'rdap_redirect',
  'rdap_forbidden',
  'rdap_no-server',
  'rdap_bootstrap',
] as const;
export type RunIssueReason = (typeof RUN_ISSUE_REASONS)[number];
export const RUN_ISSUE_LABELS: Record<RunIssueReason, string> = {
  dns_timeout: 'DNS: сервер не ответил вовремя',
  dns_servfail: 'DNS: ошибка сервера (SERVFAIL)',
  dns_refused: 'DNS: сервер отказал в ответе (REFUSED)',
  dns_network: 'DNS: ошибка сети при отправке запроса',
  dns_other: 'DNS: другая ошибка ответа',
  'rdap_not-found': 'RDAP: реестр не знает домен (404)',
  rdap_timeout: 'RDAP: сервер не ответил вовремя',
  rdap_http: 'RDAP: сервер вернул ошибку HTTP',
  rdap_network: 'RDAP: ошибка сети',
  rdap_invalid: 'RDAP: ответ не разобран',
  rdap_redirect: 'RDAP: перенаправление на незаданный сервер',
  rdap_forbidden: 'RDAP: адрес сервера во внутренней сети (запрещён)',
  'rdap_no-server': 'RDAP: для зоны нет сервера',
  rdap_bootstrap: 'RDAP: файл bootstrap недоступен',
};

/** Sources of a discovery check. */
export const DISCOVERY_SOURCES = ['dns', 'rdap', 'ct'] as const;
export type DiscoverySource = (typeof DISCOVERY_SOURCES)[number];
export const DISCOVERY_SOURCE_LABELS: Record<DiscoverySource, string> = {
  dns: 'DNS-серверы',
  rdap: 'RDAP (регистрационные данные)',
  ct: 'Журналы сертификатов (CT)',
};

/** At most this many example names are kept per reason. */
export const RUN_ISSUE_EXAMPLES = 5;

export const runIssue = z.object({
  reason: z.enum(RUN_ISSUE_REASONS),
  count: z.number().int(),
  /** Up to RUN_ISSUE_EXAMPLES names (Unicode). */
  examples: z.array(z.string()),
});
export type RunIssue = z.infer<typeof runIssue>;

/** What a finished (or running) run could not check: stored on the run as it goes. */
export const runIssues = z.object({
  /** DNS errors by reason (their sum is the run's `errors`). */
  dns: z.array(runIssue),
  /** RDAP lookups asked and failed by reason (RDAP fills the registration fields of a finding). */
  rdap_asked: z.number().int(),
  rdap: z.array(runIssue),
  /** Sources that were not configured when the run started. */
  missing: z.array(z.enum(DISCOVERY_SOURCES)),
});
export type RunIssues = z.infer<typeof runIssues>;
export const emptyRunIssues = (): RunIssues => ({ dns: [], rdap_asked: 0, rdap: [], missing: [] });

export const runResponse = z.object({
  id: z.number().int(),
  company_id: z.number().int(),
  company_name: z.string(),
  trigger: z.enum(RUN_TRIGGERS),
  status: z.enum(RUN_STATUSES),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  /** Set once a stop was asked for; a running run ends with «cancelled» within a few seconds. */
  cancel_requested_at: z.string().nullable(),
  /** Candidates generated from the company's enabled domains. */
  candidates: z.number().int(),
  /** Candidates that got a DNS answer (registered or not). */
  resolved: z.number().int(),
  /** Registered candidates (not under a wildcard parent). */
  registered: z.number().int(),
  new_events: z.number().int(),
  errors: z.number().int(),
  error: z.string().nullable(),
  /** Errors by reason with example names, RDAP failures, sources missing at the start. */
  issues: runIssues,
  created_by: z.object({ id: z.number().int(), name: z.string() }).nullable(),
});
export type DiscoveryRun = z.infer<typeof runResponse>;
export const runListResponse = listResponse(runResponse);

/** A finished run with more DNS errors than this share of the checked names is «with errors». */
export const RUN_ERROR_SHARE = 0.1;

/**
 * How a run's result reads: `ok` — complete; `partial` — finished, but DNS errors above RUN_ERROR_SHARE of
 * the checked names or every RDAP lookup failed; `broken` — finished without a single DNS answer. Runs not
 * «done» are `ok` here (their status says it). A source missing at the start (RDAP) does not change the
 * outcome — DNS decides what is registered — but makes the run's «0 зарегистрировано» incomplete
 * (runIncomplete).
 */
export type RunOutcome = 'ok' | 'partial' | 'broken';
export function runOutcome(r: Pick<DiscoveryRun, 'status' | 'candidates' | 'resolved' | 'errors' | 'issues'>): RunOutcome {
  if (r.status !== 'done') return 'ok';
  if (r.candidates > 0 && r.resolved === 0 && r.errors > 0) return 'broken';
  const checked = r.resolved + r.errors;
  const rdapFailed = r.issues.rdap.reduce((a, i) => a + i.count, 0);
  if (checked > 0 && r.errors / checked > RUN_ERROR_SHARE) return 'partial';
  if (r.issues.rdap_asked > 0 && rdapFailed >= r.issues.rdap_asked) return 'partial';
  return 'ok';
}
/** A finished run whose «nothing found» cannot be trusted: errors (runOutcome) or a source missing. */
export const runIncomplete = (r: Pick<DiscoveryRun, 'status' | 'candidates' | 'resolved' | 'errors' | 'issues'>) =>
  r.status === 'done' && (runOutcome(r) !== 'ok' || r.issues.missing.length > 0);
export const RUN_OUTCOME_LABELS: Record<RunOutcome, string> = {
  ok: 'Завершён',
  partial: 'Завершён с ошибками',
  broken: 'Завершён с ошибками: DNS не ответил',
};

/* ---------- Sources before a run ---------- */

export const SOURCE_STATES = ['ok', 'missing', 'unreachable'] as const;
export type SourceState = (typeof SOURCE_STATES)[number];

export const sourcesQuery = z.object({
  company_id: companyQuery,
  /** 1: also probe the sources (a DNS query to each resolver, the RDAP bootstrap file), a few seconds at most. */
  probe: z.coerce.number().int().min(0).max(1).default(0),
});
export type SourcesQuery = z.infer<typeof sourcesQuery>;

export const sourceStatus = z.object({
  source: z.enum(DISCOVERY_SOURCES),
  state: z.enum(SOURCE_STATES),
  /** Russian: what is wrong and what it means for a run (no server addresses). */
  message: z.string(),
});
export type SourceStatus = z.infer<typeof sourceStatus>;

export const sourcesResponse = z.object({
  /** Scheduled runs and the CT monitor are on (discovery_enabled). */
  enabled: z.boolean(),
  sources: z.array(sourceStatus),
  /** The company asked for (company_id): its enabled protected domains and combo words; null without one. */
  company: z.object({ id: z.number().int(), domains: z.number().int(), words: z.number().int() }).nullable(),
});
export type SourcesResponse = z.infer<typeof sourcesResponse>;
