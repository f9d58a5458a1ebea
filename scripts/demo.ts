/**
 * npm run demo: loads a realistic Russian demo set into the running Forpost database — three
 * companies, events in every module (bench generator) with tags, comments and screenshots, and a
 * user of every role whose passwords are printed once. Goes through the API's own services, so every
 * rule (validation, dedup, whitelist, audit) applies. Run it while `npm start` is running (or with
 * DATABASE_URL); running it twice adds nothing twice: companies and users found by name are reused.
 */
import '@forpost/contract/zod-setup';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { MODULE_LIST, MODULES, type ModuleCode, sampleInn } from '@forpost/contract/modules';
import { buildApp } from '../apps/api/src/app';
import { loadConfig } from '../apps/api/src/config';
import { createDatabase } from '../apps/api/src/db/client';
import { runningEmbeddedPort } from '../apps/api/src/db/embedded';
import { runMigrations } from '../apps/api/src/db/migrate';
import { startJobs } from '../apps/api/src/jobs';
import { ensureFirstAdmin } from '../apps/api/src/lib/bootstrap';
import { generateEvents } from '../bench/generate';
import { loadDemoExtras } from './demo-extras';

const COMPANIES = [
  {
    name: 'ПАО «Северный Банк»',
    legal_name: 'Публичное акционерное общество «Северный Банк»',
    contact_name: 'Ирина Соколова',
    contact_email: 'soc@severbank.example',
  },
  {
    name: 'ООО «Ромашка Ритейл»',
    legal_name: 'Общество с ограниченной ответственностью «Ромашка Ритейл»',
    contact_name: 'Павел Орлов',
    contact_email: 'security@romashka.example',
  },
  {
    name: 'АО «ТелеКом Плюс»',
    legal_name: 'Акционерное общество «ТелеКом Плюс»',
    contact_name: 'Мария Кузнецова',
    contact_email: 'csirt@telecomplus.example',
  },
];
/** Events of the modules with domain snapshots get a screenshot document now and then. */
const SCREENSHOT_MODULES = new Set<string>(MODULE_LIST.filter((m) => m.extras.includes('snapshots')).map((m) => m.code));
const TAGS = [
  { name: 'Фишинг', color: '#f5222d' },
  { name: 'Срочно', color: '#faad14' },
  { name: 'Проверено', color: '#52c41a' },
  { name: 'Руководство', color: '#722ed1' },
  { name: 'Повтор', color: '#8c8c8c' },
];
/** Comments that fit the module's events; modules without their own take the generic ones. */
const GENERIC_COMMENTS = [
  'Взяли в работу, проверяем источник.',
  'Передали ответственному подразделению, ждём ответа.',
  'Повтор уже известного случая, связали с предыдущим.',
];
const COMMENTS: Partial<Record<ModuleCode, string[]>> = {
  domains: [
    'Домен зарегистрирован вчера, хостинг за рубежом. Запросили блокировку у регистратора.',
    'Похоже на ложное срабатывание: это сайт нашего партнёра.',
    'Проверил вручную: страница входа копирует наш личный кабинет.',
  ],
  brand: ['Передали в отдел по работе с брендом, ждём ответа.', 'Страница удалена площадкой после жалобы.'],
  management: ['Фейковый аккаунт руководителя, жалоба отправлена в поддержку площадки.'],
  accounts: [
    'Утечка подтверждена, пароли сброшены у затронутых сотрудников.',
    'Учётная запись уволенного сотрудника, уже заблокирована.',
  ],
  leaks: ['Состав данных сверили с нашей базой: совпадений 12%.'],
  acquiring: ['Карты переданы в антифрод на перевыпуск.'],
  databases: ['Доступ к базе закрыт владельцем после уведомления.'],
  services: ['Порт закрыт, сервис убран за VPN.'],
  repositories: ['В репозитории найдены ключи тестового стенда; ключи отозваны.'],
  media: ['Публикация перепечатана из старой новости, реакция не нужна.'],
};
// A small valid PNG (1×1) used as a demo screenshot.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

async function main() {
  const config = loadConfig({ LOG_LEVEL: 'silent', ...process.env });
  let url = config.databaseUrl;
  if (!url) {
    const pw = path.join(config.dataDir, 'postgres.password');
    if (!existsSync(pw)) throw new Error(`Встроенная база в ${config.dataDir} не найдена: сначала запустите npm start`);
    // The running server's own port (it may have been started with another EMBEDDED_PG_PORT).
    const port = runningEmbeddedPort(config.dataDir) ?? config.embeddedPgPort;
    url = `postgres://postgres:${encodeURIComponent(readFileSync(pw, 'utf8').trim())}@127.0.0.1:${port}/forpost`;
  }
  await runMigrations(url).catch(() => {
    throw new Error('База недоступна: запустите npm start (или задайте DATABASE_URL) и повторите');
  });
  const database = createDatabase(url, { warn() {} });
  await ensureFirstAdmin(database.db, config.adminEmail, config.adminPassword);
  const app = await buildApp({ config, database, logger: false });
  // Jobs (the export) go to the running server's queue; this process works none of them.
  const boss = await startJobs(url, { warn() {} }, false);
  await app.services.transfer.attach(boss, { work: false });
  const [admin] = await database.pool
    .query<{ id: number }>("SELECT id FROM users WHERE role = 'SUPER_ADMIN' AND is_active ORDER BY id LIMIT 1")
    .then((r) => r.rows);
  if (!admin) throw new Error('Нет активного суперадминистратора');
  const { users } = await import('../apps/api/src/db/schema/index');
  const { eq } = await import('drizzle-orm');
  const [row] = await database.db.select().from(users).where(eq(users.id, admin.id));
  if (!row) throw new Error('Нет активного суперадминистратора');
  const tokens = await app.services.auth.createSession(row, { ip: '127.0.0.1', userAgent: 'forpost-demo' });
  const cookie = `fp_access=${tokens.access}`;
  const call = async <T = unknown>(method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, body?: unknown): Promise<T> => {
    const r = await app.inject({
      method,
      url: `/api/v1${url}`,
      remoteAddress: '127.0.0.1',
      headers: {
        cookie,
        ...(method !== 'GET' ? { origin: config.publicUrl } : {}),
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      payload: body === undefined ? undefined : JSON.stringify(body),
    });
    if (r.statusCode >= 400) throw new Error(`${method} ${url}: ${r.statusCode} ${r.json().message}`);
    return (r.body ? r.json() : null) as T;
  };

  // Companies
  const companyIds: number[] = [];
  for (const [i, c] of COMPANIES.entries()) {
    const found = await call<{ items: { id: number; name: string }[] }>('GET', `/companies?q=${encodeURIComponent(c.name)}`);
    const existing = found.items.find((x) => x.name === c.name);
    const id =
      existing?.id ??
      (await call<{ id: number }>('POST', '/companies', { ...c, inn: sampleInn(9000 + i), modules: Object.keys(MODULES) })).id;
    companyIds.push(id);
  }

  // Users of every role
  const people = [
    { email: 'admin.demo@forpost.local', name: 'Алексей Смирнов', role: 'ADMIN' },
    { email: 'analyst.demo@forpost.local', name: 'Ольга Иванова', role: 'ANALYST' },
    { email: 'viewer.demo@forpost.local', name: 'Дмитрий Попов', role: 'VIEWER' },
    {
      email: 'bank.admin@forpost.local',
      name: 'Ирина Соколова',
      role: 'COMPANY_USER',
      companies: [{ company_id: companyIds[0], role: 'COMPANY_ADMIN' }],
    },
    {
      email: 'bank.analyst@forpost.local',
      name: 'Сергей Волков',
      role: 'COMPANY_USER',
      companies: [{ company_id: companyIds[0], role: 'COMPANY_ANALYST' }],
    },
    {
      email: 'retail.viewer@forpost.local',
      name: 'Павел Орлов',
      role: 'COMPANY_USER',
      companies: [{ company_id: companyIds[1], role: 'COMPANY_VIEWER' }],
    },
  ];
  const printed: string[] = [];
  for (const p of people) {
    const found = await call<{ total: number }>('GET', `/users?q=${encodeURIComponent(p.email)}`);
    if (found.total > 0) {
      printed.push(`  ${p.email.padEnd(30)} ${p.role.padEnd(13)} (уже был, пароль не менялся)`);
      continue;
    }
    const created = await call<{ generated_password: string }>('POST', '/users', { ...p, password_mode: 'generate' });
    printed.push(`  ${p.email.padEnd(30)} ${p.role.padEnd(13)} ${created.generated_password}`);
  }

  // Tags
  const tagIds: number[] = [];
  const existingTags = await call<{ items: { id: number; name: string }[] }>('GET', '/tags?page_size=500');
  for (const t of TAGS) {
    tagIds.push(existingTags.items.find((x) => x.name === t.name)?.id ?? (await call<{ id: number }>('POST', '/tags', t)).id);
  }

  // Reference lists per module: status and priority codes → ids
  const refs = new Map<
    ModuleCode,
    { status: Map<string, number>; priority: Map<string, number>; decision: Map<string, number> }
  >();
  for (const code of Object.keys(MODULES) as ModuleCode[]) {
    const s = await call<{ items: { id: number; code: string }[] }>('GET', `/modules/${code}/events/statuses`);
    const p = await call<{ items: { id: number; code: string }[] }>('GET', `/modules/${code}/events/priorities`);
    const d = MODULES[code].decisions
      ? await call<{ items: { id: number; code: string }[] }>('GET', `/modules/${code}/events/decisions`)
      : { items: [] };
    refs.set(code, {
      status: new Map(s.items.map((x) => [x.code, x.id])),
      priority: new Map(p.items.map((x) => [x.code, x.id])),
      decision: new Map(d.items.map((x) => [x.code, x.id])),
    });
  }

  // Events
  let created = 0;
  let skipped = 0;
  const createdIds: number[] = [];
  const count = Number(process.env.DEMO_EVENTS ?? 600);
  for (const e of generateEvents({ seed: 777, count, companies: 3, now: new Date(), days: 90 })) {
    const r = refs.get(e.module);
    const body: Record<string, unknown> = {
      company_id: companyIds[e.company],
      status_id: r?.status.get(e.status),
      priority_id: e.priority ? r?.priority.get(e.priority) : null,
      source: e.source,
      detected_at: e.detected_at,
      ...(e.decision && r?.decision.get(e.decision) ? { decision_id: r.decision.get(e.decision) } : {}),
      ...(created % 4 === 0 ? { tags: [tagIds[created % tagIds.length]] } : {}),
      ...e.fields,
    };
    let ev: { id: number };
    try {
      ev = await call<{ id: number }>('POST', `/modules/${e.module}/events`, body);
    } catch {
      skipped++; // already loaded by an earlier run (dedup) or refused by a rule such as the allowlist
      continue;
    }
    created++;
    createdIds.push(ev.id);
    if (created % 7 === 0) {
      const texts = COMMENTS[e.module] ?? GENERIC_COMMENTS;
      await call('POST', '/comments', { event_id: ev.id, text: texts[created % texts.length] });
    }
    if (SCREENSHOT_MODULES.has(e.module) && created % 5 === 0) {
      const boundary = '----forpostdemo';
      const payload = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="kind"\r\n\r\nscreenshot\r\n--${boundary}\r\nContent-Disposition: form-data; name="event_id"\r\n\r\n${ev.id}\r\n`,
        ),
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="screenshot.png"\r\nContent-Type: image/png\r\n\r\n`,
        ),
        PNG,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      await app.inject({
        method: 'POST',
        url: '/api/v1/docs',
        remoteAddress: '127.0.0.1',
        headers: { cookie, origin: config.publicUrl, 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload,
      });
    }
  }

  // The demo set is 90 days of history: each event entered the console when it was detected (not
  // all at the moment of loading), so the home page's charts show days, not one bar. The count
  // triggers move the figures between days as for any update.
  await database.pool.query(
    'UPDATE events SET created_at = detected_at WHERE id = ANY($1::int[]) AND detected_at IS NOT NULL AND detected_at < created_at',
    [createdIds],
  );
  // …and their history says so: the «created» entry (and the comments) carry the same day.
  await database.pool.query(
    `UPDATE event_history h SET at = e.created_at FROM events e
      WHERE h.event_id = e.id AND e.id = ANY($1::int[]) AND h.action = 'create' AND h.at > e.created_at`,
    [createdIds],
  );
  await database.pool.query(
    `UPDATE event_comments c SET created_at = e.created_at + interval '3 hours' FROM events e
      WHERE c.event_id = e.id AND e.id = ANY($1::int[]) AND c.created_at > e.created_at + interval '3 hours'`,
    [createdIds],
  );

  const analysts = (
    await database.pool.query<{ id: number; email: string }>(
      "SELECT id, email FROM users WHERE email IN ('analyst.demo@forpost.local', 'bank.analyst@forpost.local') AND is_active",
    )
  ).rows.map((r) => ({ id: r.id, companyId: r.email.startsWith('bank.') ? (companyIds[0] ?? null) : null }));
  const extras = await loadDemoExtras(call, {
    companyIds,
    companyNames: COMPANIES.map((c) => c.name),
    analysts,
    // Assignments once: only while no demo event has an assignee (a re-run changes nothing).
    eventIds: (
      await database.pool.query<{ id: string; module: ModuleCode; company_id: number }>(
        `SELECT id, module, company_id FROM events WHERE company_id = ANY($1::int[])
           AND NOT EXISTS (SELECT 1 FROM events a WHERE a.company_id = ANY($1::int[]) AND a.assignee_id IS NOT NULL)
         ORDER BY id`,
        [companyIds],
      )
    ).rows.map((r) => ({ id: Number(r.id), module: r.module, companyId: r.company_id })),
  });

  await app.close();
  await boss.stop({ graceful: true, wait: true });
  await database.close();
  process.stdout.write(
    `\nДемо-данные загружены: компаний ${companyIds.length}, новых событий ${created} (пропущено ${skipped}), тегов ${tagIds.length}.\n` +
      `Вокруг событий: ${extras.join(', ')}.\n` +
      `Пользователи (пароли показаны один раз):\n${printed.join('\n')}\n\n`,
  );
}

main().catch((e) => {
  console.error('Демо-данные не загружены:', e instanceof Error ? e.message : e);
  process.exit(1);
});
