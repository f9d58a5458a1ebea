/**
 * The parts of the demo set around the events, so that a newcomer meets no empty section: Telegram
 * accounts and channels with collected messages, the whitelist (global and per company), the leak
 * catalogue, assignments, saved views, a finished export and report, a mailing. Each part looks for
 * what an earlier run made (by name) and adds only what is missing. Jobs (export, report, mailing) are
 * queued for the running server, which renders and sends them.
 */
import { MODULE_LIST, type ModuleCode } from '@forpost/contract/modules';

export type Call = <T = unknown>(method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, body?: unknown) => Promise<T>;
type Named = { id: number; name: string };
type Page<T> = { items: T[]; total?: number };

const ACCOUNTS = [
  { name: 'Сборщик «Север-1»', phone: '+79990000101', comment: 'Основной аккаунт для мониторинга каналов' },
  { name: 'Сборщик «Север-2»', phone: '+79990000102', status: 'paused', comment: 'Резервный' },
];
const CHANNELS = [
  { link: '@cards_market_demo', title: 'Кардинг-маркет (демо)', keywords: ['карта', 'cvv', 'дамп'] },
  { link: '@leaks_board_demo', title: 'Доска утечек (демо)', keywords: ['база', 'утечка', 'пароли'] },
  { link: '@bonus_scam_demo', title: 'Бонусы и розыгрыши (демо)', keywords: ['бонус', 'розыгрыш', 'кэшбэк'] },
];
const MESSAGES = [
  'Продам базу клиентов {c}: ФИО, телефоны, остатки. Свежая, 12 тыс. строк.',
  'Кэшбэк 50% для клиентов {c}! Переходите по ссылке и войдите в личный кабинет.',
  'Есть доступ к внутреннему порталу {c}, пишите в личку.',
  'Дампы карт, BIN 427600 и 220220, валид 90%.',
  'Розыгрыш iPhone от {c} — нужно только подтвердить номер карты.',
];
const LEAKS = [
  {
    name: 'Утечка «Маркетплейс-2025»',
    records_count: 1_200_000,
    leaked_at: '2025-11-02',
    source_url: 'https://leaks.example/market2025',
  },
  {
    name: 'Утечка «Службы доставки»',
    records_count: 340_000,
    leaked_at: '2026-02-17',
    source_url: 'https://leaks.example/delivery',
  },
  { name: 'Утечка «Онлайн-кинотеатр»', records_count: 85_000, leaked_at: '2026-06-08' },
];

async function ensureByName<T extends Named>(
  call: Call,
  listUrl: string,
  createUrl: string,
  items: readonly (Record<string, unknown> & { name: string })[],
  key: (x: Record<string, unknown>) => string = (x) => String(x.name),
): Promise<number> {
  const have = await call<Page<T & Record<string, unknown>>>('GET', listUrl);
  let made = 0;
  for (const item of items) {
    if (have.items.some((x) => key(x) === key(item))) continue;
    await call('POST', createUrl, item);
    made++;
  }
  return made;
}

export async function loadDemoExtras(
  call: Call,
  opts: {
    companyIds: number[];
    companyNames: string[];
    /** Who may be assigned: a staff analyst (company null: every company) or a company's analyst. */
    analysts: { id: number; companyId: number | null }[];
    eventIds: { id: number; module: ModuleCode; companyId: number }[];
  },
): Promise<string[]> {
  const done: string[] = [];
  const [firstCompany = 0] = opts.companyIds;

  // Telegram: accounts, channels of the first company, messages collected from them.
  done.push(
    `Telegram-аккаунтов: +${await ensureByName(call, '/modules/telegram/accounts?page_size=100', '/modules/telegram/accounts', ACCOUNTS)}`,
  );
  const channels = await call<Page<{ link?: string; username?: string }>>('GET', '/modules/telegram/channels?page_size=100');
  let newChannels = 0;
  for (const c of CHANNELS) {
    const name = c.link.slice(1);
    if (channels.items.some((x) => JSON.stringify(x).includes(name))) continue;
    await call('POST', '/modules/telegram/channels', { ...c, company_id: firstCompany });
    newChannels++;
  }
  done.push(`каналов: +${newChannels}`);
  const before = (await call<Page<unknown>>('GET', '/modules/filtrator/messages?page_size=1')).total ?? 0;
  const now = Date.now();
  for (let i = 0; i < 30; i++) {
    const channel = CHANNELS[i % CHANNELS.length]?.link ?? '@cards_market_demo';
    const company = opts.companyNames[i % opts.companyNames.length] ?? '';
    try {
      await call('POST', '/modules/filtrator/messages', {
        channel,
        message_id: 1000 + i,
        text: (MESSAGES[i % MESSAGES.length] ?? '').replaceAll('{c}', company),
        posted_at: new Date(now - i * 5 * 3_600_000).toISOString(),
        author: i % 3 ? `user${100 + i}` : null,
      });
    } catch {
      // collected by an earlier run (a message is identified by its channel and id)
    }
  }
  const after = (await call<Page<unknown>>('GET', '/modules/filtrator/messages?page_size=1')).total ?? 0;
  done.push(`сообщений: +${after - before}`);

  // Whitelist: the global one and each company's own.
  const global = await call<Page<{ value: string }>>('GET', '/companies/global/whitelist?page_size=100');
  let wl = 0;
  for (const item of [
    { type: 'domain', value: 'partner-bank.example', kind: 'whitelistPartner', comment: 'Партнёр по эквайрингу' },
    { type: 'inn', value: '7707083893', kind: 'whitelistPartner', comment: 'Головная организация' },
  ]) {
    if (global.items.some((x) => x.value === item.value)) continue;
    await call('POST', '/companies/global/whitelist', item);
    wl++;
  }
  for (const [i, id] of opts.companyIds.entries()) {
    const own = await call<Page<{ value: string }>>('GET', `/companies/${id}/whitelist?page_size=100`);
    const value = `official-${i + 1}.example`;
    if (own.items.some((x) => x.value === value)) continue;
    await call('POST', `/companies/${id}/whitelist`, {
      type: 'domain',
      value,
      kind: 'whitelistClient',
      comment: 'Официальный сайт компании',
    });
    wl++;
  }
  done.push(`записей белого списка: +${wl}`);

  done.push(`утечек в каталоге: +${await ensureByName(call, '/modules/leaks?page_size=100', '/modules/leaks', LEAKS)}`);

  // Assignments: every third event to an analyst who may see it (a batch per module and analyst).
  if (opts.analysts.length) {
    let assigned = 0;
    for (const m of MODULE_LIST) {
      const chosen = opts.eventIds.filter((e, i) => e.module === m.code && i % 3 === 0);
      const byAnalyst = new Map<number, number[]>();
      for (const [i, e] of chosen.entries()) {
        const fit = opts.analysts.filter((a) => a.companyId === null || a.companyId === e.companyId);
        const who = fit[i % fit.length];
        if (who) byAnalyst.set(who.id, [...(byAnalyst.get(who.id) ?? []), e.id]);
      }
      for (const [analyst, ids] of byAnalyst) {
        await call('PATCH', `/modules/${m.code}/events`, { ids, patch: { assignee_id: analyst } });
        assigned += ids.length;
      }
    }
    done.push(`назначено событий: ${assigned}`);
  }

  // Saved views of the domains list: a personal one and one shared with the first company.
  const views = await call<Page<Named>>('GET', '/modules/domains/views');
  let newViews = 0;
  for (const v of [
    { name: 'Новые критичные', shared: false, state: { filters: { status: 'new', priority: 'critical' }, sort: '-created_at' } },
    {
      name: 'Кириллические домены',
      shared: true,
      company_id: firstCompany,
      state: { filters: { is_cyrillic: 'true' }, sort: '-created_at' },
    },
  ]) {
    if (views.items.some((x) => x.name === v.name)) continue;
    await call('POST', '/modules/domains/views', v);
    newViews++;
  }
  done.push(`сохранённых видов: +${newViews}`);

  // A finished export and report, a mailing (the running server renders and sends them).
  const exportName = 'Демо: домены Северного Банка';
  const exportsList = await call<Page<Named>>('GET', '/modules/exports?page_size=100');
  const queued: string[] = [];
  if (!exportsList.items.some((x) => x.name === exportName)) {
    queued.push('выгрузка');
    const fields = await call<{ items: { fields: { key: string; default: boolean }[] }[] }>(
      'GET',
      '/modules/exports/fields?module=domains',
    );
    await call('POST', '/modules/exports', {
      name: exportName,
      module: 'domains',
      format: 'csv',
      fields: (fields.items[0]?.fields ?? []).filter((f) => f.default).map((f) => f.key),
      filters: { company_id: firstCompany },
    });
  }
  const reportName = 'Демо: отчёт за 30 дней';
  const reports = await call<Page<Named>>('GET', '/tools/reports?page_size=100');
  if (!reports.items.some((x) => x.name === reportName)) {
    queued.push('отчёт');
    const to = new Date().toISOString().slice(0, 10);
    const from = new Date(Date.now() - 29 * 86_400_000).toISOString().slice(0, 10);
    await call('POST', '/tools/reports', { name: reportName, company_id: firstCompany, from, to });
  }
  const mailingName = 'Демо: критичные события банка';
  const mailings = await call<Page<Named>>('GET', '/notifications/mailings?page_size=100');
  if (!mailings.items.some((x) => x.name === mailingName)) {
    queued.push('рассылка с первым письмом');
    await call('POST', '/notifications/mailings', {
      name: mailingName,
      company_id: firstCompany,
      recipients: ['soc@severbank.example'],
      filters: { modules: [], statuses: [], priorities: [], sources: [], tags: [], assignee: null, text: '' },
    });
    // A mailing sends what arrives after it starts: one new event, so its first letter goes out on the
    // worker's next pass (to SMTP_URL, or as an .eml file under DATA_DIR/mail without one) and the
    // mailing shows a delivery instead of «Писем ещё не было».
    await call('POST', '/modules/domains/events', {
      company_id: firstCompany,
      source: 'Other',
      domain: 'severbank-bonus-demo.ru',
      url: 'https://severbank-bonus-demo.ru/login',
      page_title: 'Северный Банк — Получите бонус',
      http_status: 200,
    });
  }
  done.push(queued.length ? `в очереди: ${queued.join(', ')}` : 'выгрузка, отчёт и рассылка уже были');
  return done;
}
