import { FILTRATOR_MSG } from '@forpost/contract/filtrator';
import { MSG } from '@forpost/contract/messages';
import { TELEGRAM_MSG } from '@forpost/contract/telegram';
import { eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLog, filtratorMessages } from '../src/db/schema/index';
import { safeHighlight } from '../src/modules/filtrator/filtrator.service';
import { ADMIN, Client, createCompany, createUser, setupApp, signedIn, type TestContext } from './helpers';

let ctx: TestContext;
let A: { id: number };
let B: { id: number };
let sa: Client;
let analyst: Client;
let viewerA: Client;
let adminA: Client;
let collectorA: Record<string, string>;
let collectorB: Record<string, string>;
const ch: Record<string, { id: number; username: string }> = {};

const MSGS = '/modules/filtrator/messages';
let nextId = 1000;
const msg = (channel: string, text: string, extra: object = {}) => ({
  channel,
  message_id: nextId++,
  text,
  posted_at: '2026-03-10T12:00:00Z',
  ...extra,
});

beforeAll(async () => {
  ctx = await setupApp();
  await createUser(ctx, { email: ADMIN.email, role: 'SUPER_ADMIN' });
  sa = new Client(ctx);
  await sa.login(ADMIN.email, ADMIN.password);
  A = await createCompany(ctx, 'Альфа');
  B = await createCompany(ctx, 'Бета');
  analyst = await signedIn(ctx, 'analyst@forpost.test', 'ANALYST');
  viewerA = await signedIn(ctx, 'viewer-a@forpost.test', 'COMPANY_USER', [{ id: A.id, role: 'COMPANY_VIEWER' }]);
  adminA = await signedIn(ctx, 'admin-a@forpost.test', 'COMPANY_USER', [{ id: A.id, role: 'COMPANY_ADMIN' }]);
  for (const [link, company_id, keywords, title] of [
    ['https://t.me/alfa_news', A.id, ['банк', 'кредитная карта', 'и'], 'Новости Альфы'],
    ['@alfa_chat', A.id, ['утечка', 'Банк'], null],
    ['@beta_news', B.id, ['банк', 'пароль'], null],
    ['@move_me', A.id, [], null],
  ] as const) {
    const r = await sa.post('/modules/telegram/channels', { link, company_id, keywords, title });
    expect(r.statusCode).toBe(201);
    ch[r.json().username] = r.json();
  }
  const key = async (company_id: number) => {
    const r = await sa.post('/apikeys', { name: `Сборщик ${company_id}`, company_id, roles: [], collector: true });
    expect(r.statusCode).toBe(201);
    return { authorization: `Bearer ${r.json().secret}` };
  };
  collectorA = await key(A.id);
  collectorB = await key(B.id);
});

/** Posts as the collector of company A (an API key with messages.collect), no cookies. */
const collect = (body: object, headers = collectorA) => new Client(ctx).post(MSGS, body, headers);

describe('filtrator: collecting messages', () => {
  it('stores a message with the keyword rules of the channel’s company that matched', async () => {
    const r = await collect(msg('@alfa_news', 'Сегодня в банке очередь', { author: 'Иван', url: 'https://t.me/alfa_news/1000' }));
    expect(r.statusCode).toBe(201);
    const m = r.json();
    expect(m).toMatchObject({
      channel: { id: ch['@alfa_news']?.id, username: '@alfa_news', title: 'Новости Альфы' },
      company: { id: A.id, name: 'Альфа' },
      text: 'Сегодня в банке очередь',
      author: 'Иван',
      link: `https://t.me/alfa_news/${m.message_id}`,
      posted_at: '2026-03-10T12:00:00.000Z',
      // 'банк' of @alfa_news and 'Банк' of @alfa_chat: the keyword once, both rules in the map.
      rules: ['банк'],
      rules_map: [
        { item_id: ch['@alfa_news']?.id, rule_index: 0 },
        { item_id: ch['@alfa_chat']?.id, rule_index: 1 },
      ],
    });
    const [audit] = await ctx.database.db.select().from(auditLog).where(eq(auditLog.action, 'message.collect'));
    expect(audit).toMatchObject({ entity: 'filtrator_message', companyId: A.id, actorKeyId: expect.any(Number) });
    const channel = (await sa.get(`/modules/telegram/channels/${ch['@alfa_news']?.id}`)).json();
    expect(channel).toMatchObject({ last_message_at: '2026-03-10T12:00:00.000Z', messages_count: 1 });
  });

  it('keeps «Forwarded from» and views a collector sends; without them both are null', async () => {
    const r = await collect(
      msg('@alfa_news', 'Банк: перепост', { author: 'Иван', forwarded_from: 'Слухи (@rumours)', views: 1520 }),
    );
    expect(r.statusCode).toBe(201);
    expect(r.json()).toMatchObject({ author: 'Иван', forwarded_from: 'Слухи (@rumours)', views: 1520 });
    const plain = (await collect(msg('@alfa_news', 'Банк без пересылки'))).json();
    expect(plain).toMatchObject({ forwarded_from: null, views: null });
    expect((await collect(msg('@alfa_news', 'Банк', { views: -1 }))).statusCode).toBe(400);
  });

  it('a repeat with a later edited_at takes the edited text; an older or equal one changes nothing', async () => {
    const first = msg('@alfa_news', 'Банк открыл отделение');
    const m = (await collect(first)).json();
    expect(m).toMatchObject({ edited_at: null, deleted_at: null });
    const edited = await collect({ ...first, text: 'Банк закрыл отделение', edited_at: '2026-03-10T13:00:00Z' });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ id: m.id, text: 'Банк закрыл отделение', edited_at: '2026-03-10T13:00:00.000Z' });
    const stale = await collect({ ...first, text: 'старый текст', edited_at: '2026-03-10T12:30:00Z' });
    expect(stale.json()).toMatchObject({ text: 'Банк закрыл отделение', edited_at: '2026-03-10T13:00:00.000Z' });
  });

  it.each(['банка', 'банком', 'банки', 'Банкам', 'БАНКЕ'])('the keyword «банк» matches the form «%s»', async (form) => {
    const r = await collect(msg('@alfa_news', `Новости: ${form} сегодня`));
    expect(r.statusCode).toBe(201);
    expect(r.json().rules).toEqual(['банк']);
  });

  it('matches multi-word keywords by their word forms, skips stop-word keywords, ignores other companies’ rules', async () => {
    expect((await collect(msg('@alfa_news', 'Кредитные карты снова подорожали'))).json().rules).toEqual(['кредитная карта']);
    // 'и' is a stop word: it matches nothing rather than everything — and what matches nothing is not stored.
    const none = await collect(msg('@alfa_news', 'Кошки и собаки'));
    expect(none.statusCode).toBe(202);
    expect(none.json()).toEqual({ stored: false, message: FILTRATOR_MSG.notMatched });
    // 'пароль' is Бета's rule, not Альфа's.
    expect((await collect(msg('@alfa_chat', 'Утекли пароли'))).statusCode).toBe(202);
    expect((await collect(msg('@alfa_chat', 'Новая утечка паролей'))).json().rules).toEqual(['утечка']);
  });

  it('a repeated (channel, message_id) stores nothing new: 200 with the message already stored', async () => {
    const first = await collect(msg('@alfa_news', 'Банк объявил о слиянии', { message_id: 77 }));
    expect(first.statusCode).toBe(201);
    const again = await collect(msg('@alfa_news', 'Изменённый текст', { message_id: 77 }));
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    const viaLink = await collect(msg('https://t.me/ALFA_NEWS', 'Ещё раз', { message_id: 77 }));
    expect(viaLink.statusCode).toBe(200);
    const rows = await ctx.database.db.select().from(filtratorMessages).where(eq(filtratorMessages.messageId, 77));
    expect(rows).toHaveLength(1);
    // The same message id in another channel is another message.
    expect((await collect(msg('@alfa_chat', 'Другой канал, та же утечка', { message_id: 77 }))).statusCode).toBe(201);
    // Concurrent duplicates: exactly one is created.
    const burst = await Promise.all(
      Array.from({ length: 5 }, () => collect(msg('@alfa_news', 'Гонка банков', { message_id: 78 }))),
    );
    expect(burst.map((r) => r.statusCode).sort()).toEqual([200, 200, 200, 200, 201]);
    expect(new Set(burst.map((r) => r.json().id)).size).toBe(1);
  });

  it('an unknown channel, or another company’s channel, is a Russian 404', async () => {
    const r = await collect(msg('@no_such_channel', 'банк'));
    expect(r.statusCode).toBe(404);
    expect(r.json().message).toBe(FILTRATOR_MSG.unknownChannel);
    const other = await collect(msg('@beta_news', 'банк'));
    expect(other.statusCode).toBe(404);
    expect(other.json().message).toBe(FILTRATOR_MSG.unknownChannel);
    expect((await collect(msg('@beta_news', 'банк'), collectorB)).statusCode).toBe(201);
  });

  it('refuses malformed input with Russian messages', async () => {
    const cases: [object, string, string][] = [
      [msg('not a channel', 'x'), 'channel', TELEGRAM_MSG.channel],
      [msg('https://t.me/+invite', 'x'), 'channel', TELEGRAM_MSG.channel],
      [msg('@alfa_news', 'x', { message_id: -1 }), 'message_id', ''],
      [msg('@alfa_news', 'x', { message_id: '5' }), 'message_id', ''],
      [msg('@alfa_news', 'x', { posted_at: 'вчера' }), 'posted_at', 'Неверная дата публикации'],
      [msg('@alfa_news', 'x', { url: 'javascript:alert(1)' }), 'url', MSG.url],
      [{ channel: '@alfa_news', message_id: 5, posted_at: '2026-03-10T12:00:00Z' }, 'text', MSG.required],
      [msg('@alfa_news', 'x', { company_id: B.id }), 'company_id', ''],
    ];
    for (const [body, field, message] of cases) {
      const r = await collect(body);
      expect(r.statusCode, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(r.json().data.fields)).toContain(field);
      if (message) expect(r.json().data.fields[field]).toBe(message);
    }
  });

  it('strips NUL characters instead of failing', async () => {
    const r = await collect(msg('@alfa_news', 'банк\u0000 и ноль'));
    expect(r.statusCode).toBe(201);
    expect(r.json().text).toBe('банк и ноль');
  });

  it('only collectors post: a session user without messages.collect gets 403', async () => {
    expect((await analyst.post(MSGS, msg('@alfa_news', 'банк'))).statusCode).toBe(403);
    expect((await adminA.post(MSGS, msg('@alfa_news', 'банк'))).statusCode).toBe(403);
    expect((await new Client(ctx).post(MSGS, msg('@alfa_news', 'банк'))).statusCode).toBe(401);
    // A read-only API key of the same company cannot collect either.
    const ro = (await sa.post('/apikeys', { name: 'Чтение', company_id: A.id, roles: [{ module: '*', access: 'read' }] })).json();
    expect((await collect(msg('@alfa_news', 'банк'), { authorization: `Bearer ${ro.secret}` })).statusCode).toBe(403);
  });
});

describe('filtrator: reading', () => {
  it('tenant scope: a company user sees only their company’s messages and never another’s by id', async () => {
    const betaMsg = (await collect(msg('@beta_news', 'Беты банк'), collectorB)).json();
    const mine = (await viewerA.get(`${MSGS}?page_size=500`)).json();
    expect(mine.total).toBeGreaterThan(0);
    expect(mine.items.every((m: { company: { id: number } }) => m.company.id === A.id)).toBe(true);
    const all = (await analyst.get(`${MSGS}?page_size=500`)).json();
    expect(all.total).toBe(mine.total + 2);
    expect((await viewerA.get(`${MSGS}?company_id=${B.id}`)).json()).toMatchObject({ items: [], total: 0 });
    expect((await viewerA.get(`${MSGS}?channel=@beta_news`)).json().total).toBe(0);
    expect((await viewerA.get(`${MSGS}/${betaMsg.id}`)).statusCode).toBe(404);
    expect((await viewerA.get(`${MSGS}/${betaMsg.id}`)).json().message).toBe(FILTRATOR_MSG.notFound);
    expect((await analyst.get(`${MSGS}/${betaMsg.id}`)).json()).toMatchObject({
      id: betaMsg.id,
      link: `https://t.me/beta_news/${betaMsg.message_id}`,
    });
  });

  it('searches with Russian word forms and highlights with <mark> over escaped text', async () => {
    const x = (await collect(msg('@alfa_news', '<script>alert("x")</script> Наш банк & партнёры: банками довольны'))).json();
    const r = (await analyst.get(`${MSGS}?q=${encodeURIComponent('банки')}&page_size=500`)).json();
    const found = r.items.find((i: { id: number }) => i.id === x.id);
    expect(found).toBeTruthy();
    expect(found.highlight).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(found.highlight).toContain('<mark>банк</mark> &amp; партнёры: <mark>банками</mark>');
    expect(found.highlight.replaceAll('<mark>', '').replaceAll('</mark>', '')).not.toMatch(/[<>]/);
    expect(found.text).toBe('<script>alert("x")</script> Наш банк & партнёры: банками довольны');
    expect(r.items.every((i: { highlight: string }) => i.highlight.includes('<mark>'))).toBe(true);
    // Without a search the matched keywords are marked.
    const plain = (await analyst.get(`${MSGS}?channel=${ch['@alfa_news']?.id}&page_size=500`)).json();
    expect(plain.items.find((i: { id: number }) => i.id === x.id).highlight).toContain('<mark>банк</mark>');
    // A search that finds nothing.
    expect((await analyst.get(`${MSGS}?q=${encodeURIComponent('космодром')}`)).json().total).toBe(0);
    // Phrases and exclusions (web search syntax).
    const ex = (await analyst.get(`${MSGS}?q=${encodeURIComponent('банк -партнёры')}&page_size=500`)).json();
    expect(ex.items.map((i: { id: number }) => i.id)).not.toContain(x.id);
  });

  it('the highlight guard never lets other markup through', () => {
    expect(safeHighlight('a <mark>b</mark>', 'a b')).toBe('a <mark>b</mark>');
    expect(safeHighlight('<img src=x onerror=alert(1)>', '<img src=x onerror=alert(1)>')).toBe(
      '&lt;img src=x onerror=alert(1)&gt;',
    );
    expect(safeHighlight(undefined, 'a & b')).toBe('a &amp; b');
  });

  it('filters by channel (id or @username), company, dates and rule; sorts', async () => {
    await collect(msg('@alfa_chat', 'Утечка банковских данных', { posted_at: '2026-01-05T08:00:00Z' }));
    await collect(msg('@alfa_chat', 'Утечка в марте', { posted_at: '2026-03-31T23:59:00Z' }));
    const byName = (await analyst.get(`${MSGS}?channel=@alfa_chat&page_size=500`)).json();
    const byId = (await analyst.get(`${MSGS}?channel=${ch['@alfa_chat']?.id}&page_size=500`)).json();
    expect(byName.total).toBe(byId.total);
    expect(byName.items.every((m: { channel: { username: string } }) => m.channel.username === '@alfa_chat')).toBe(true);
    const jan = (await analyst.get(`${MSGS}?date_from=2026-01-01&date_to=2026-01-31`)).json();
    expect(jan.items.map((m: { text: string }) => m.text)).toEqual(['Утечка банковских данных']);
    const lastDay = (await analyst.get(`${MSGS}?date_from=2026-03-31&date_to=2026-03-31`)).json();
    expect(lastDay.items.map((m: { text: string }) => m.text)).toEqual(['Утечка в марте']);
    const rule = (await analyst.get(`${MSGS}?rule=${encodeURIComponent('утечка')}&page_size=500`)).json();
    expect(rule.total).toBeGreaterThanOrEqual(3);
    expect(rule.items.every((m: { rules: string[] }) => m.rules.includes('утечка'))).toBe(true);
    const byCompany = (await analyst.get(`${MSGS}?company_id=${B.id}`)).json();
    expect(byCompany.items.every((m: { company: { id: number } }) => m.company.id === B.id)).toBe(true);
    const asc = (await analyst.get(`${MSGS}?sort=posted_at&page_size=500`))
      .json()
      .items.map((m: { posted_at: string }) => m.posted_at);
    expect(asc).toEqual([...asc].sort());
    const page2 = (await analyst.get(`${MSGS}?page=2&page_size=2`)).json();
    expect(page2).toMatchObject({ page: 2, page_size: 2 });
    expect(page2.items).toHaveLength(2);
  });

  it('refuses bad filters', async () => {
    expect((await analyst.get(`${MSGS}?date_from=вчера`)).json().data.fields.date_from).toBe('Неверная дата');
    const r = await analyst.get(`${MSGS}?date_from=2026-02-01&date_to=2026-01-01`);
    expect(r.statusCode).toBe(400);
    expect(r.json().message).toBe(FILTRATOR_MSG.dateRange);
    expect((await analyst.get(`${MSGS}?sort=text`)).statusCode).toBe(400);
    expect((await analyst.get(`${MSGS}?page_size=1000`)).statusCode).toBe(400);
    expect((await analyst.get(`${MSGS}?q=%00`)).statusCode).toBe(400);
  });
});

describe('filtrator: deleting and moving', () => {
  it('company roles cannot delete; staff analysts can; another company’s id is 404', async () => {
    const m = (await collect(msg('@alfa_news', 'Удаляемое про банк'))).json();
    expect((await adminA.del(`${MSGS}/${m.id}`)).statusCode).toBe(403);
    expect((await viewerA.del(`${MSGS}/${m.id}`)).statusCode).toBe(403);
    expect((await analyst.del(`${MSGS}/${m.id}`)).statusCode).toBe(204);
    expect((await analyst.get(`${MSGS}/${m.id}`)).statusCode).toBe(404);
    expect((await analyst.del(`${MSGS}/${m.id}`)).statusCode).toBe(404);
    const [a] = await ctx.database.db.select().from(auditLog).where(eq(auditLog.action, 'message.delete'));
    expect(a?.entityId).toBe(String(m.id));
  });

  it('moving a channel to another company moves its messages and re-matches them with that company’s rules', async () => {
    const m = (await collect(msg('@move_me', 'Утечка паролей'))).json();
    expect(m).toMatchObject({ company: { id: A.id }, rules: ['утечка'] });
    const r = await sa.patch(`/modules/telegram/channels/${ch['@move_me']?.id}`, { company_id: B.id });
    expect(r.statusCode).toBe(200);
    const moved = (await analyst.get(`${MSGS}/${m.id}`)).json();
    expect(moved).toMatchObject({
      company: { id: B.id },
      rules: ['пароль'],
      rules_map: [{ item_id: ch['@beta_news']?.id, rule_index: 1 }],
    });
    expect((await viewerA.get(`${MSGS}/${m.id}`)).statusCode).toBe(404);
  });

  it('deleting a channel deletes its messages', async () => {
    const m = (await collect(msg('@beta_news', 'Последнее про банк'), collectorB)).json();
    expect((await sa.del(`/modules/telegram/channels/${ch['@beta_news']?.id}`)).statusCode).toBe(204);
    expect((await analyst.get(`${MSGS}/${m.id}`)).statusCode).toBe(404);
    expect((await collect(msg('@beta_news', 'банк'), collectorB)).statusCode).toBe(404);
  });
});

describe('filtrator: one channel, several companies', () => {
  it('a shared channel: each post is stored only for the companies whose keywords match it', async () => {
    // One public channel followed by two companies, each with its own keywords.
    const subA = await sa.post('/modules/telegram/channels', { link: '@shared_news', company_id: A.id, keywords: ['Ромашка'] });
    const subB = await sa.post('/modules/telegram/channels', {
      link: 't.me/s/Shared_News',
      company_id: B.id,
      keywords: ['Северный'],
    });
    expect([subA.statusCode, subB.statusCode]).toEqual([201, 201]);
    // The super admin may collect into every company (as the built-in collector does).
    const all = (body: object) => sa.post(MSGS, body);
    // A post about B's client only: stored under B, never under A.
    const aboutB = await all(msg('@shared_news', 'Северный сообщил о сбое', { message_id: 501 }));
    expect(aboutB.statusCode).toBe(201);
    expect(aboutB.json()).toMatchObject({ company: { id: B.id }, channel: { id: subB.json().id }, rules: ['Северный'] });
    // A post about both: one row per company, each with its own rules.
    const both = await all(msg('@shared_news', 'Ромашка и Северный объявили о слиянии', { message_id: 502 }));
    expect(both.statusCode).toBe(201);
    // A post about nobody: nothing stored.
    expect((await all(msg('@shared_news', 'Погода на выходные', { message_id: 503 }))).statusCode).toBe(202);
    const rows = await ctx.database.db
      .select({ companyId: filtratorMessages.companyId, messageId: filtratorMessages.messageId, rules: filtratorMessages.rules })
      .from(filtratorMessages)
      .where(inArray(filtratorMessages.messageId, [501, 502, 503]));
    expect(rows.sort((x, y) => x.messageId - y.messageId || x.companyId - y.companyId)).toEqual([
      { companyId: B.id, messageId: 501, rules: ['Северный'] },
      { companyId: A.id, messageId: 502, rules: ['Ромашка'] },
      { companyId: B.id, messageId: 502, rules: ['Северный'] },
    ]);
    // A's users never see the post about B, by list or by id.
    const listA = (await viewerA.get(`${MSGS}?channel=@shared_news`)).json();
    expect(listA.items.map((m: { message_id: number }) => m.message_id)).toEqual([502]);
    expect(listA.items[0].rules).toEqual(['Ромашка']);
    expect((await viewerA.get(`${MSGS}/${aboutB.json().id}`)).statusCode).toBe(404);
    // A collector key of company A files into A's subscription only: a post about B is not stored at all.
    expect((await collect(msg('@shared_news', 'Северный снова', { message_id: 504 }))).statusCode).toBe(202);
    expect(await ctx.database.db.select().from(filtratorMessages).where(eq(filtratorMessages.messageId, 504))).toEqual([]);
    // The same company cannot follow the channel twice.
    const again = await sa.post('/modules/telegram/channels', { link: '@shared_news', company_id: A.id });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(TELEGRAM_MSG.channelTaken);
  });
});

describe('filtrator: message → event', () => {
  it('creates an event of the chosen module with the company, source, link and text of the message', async () => {
    const m = (
      await collect(msg('@alfa_news', 'Фишинг под видом банка\nПодробности по ссылке', { posted_at: '2026-03-12T09:30:00Z' }))
    ).json();
    const r = await analyst.post(`${MSGS}/${m.id}/to-event`, { module: 'media' });
    expect(r.statusCode, r.body).toBe(201);
    const out = r.json();
    expect(out).toMatchObject({ module: 'media', event_id: expect.any(Number), route: `/media/${out.event_id}` });
    const ev = (await analyst.get(`/modules/media/events/${out.event_id}`)).json();
    expect(ev).toMatchObject({
      company_id: A.id,
      title: 'Фишинг под видом банка',
      source: 'Telegram',
      url: `https://t.me/alfa_news/${m.message_id}`,
      summary: 'Фишинг под видом банка\nПодробности по ссылке',
      detected_at: '2026-03-12T09:30:00.000Z',
    });
    const [a] = await ctx.database.db.select().from(auditLog).where(eq(auditLog.action, 'message.to_event'));
    expect(a?.meta).toMatchObject({ module: 'media', event_id: out.event_id });
  });

  it('asks for the module’s missing fields in Russian and refuses fields of other modules', async () => {
    const m = (await collect(msg('@alfa_news', 'Новый домен банка'))).json();
    const missing = await analyst.post(`${MSGS}/${m.id}/to-event`, { module: 'domains' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().data.fields['fields.domain']).toBe(MSG.required);
    const bad = await analyst.post(`${MSGS}/${m.id}/to-event`, { module: 'domains', fields: { domain: 'not a domain' } });
    expect(bad.json().data.fields['fields.domain']).toBe(MSG.domain);
    const foreign = await analyst.post(`${MSGS}/${m.id}/to-event`, {
      module: 'domains',
      fields: { domain: 'alfa-bank-login.ru', company_id: B.id },
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().message).toBe(FILTRATOR_MSG.unknownField('company_id'));
    expect((await analyst.post(`${MSGS}/${m.id}/to-event`, { module: 'nope' })).json().data.fields.module).toBe(
      'Неизвестный модуль',
    );
    const ok = await analyst.post(`${MSGS}/${m.id}/to-event`, {
      module: 'domains',
      title: 'Фишинговый домен',
      fields: { domain: 'alfa-bank-login.ru' },
    });
    expect(ok.statusCode).toBe(201);
    const ev = (await analyst.get(`/modules/domains/events/${ok.json().event_id}`)).json();
    expect(ev).toMatchObject({
      company_id: A.id,
      title: 'Фишинговый домен',
      domain: 'alfa-bank-login.ru',
      url: `https://t.me/alfa_news/${m.message_id}`,
      source: 'Telegram',
    });
  });

  it('tenant scope and rights: another company’s message is 404, readers without events.write get 403', async () => {
    const betaChannel = (
      await sa.post('/modules/telegram/channels', { link: '@beta_again', company_id: B.id, keywords: ['Бета'] })
    ).json();
    expect(betaChannel.id).toEqual(expect.any(Number));
    const b = (await collect(msg('@beta_again', 'Сообщение Беты'), collectorB)).json();
    expect((await adminA.post(`${MSGS}/${b.id}/to-event`, { module: 'media' })).statusCode).toBe(404);
    const a = (await collect(msg('@alfa_news', 'Сообщение Альфы про банк'))).json();
    expect((await viewerA.post(`${MSGS}/${a.id}/to-event`, { module: 'media' })).statusCode).toBe(403);
    const own = await adminA.post(`${MSGS}/${a.id}/to-event`, { module: 'media' });
    expect(own.statusCode).toBe(201);
    expect((await adminA.get(`/modules/media/events/${own.json().event_id}`)).json().company_id).toBe(A.id);
    expect((await analyst.post(`${MSGS}/999999/to-event`, { module: 'media' })).statusCode).toBe(404);
  });
});
