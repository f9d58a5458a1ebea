import { readFileSync } from 'node:fs';
import path from 'node:path';
import { type APIRequestContext, type APIResponse, expect, type Locator, type Page, request } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import pg from 'pg';
import { runningEmbeddedPort } from '../apps/api/src/db/embedded';

/** The SUPER_ADMIN the e2e server creates on its fresh database (scripts/e2e-server.mjs). */
export const ADMIN_EMAIL = 'admin@forpost.local';
export const ADMIN_PASSWORD = 'Forpost-Admin-2026!Pass';

/**
 * Signs in through the login page. With `redirectPath` it opens that page first (landing on
 * /login?redirect=…) and waits to be brought back to it; otherwise it waits for the home page.
 */
export async function login(
  page: Page,
  redirectPath?: string,
  credentials: { email: string; password: string } = { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
): Promise<void> {
  await page.goto(redirectPath ?? '/login');
  await expect(page).toHaveURL(/\/login(\?|$)/);
  await page.getByLabel('Email').fill(credentials.email);
  await page.getByLabel('Пароль', { exact: true }).fill(credentials.password);
  await page.getByRole('button', { name: 'Войти' }).click();
  const target = redirectPath ?? '/';
  await expect(page).toHaveURL((url) => `${url.pathname}${url.search}` === target);
  await expect(page.getByTestId('user-menu')).toBeVisible();
}

/**
 * Picks the option `option` of an antd Select and waits until the select shows it. On a loaded
 * machine a click that lands while the dropdown is still animating open can be dropped by the
 * select, so the pick is checked and, only when it did not take, made again (never twice: in a
 * multi-select a second click would remove it).
 */
export async function pickOption(page: Page, select: Locator, option: string): Promise<void> {
  await expect(async () => {
    if ((await select.textContent())?.includes(option)) return;
    if ((await page.locator('.ant-select-dropdown:visible').count()) === 0) await select.click();
    const exact = new RegExp(`^\\s*${option.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);
    const item = page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: exact }).first();
    // The dropdown marks a taken option in the same render that takes it, before the select's own
    // text catches up: a taken option is never clicked again (in a multi-select that would remove it).
    const taken = /\bant-select-item-option-selected\b/.test((await item.getAttribute('class', { timeout: 3_000 })) ?? '');
    if (!taken) await item.click({ timeout: 3_000 });
    await expect(select).toContainText(option, { timeout: 2_000 });
  }).toPass({ timeout: 15_000 });
}

/** The JSON of an API answer (null for a 204); a failed answer throws with its status and body. */
export async function ok<T>(res: APIResponse, what: string): Promise<T> {
  if (!res.ok()) throw new Error(`${what}: ${res.status()} ${await res.text()}`);
  return (res.status() === 204 ? null : await res.json()) as T;
}

/** An API client signed in as the SUPER_ADMIN (with the Origin header the API's CSRF check wants). */
export async function adminApi(baseURL: string | undefined): Promise<APIRequestContext> {
  const origin = new URL(baseURL as string).origin;
  const api = await request.newContext({ baseURL, extraHTTPHeaders: { Origin: origin } });
  await ok(await api.post('/api/v1/auth/login', { data: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } }), 'login');
  return api;
}

/** The rows of a CSV the console downloads (UTF-8 BOM, `;`): the header first. */
export const parseDownloadedCsv = (csv: string): string[][] => parse(csv.slice(1), { delimiter: ';' }) as string[][];

/** The values of the column titled `title` in the rows after the header, sorted. */
export function columnValues(rows: string[][], title: string): (string | undefined)[] {
  const col = (rows[0] ?? []).indexOf(title);
  return rows
    .slice(1)
    .map((r) => r[col])
    .sort();
}

/**
 * Chooses `name` in the user menu until `done` says it took effect. Retried: on a busy machine a click
 * can land while the dropdown is still opening (or the page is re-rendering) and go nowhere.
 */
export async function chooseInUserMenu(page: Page, name: string, done: () => Promise<boolean>): Promise<void> {
  const item = page.getByRole('menuitem', { name });
  await expect(async () => {
    if (await done()) return;
    if (!(await item.isVisible())) await page.getByTestId('user-menu').click({ timeout: 2_000 });
    await item.click({ timeout: 2_000 });
    await expect.poll(done, { timeout: 5_000 }).toBe(true);
  }).toPass({ timeout: 30_000 });
}

/** «Выйти» from the user menu, until the login page shows. */
export const logout = (page: Page): Promise<void> =>
  chooseInUserMenu(page, 'Выйти', async () => new URL(page.url()).pathname === '/login');

/**
 * One statement on the e2e server's own database (what the API never lets a client do: move an
 * event's creation back, write a notification the SLA job would write once a minute).
 */
export async function e2eSql(text: string, values: unknown[] = []): Promise<void> {
  const dataDir = process.env.E2E_DATA_DIR as string;
  const port = runningEmbeddedPort(dataDir);
  if (!port) throw new Error(`no embedded PostgreSQL runs in ${dataDir}`);
  const password = readFileSync(path.join(dataDir, 'postgres.password'), 'utf8').trim();
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password, database: 'forpost' });
  await client.connect();
  try {
    await client.query(text, values);
  } finally {
    await client.end();
  }
}
