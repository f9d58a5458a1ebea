import { cleanEmpty } from '@forpost/contract/helpers';
import { ERROR_TOAST_MS, HTTP_RETRY, HTTP_TIMEOUT_MS, isErrorPageStatus, retryDelayMs } from '@forpost/contract/http-constants';
import { MSG } from '@forpost/contract/messages';
import ky, { HTTPError, isHTTPError, isTimeoutError, type KyInstance, type Options, type ResponsePromise } from 'ky';
import { feedback } from './feedback';
import { setGlobalError } from './global-error';
import { endSessionAndReload, isEndingSession } from './session';
import { createRefresher, retryPayloadTooLarge } from './session-refresh';

/**
 * How a failed request is reported:
 * - 'toast' (default): the response body's `message` as an error toast (3000 ms);
 * - 'global': 403/404/500/503 replace the page with the full error page (other statuses toast);
 * - 'silent': nothing is shown, the caller handles the error.
 */
export type ErrorMode = 'toast' | 'global' | 'silent';

/** Per-request options of the console, passed in ky's `context`. */
interface HttpContext {
  errorMode?: ErrorMode;
  /**
   * What a 401 that survives the session refresh does: 'logout' (default) ends the session and
   * reloads to /login; 'throw' just rejects (used to probe the session, e.g. GET /me).
   */
  onUnauthorized?: 'logout' | 'throw';
}

/** Search params may hold arrays; they are sent joined with commas (`status=1,2`). */
type SearchParamValue = string | number | boolean | null | undefined | readonly (string | number | boolean)[];
export type SearchParams = Record<string, SearchParamValue>;

type HttpOptions = Omit<Options, 'searchParams' | 'context'> & {
  searchParams?: SearchParams | URLSearchParams | string;
  context?: HttpContext;
};

export const API_PREFIX = '/api/v1';

/** A request whose error was already shown or made irrelevant (session ended). */
const handled = new WeakSet<object>();

/** The parsed error body `{statusCode, statusMessage, message, data?}` of an HTTPError, if any. */
const errorBodies = new WeakMap<HTTPError, ApiErrorBody>();

export interface ApiErrorBody {
  statusCode: number;
  statusMessage: string;
  message: string;
  data?: unknown;
}

export function getErrorBody(error: unknown): ApiErrorBody | undefined {
  return error instanceof HTTPError ? errorBodies.get(error) : undefined;
}

export function getErrorStatus(error: unknown): number | undefined {
  return isHTTPError(error) ? error.response.status : undefined;
}

/** A Russian, user-presentable message for any request error. */
export function errorMessage(error: unknown): string {
  const body = getErrorBody(error);
  if (body?.message) return body.message;
  if (isTimeoutError(error)) return 'Сервер не ответил вовремя, попробуйте позже';
  if (isHTTPError(error)) return MSG.generic;
  if (error instanceof TypeError) return 'Нет связи с сервером';
  return MSG.generic;
}

// ---------------------------------------------------------------------------
// Session refresh: one POST /auth/refresh shared by every request that got a 401 meanwhile.
// ---------------------------------------------------------------------------

const refresher = createRefresher(() =>
  ky.post(`${API_PREFIX}/auth/refresh`, { credentials: 'include', timeout: HTTP_TIMEOUT_MS, retry: 0 }),
);

const isAuthCall = (url: string) => new URL(url, window.location.href).pathname.startsWith(`${API_PREFIX}/auth/`);

const ctxOf = (options: { context: Record<string, unknown> }) => options.context as HttpContext & Record<string, unknown>;

// ---------------------------------------------------------------------------
// The one ky instance.
// ---------------------------------------------------------------------------

const base = ky.create({
  prefixUrl: API_PREFIX,
  credentials: 'include',
  timeout: HTTP_TIMEOUT_MS,
  retry: {
    limit: HTTP_RETRY.limit,
    methods: HTTP_RETRY.methods,
    statusCodes: HTTP_RETRY.statusCodes,
    delay: retryDelayMs,
    shouldRetry: retryPayloadTooLarge,
  },
  context: { errorMode: 'toast' },
  hooks: {
    beforeRequest: [
      (_request, options, { retryCount }) => {
        if (retryCount === 0) ctxOf(options).startedAt = Date.now();
      },
    ],
    afterResponse: [
      async (request, options, response) => {
        // A sign-in step (login, 2FA, new password) answered: a session exists again.
        if (response.ok && request.method === 'POST' && isAuthCall(request.url)) refresher.signedIn();
        if (response.status !== 401 || isAuthCall(request.url)) return;
        const ctx = ctxOf(options);
        if (ctx.refreshTried) return;
        ctx.refreshTried = true;
        const startedAt = typeof ctx.startedAt === 'number' ? ctx.startedAt : 0;
        if (await refresher.after401(startedAt)) return ky.retry({ delay: 0, code: 'SESSION_REFRESHED' });
        return;
      },
    ],
    beforeError: [
      async (error) => {
        const { request, response } = error;
        try {
          const text = await response.clone().text();
          const body = text ? (JSON.parse(text) as Partial<ApiErrorBody>) : null;
          if (body && typeof body.message === 'string') {
            errorBodies.set(error, {
              statusCode: body.statusCode ?? response.status,
              statusMessage: body.statusMessage ?? response.statusText,
              message: body.message,
              data: body.data,
            });
          }
        } catch {
          // Not JSON (proxy error page etc.): keep the generic message.
        }
        error.message = `Request failed with status code ${response.status}: ${request.method} ${request.url}`;
        return error;
      },
    ],
  },
});

/** Filters → query: empty strings and empty lists are no filter (contract `cleanEmpty`), null/undefined too. */
export function toSearchParams(params: SearchParams): URLSearchParams {
  const out = new URLSearchParams();
  for (const [key, value] of Object.entries(cleanEmpty(params) as SearchParams)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      if (value.length > 0) out.set(key, value.join(','));
    } else {
      out.set(key, String(value));
    }
  }
  return out;
}

function normalize(options: HttpOptions | undefined): Options | undefined {
  if (!options) return undefined;
  const { searchParams, context, ...rest } = options;
  const out: Options = { ...rest };
  if (context) out.context = { ...context };
  if (searchParams !== undefined) {
    out.searchParams =
      typeof searchParams === 'string' || searchParams instanceof URLSearchParams ? searchParams : toSearchParams(searchParams);
  }
  return out;
}

/** Shows (or not) a failed request according to its error mode. Runs once per failure. */
function report(error: unknown, options: HttpOptions | undefined, method: string, input: string) {
  if (typeof error !== 'object' || error === null || handled.has(error)) return;
  handled.add(error);
  const ctx: HttpContext = isHTTPError(error) ? ctxOf(error.options) : (options?.context ?? {});
  const mode: ErrorMode = ctx.errorMode ?? options?.context?.errorMode ?? 'toast';

  if (isTimeoutError(error)) {
    error.message = `Request timed out: ${method.toUpperCase()} ${error.request.url}`;
  }
  if (error instanceof Error && error.name === 'AbortError') return;

  // A 401 here survived the refresh (or the refresh itself failed): the session is gone.
  if (isHTTPError(error) && error.response.status === 401 && !isAuthCall(error.request.url)) {
    if (ctx.onUnauthorized === 'throw') return;
    endSessionAndReload();
    return;
  }
  if (isEndingSession()) return;
  if (mode === 'silent') return;

  const status = getErrorStatus(error);
  if (mode === 'global' && status !== undefined && isErrorPageStatus(status)) {
    setGlobalError({ status, message: getErrorBody(error)?.message ?? '' });
    return;
  }
  const text = errorMessage(error);
  console.error(error instanceof Error ? error.message : error, `(${method.toUpperCase()} ${input})`);
  feedback.message.error({ content: text, duration: ERROR_TOAST_MS / 1000, key: `http:${text}` });
}

function tap(promise: ResponsePromise, options: HttpOptions | undefined, method: string, input: string) {
  promise.catch((error: unknown) => report(error, options, method, input));
  return promise;
}

type Call = <T = unknown>(input: string, options?: HttpOptions) => ResponsePromise<T>;

const call =
  (method: 'get' | 'post' | 'put' | 'patch' | 'delete' | 'head'): Call =>
  (input, options) =>
    tap(base[method](input, normalize(options)), options, method, input) as ResponsePromise<never>;

/**
 * THE HTTP client of the console (ky 1): base `/api/v1`, cookies included, 10 s timeout, retries per
 * the spec, 401 → one shared session refresh → retry, errors reported per `context.errorMode`.
 *
 *   const list = await http.get('users', { searchParams: { page: 1, status: [1, 2] } }).json<Page>();
 *   await http.post('auth/logout', { context: { errorMode: 'silent' } });
 *
 * Paths are relative to /api/v1 and must not start with '/'. Rejections are ky errors
 * (HTTPError/TimeoutError); `getErrorBody(error)` gives the API's `{statusCode, message, …}`.
 */
export const http = {
  get: call('get'),
  post: call('post'),
  put: call('put'),
  patch: call('patch'),
  delete: call('delete'),
  head: call('head'),
  /** The underlying ky instance, for the rare call that needs ky's own API. */
  ky: base as KyInstance,
};
