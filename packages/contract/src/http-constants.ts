/* Client-side HTTP and UI timing constants from the spec (shared so the API and e2e tests agree). */

/** Request timeout of the HTTP client. */
export const HTTP_TIMEOUT_MS = 10000;

/** Retry policy of the HTTP client (ky-compatible shape; mutable arrays on purpose). */
export const HTTP_RETRY: {
  readonly limit: number;
  readonly methods: string[];
  readonly statusCodes: number[];
} = {
  limit: 2,
  methods: ['get', 'put', 'head', 'delete', 'options', 'trace'],
  statusCodes: [408, 413, 429, 500, 502, 503, 504],
};

/** Delay before retry number `attempt` (1-based): 300 ms, 600 ms, 1200 ms, … */
export const retryDelayMs = (attempt: number): number => 0.3 * 2 ** (attempt - 1) * 1000;

/** How long an error toast stays visible. */
export const ERROR_TOAST_MS = 3000;
/** Error toast offset from the viewport edge, px. */
export const ERROR_TOAST_OFFSET = 16;
/** How long a notification stays visible. */
export const NOTIFICATION_MS = 4500;

/** Statuses that get a full-page error screen. */
export const ERROR_PAGE_STATUSES = [403, 404, 500, 503] as const;
export type ErrorPageStatus = (typeof ERROR_PAGE_STATUSES)[number];
export const isErrorPageStatus = (status: number): status is ErrorPageStatus =>
  (ERROR_PAGE_STATUSES as readonly number[]).includes(status);

/** Top loading bar timings, ms. */
export const LOADING_INDICATOR = { duration: 2000, throttle: 200, hideDelay: 500, resetDelay: 400 } as const;

/** How long the "copied" mark stays after copying to the clipboard. */
export const COPIED_INDICATOR_MS = 1500;
/** Minimum interval between automatic page reloads (reload-loop guard). */
export const RELOAD_GUARD_MS = 10000;
/** How often the client polls the app version. */
export const VERSION_POLL_MS = 60000;
export const ONE_HOUR_MS = 3600000;
