/*
 * The public-preview collector (#35) against a local server serving pages in Telegram's markup: parse,
 * file into the message filter per subscribing company, resume from the last id, no gap and no
 * duplicate across a crash and a takeover, one collector per channel, a channel that does not exist.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutboundFetch } from '../src/lib/outbound';
import { COLLECTOR_MSG, createPreviewCollector, createTelegramRepo, parsePreview } from '../src/modules/telegram/index';
import { setConfig as setKit } from './discovery-kit';
import { ADMIN, Client, createCompany, createUser, setupApp, type TestContext } from './helpers';
import { fakePosts, type PreviewServer, previewPage, startPreviewServer } from './telegram-preview-kit';

let ctx: TestContext;
let sa: Client;
let A: { id: number };
let B: { id: number };
let tg: PreviewServer;

const rows = async (username: string) =>
  (
    await ctx.database.db.execute<{ company_id: number; message_id: string; text: string; author: string | null }>(sql`
      SELECT m.company_id, m.message_id, m.text, m.author FROM filtrator_messages m
      JOIN telegram_channels c ON c.id = m.channel_id WHERE c.username = ${username} ORDER BY m.company_id, m.message_id`)
  ).rows.map((r) => ({ ...r, message_id: Number(r.message_id) }));
const source = async (username: string) =>
  (
    await ctx.database.db.execute<{ state: string; error: string | null; last_message_id: string | null }>(
      sql`SELECT state, error, last_message_id::text AS last_message_id FROM telegram_sources WHERE username = ${username}`,
    )
  ).rows[0];
const follow = async (link: string, company_id: number, keywords: string[]) => {
  const r = await sa.post('/modules/telegram/channels', { link, company_id, keywords });
  expect(r.statusCode, r.body).toBe(201);
  return r.json() as { id: number };
};
const collector = (owner: string, sink = ctx.app.services.filtrator) =>
  createPreviewCollector({
    repo: createTelegramRepo(ctx.database.db),
    configs: ctx.app.services.configs,
    fetch: createOutboundFetch({ allowPrivate: true }),
    sink,
    log: { warn() {}, info() {} },
    owner,
  });

beforeAll(async () => {
  ctx = await setupApp({ OUTBOUND_ALLOW_PRIVATE: '1' });
  await createUser(ctx, { email: ADMIN.email, role: 'SUPER_ADMIN' });
  sa = new Client(ctx);
  await sa.login(ADMIN.email, ADMIN.password);
  A = await createCompany(ctx, 'Ромашка Ритейл');
  B = await createCompany(ctx, 'Северный Банк');
  tg = await startPreviewServer();
  await setKit(sa, 'telegram_preview_url', tg.url);
});
afterAll(async () => {
  await tg?.close();
});

describe('telegram preview: the page parser', () => {
  it('reads id, date, text (line breaks, emoji, links, Cyrillic), author, forwarded-from, views and the older-posts link', () => {
    const html = previewPage(
      'news_ru',
      {
        title: 'Новости «Ромашки»',
        posts: [
          ...fakePosts(25, (i) => `пост ${i}`),
          {
            id: 26,
            html: 'Ромашка&nbsp;Ритейл: <b>утечка</b> <i class="emoji" style="background-image:url(//x/1f525.png)"><b>🔥</b></i><br/>Подробнее: <a href="https://example.ru/a?b=1&amp;c=2" target="_blank">example.ru</a> &lt;тег&gt;',
            date: new Date('2026-11-28T09:15:00Z'),
            author: 'Анна Петрова',
            forwardedFrom: 'Канал «Слухи»',
            views: '3.4K',
          },
        ],
      },
      undefined,
    );
    const page = parsePreview(html, '@news_ru');
    expect(page).toMatchObject({ exists: true, title: 'Новости «Ромашки»', before: 7 });
    expect(page.posts.map((p) => p.id)).toEqual(Array.from({ length: 20 }, (_, k) => k + 7));
    expect(page.posts.at(-1)).toEqual({
      id: 26,
      postedAt: new Date('2026-11-28T09:15:00Z'),
      text: 'Ромашка Ритейл: утечка 🔥\nПодробнее: example.ru <тег>',
      author: 'Анна Петрова',
      forwardedFrom: 'Канал «Слухи»',
      views: 3400,
    });
    // An unsigned post's author is the channel; the last page links nothing older.
    expect(page.posts[0]).toMatchObject({ author: 'Новости «Ромашки»', forwardedFrom: null, views: 1200 });
    expect(parsePreview(previewPage('news_ru', { title: 'x', posts: fakePosts(3, String) }), '@news_ru').before).toBeNull();
    // Another channel's post embedded in the page is not this channel's.
    expect(parsePreview(html, '@other_channel').posts).toEqual([]);
  });
});

describe('telegram preview: collecting', () => {
  it('files each post only for the companies whose keywords match, with its link; resumes from the last id', async () => {
    tg.channels.set('shared_news', {
      title: 'Общие новости',
      posts: fakePosts(45, (i) =>
        i % 3 === 0 ? `Ромашка Ритейл открыла магазин №${i}` : i % 3 === 1 ? `Северный Банк: новость ${i}` : `Погода ${i}`,
      ),
    });
    await follow('https://t.me/shared_news', A.id, ['Ромашка']);
    await follow('@shared_news', B.id, ['Северный']);
    tg.requests.length = 0;
    const first = await ctx.app.services.telegramCollector.pass();
    expect(first).toEqual({ sources: 1, read: 45, stored: 30 });
    // Three pages of the preview: the newest, then two by ?before=.
    expect(tg.requests).toEqual(['/s/shared_news', '/s/shared_news?before=26', '/s/shared_news?before=6']);
    const stored = await rows('@shared_news');
    expect(stored.filter((r) => r.company_id === A.id).map((r) => r.message_id)).toEqual(
      Array.from({ length: 15 }, (_, k) => (k + 1) * 3),
    );
    expect(stored.filter((r) => r.company_id === B.id).map((r) => r.message_id)).toEqual(
      Array.from({ length: 15 }, (_, k) => k * 3 + 1),
    );
    expect(stored.some((r) => r.text.startsWith('Погода'))).toBe(false);
    expect(await source('@shared_news')).toMatchObject({ state: 'ok', error: null, last_message_id: '45' });
    // Visible in the message filter with the link of the post and the rule that matched.
    const list = (await sa.get(`/modules/filtrator/messages?channel=@shared_news&company_id=${A.id}&sort=-posted_at`)).json();
    expect(list.items[0]).toMatchObject({
      message_id: 45,
      link: 'https://t.me/shared_news/45',
      rules: ['Ромашка'],
      author: 'Общие новости',
    });

    // New posts: the next pass (once due) reads only the newest page and files only them.
    tg.channels.get('shared_news')?.posts.push(...fakePosts(4, (i) => `Ромашка и Северный вместе ${i}`, 46));
    await ctx.database.db.execute(sql`UPDATE telegram_sources SET next_run_at = now() WHERE username = '@shared_news'`);
    tg.requests.length = 0;
    expect(await ctx.app.services.telegramCollector.pass()).toEqual({ sources: 1, read: 4, stored: 8 });
    expect(tg.requests).toEqual(['/s/shared_news']);
    // Not due yet: nothing is read.
    expect(await ctx.app.services.telegramCollector.pass()).toEqual({ sources: 0, read: 0, stored: 0 });
  });

  it('a crash in the middle and a takeover by another worker: no gap, no duplicate', async () => {
    tg.channels.set('long_feed', { title: 'Лента', posts: fakePosts(180, (i) => `Северный Банк, сводка ${i}`) });
    await follow('@long_feed', B.id, ['Северный']);
    await setKit(sa, 'telegram_preview_pages', 10);
    // Worker 1 dies after filing its second batch (the sink throws: the process is gone, its lease stays).
    let batches = 0;
    const real = ctx.app.services.filtrator;
    const dying = {
      ingest: async (...args: Parameters<typeof real.ingest>) => {
        if (++batches > 2) throw new Error('worker killed');
        return real.ingest(...args);
      },
    };
    const w1 = collector('worker-1', dying as typeof real);
    expect(await w1.pass()).toEqual({ sources: 1, read: 0, stored: 0 });
    expect(await source('@long_feed')).toMatchObject({ last_message_id: '100' });
    // While its lease holds, another worker does not touch the channel.
    const w2 = collector('worker-2');
    expect(await w2.pass()).toEqual({ sources: 0, read: 0, stored: 0 });
    // The lease runs out (the worker is dead): worker 2 takes over from post 101.
    await ctx.database.db.execute(
      sql`UPDATE telegram_sources SET lease_until = now() - interval '1 second' WHERE username = '@long_feed'`,
    );
    expect(await w2.pass()).toEqual({ sources: 1, read: 80, stored: 80 });
    const ids = (await rows('@long_feed')).map((r) => r.message_id);
    expect(ids).toEqual(Array.from({ length: 180 }, (_, k) => k + 1));
    expect(await source('@long_feed')).toMatchObject({ state: 'ok', last_message_id: '180' });
  });

  it('two workers at once never collect one channel together', async () => {
    tg.channels.set('busy_feed', { title: 'Занятый', posts: fakePosts(60, (i) => `Ромашка ${i}`) });
    await follow('@busy_feed', A.id, ['Ромашка']);
    tg.delayMs = 30;
    const [r1, r2] = await Promise.all([collector('w-a').pass(), collector('w-b').pass()]);
    tg.delayMs = 0;
    expect(r1.sources + r2.sources).toBe(1);
    expect(r1.stored + r2.stored).toBe(60);
    expect(tg.maxInFlight.get('busy_feed')).toBe(1);
    expect((await rows('@busy_feed')).map((r) => r.message_id)).toEqual(Array.from({ length: 60 }, (_, k) => k + 1));
  });

  it('keeps the author signature, «Forwarded from» and views: stored and returned by the messages API', async () => {
    tg.channels.set('meta_feed', {
      title: 'Мета',
      posts: [
        {
          id: 1,
          html: 'Ромашка Ритейл: перепост',
          date: new Date('2026-11-20T10:00:00Z'),
          author: 'Анна Петрова',
          forwardedFrom: 'Канал «Слухи»',
          views: '3.4K',
        },
        { id: 2, html: 'Ромашка без подписи', date: new Date('2026-11-20T11:00:00Z'), views: '987' },
      ],
    });
    const ch = await follow('@meta_feed', A.id, ['Ромашка']);
    await ctx.app.services.telegramCollector.pass();
    const list = (await sa.get(`/modules/filtrator/messages?channel=${ch.id}&sort=posted_at`)).json();
    expect(list.items.map((m: Record<string, unknown>) => [m.author, m.forwarded_from, m.views])).toEqual([
      ['Анна Петрова', 'Канал «Слухи»', 3400],
      ['Мета', null, 987],
    ]);
    const one = (await sa.get(`/modules/filtrator/messages/${list.items[0].id}`)).json();
    expect(one).toMatchObject({ author: 'Анна Петрова', forwarded_from: 'Канал «Слухи»', views: 3400 });
  });

  it('a channel that does not exist: the source says so in Russian, nothing is stored, it is retried later', async () => {
    const ch = await follow('@no_such_channel', A.id, ['Ромашка']);
    await ctx.app.services.telegramCollector.pass();
    expect(await source('@no_such_channel')).toMatchObject({
      state: 'not_found',
      error: COLLECTOR_MSG.notFound,
      last_message_id: null,
    });
    expect(await rows('@no_such_channel')).toEqual([]);
    const card = (await sa.get(`/modules/telegram/channels/${ch.id}`)).json();
    expect(card.collector).toMatchObject({ state: 'not_found', error: COLLECTOR_MSG.notFound });
  });
});
