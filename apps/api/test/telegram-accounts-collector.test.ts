/*
 * The MTProto collector against mtcute's own harness: each account's client is a StubTelegramClient
 * answering the real TL methods (contacts.resolveUsername, channels.joinChannel, messages.getHistory
 * with Telegram's offset_id/add_offset/min_id paging) from an in-test "Telegram" of channels.
 */
import { tl } from '@mtcute/core';
import { StubTelegramClient } from '@mtcute/test';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PostSink } from '../src/modules/telegram/collector';
import { ACCOUNT_COLLECTOR_MSG, createAccountCollector, createTelegramRepo } from '../src/modules/telegram/index';
import type { MtprotoClient } from '../src/modules/telegram/mtproto';
import { ADMIN, Client, createCompany, createUser, setupApp, type TestContext } from './helpers';
import { columnsHolding } from './telegram-secrets-kit';

interface Post {
  id: number;
  text: string;
  /** post_author (a signed post); default «Редакция». */
  author?: string | null;
  views?: number;
  /** fwd_from: a channel (resolved through the answer's chats) or a hidden sender's name. */
  fwd?: { channel: { id: number; title: string; username?: string } } | { name: string };
  /** edit_date (unix seconds) of an edited post. */
  editDate?: number;
}
interface Channel {
  id: number;
  left: boolean;
  messages: Post[];
  error?: string;
}
const tg = {
  channels: new Map<string, Channel>(),
  /** api_id → error text thrown on getHistory (once when `once`). */
  accountErrors: new Map<number, { text: string; once: boolean }>(),
  handed: new Map<number, number>(),
  active: 0,
  maxActive: 0,
  joins: 0,
};
const ACC_HASH = { low: 7, high: 0, unsigned: false } as never;

function factory({ apiId }: { apiId: number; apiHash: string }): MtprotoClient {
  const c = new StubTelegramClient();
  c.respondWith('contacts.resolveUsername', (req) => {
    const ch = tg.channels.get(req.username);
    if (!ch) throw new tl.RpcError(400, 'USERNAME_NOT_OCCUPIED');
    if (ch.error) throw new tl.RpcError(400, ch.error);
    return {
      _: 'contacts.resolvedPeer',
      peer: { _: 'peerChannel', channelId: ch.id },
      chats: [{ _: 'channel', id: ch.id, title: req.username, accessHash: ACC_HASH, left: ch.left, broadcast: true } as never],
      users: [],
    };
  });
  c.respondWith('channels.joinChannel', (req) => {
    tg.joins++;
    for (const ch of tg.channels.values())
      if (req.channel._ === 'inputChannel' && ch.id === req.channel.channelId) ch.left = false;
    return { _: 'updates', updates: [], users: [], chats: [], date: 0, seq: 0 } as never;
  });
  c.respondWith('messages.getHistory', async (req) => {
    const err = tg.accountErrors.get(apiId);
    if (err) {
      if (err.once) tg.accountErrors.delete(apiId);
      throw new tl.RpcError(err.text.startsWith('FLOOD_WAIT') ? 420 : 401, err.text);
    }
    const ch = [...tg.channels.values()].find((x) => req.peer._ === 'inputPeerChannel' && x.id === req.peer.channelId);
    if (!ch) throw new tl.RpcError(400, 'CHANNEL_INVALID');
    tg.active++;
    tg.maxActive = Math.max(tg.maxActive, tg.active);
    await new Promise((r) => setImmediate(r));
    tg.active--;
    // Telegram's paging: newest first; start at the first id < offset_id, shifted by add_offset.
    const desc = [...ch.messages].reverse();
    let i = desc.findIndex((m) => m.id < req.offsetId);
    if (req.offsetId === 0) i = 0;
    if (i < 0) i = desc.length;
    const start = Math.max(0, i + req.addOffset);
    const page = desc.slice(start, start + req.limit).filter((m) => m.id > req.minId);
    return {
      _: 'messages.channelMessages',
      pts: 1,
      count: ch.messages.length,
      messages: page.map((m) => ({
        _: 'message',
        id: m.id,
        peerId: { _: 'peerChannel', channelId: ch.id },
        date: 1_795_000_000 + m.id,
        message: m.text,
        postAuthor: m.author === undefined ? 'Редакция' : (m.author ?? undefined),
        views: m.views,
        editDate: m.editDate,
        fwdFrom: m.fwd
          ? 'name' in m.fwd
            ? { _: 'messageFwdHeader', date: 1_794_000_000, fromName: m.fwd.name }
            : { _: 'messageFwdHeader', date: 1_794_000_000, fromId: { _: 'peerChannel', channelId: m.fwd.channel.id } }
          : undefined,
      })),
      // Telegram sends the chats the messages mention (the forwarded-from channels) along with them.
      chats: page.flatMap((m) =>
        m.fwd && 'channel' in m.fwd
          ? [
              {
                _: 'channel',
                id: m.fwd.channel.id,
                title: m.fwd.channel.title,
                username: m.fwd.channel.username,
                accessHash: ACC_HASH,
                broadcast: true,
              },
            ]
          : [],
      ),
      users: [],
      topics: [],
    } as never;
  });
  return c as unknown as MtprotoClient;
}

let ctx: TestContext;
let sa: Client;
let A: { id: number };
let session: string;
let clock = new Date();
const logs: string[] = [];
const API_HASH = 'c0ffee1c0ffee2c0ffee3c0ffee4c0ff';

beforeAll(async () => {
  ctx = await setupApp({ LOG_LEVEL: 'debug' }, { level: 'debug', stream: { write: (line: string) => void logs.push(line) } });
  await createUser(ctx, { email: ADMIN.email, role: 'SUPER_ADMIN' });
  sa = new Client(ctx);
  await sa.login(ADMIN.email, ADMIN.password);
  A = await createCompany(ctx, 'Ромашка Ритейл');
  const s = new StubTelegramClient();
  session = await s.exportSession();
  await s.destroy();
});

async function account(apiId: number) {
  const r = await sa.post('/modules/telegram/accounts', {
    name: `Сборщик ${apiId}`,
    phone: `+7999000${apiId}`,
    api_id: String(apiId),
    api_hash: API_HASH,
    session,
  });
  expect(r.statusCode, r.body).toBe(201);
  return r.json().id as number;
}
async function channel(username: string, messages: number, opts: Partial<Channel> = {}) {
  // only this test's channel is due
  await ctx.database.db.execute(sql`UPDATE telegram_channels SET is_active = false`);
  tg.channels.set(username, {
    id: 5000 + tg.channels.size,
    left: true,
    messages: Array.from({ length: messages }, (_, i) => ({ id: i + 1, text: `Ромашка Ритейл: пост ${i + 1}` })),
    ...opts,
  });
  const r = await sa.post('/modules/telegram/channels', {
    link: `@${username}`,
    company_id: A.id,
    keywords: ['ромашка'],
    collect_mode: 'account',
  });
  expect(r.statusCode, r.body).toBe(201);
  return r.json().id as number;
}
const collector = (owner: string, perAccount = 10, sink: PostSink = ctx.app.services.filtrator) =>
  createAccountCollector({
    repo: createTelegramRepo(ctx.database.db),
    sink,
    mtproto: factory,
    credentials: (id) => ctx.app.services.telegram.credentials(id),
    log: { warn: (o: unknown, msg?: string) => void logs.push(JSON.stringify(o), msg ?? '') },
    maxPerAccount: async () => perAccount,
    batch: 100,
    now: () => clock,
    owner,
  });
async function stored(channelId: number) {
  const r = await ctx.database.db.execute<{ n: number; d: number; lo: number; hi: number }>(sql`
    SELECT count(*)::int AS n, count(DISTINCT message_id)::int AS d, min(message_id)::int AS lo, max(message_id)::int AS hi
    FROM filtrator_messages WHERE channel_id = ${channelId}`);
  return r.rows[0] as { n: number; d: number; lo: number; hi: number };
}
const source = async (u: string) =>
  (
    await ctx.database.db.execute<{ account_id: number | null; state: string; error: string | null; last_message_id: number }>(
      sql`SELECT account_id, state, error, last_message_id::int FROM telegram_sources WHERE username = ${`@${u}`}`,
    )
  ).rows[0];

describe('MTProto collector (mtcute harness)', () => {
  it('joins a public channel, reads history from the stored id, then only newer messages', async () => {
    clock = new Date();
    await account(1001);
    const ch = await channel('alfa_news', 250);
    const r = await collector('w1').pass();
    expect(r.read).toBe(250);
    expect(tg.joins).toBe(1);
    expect(await stored(ch)).toEqual({ n: 250, d: 250, lo: 1, hi: 250 });
    expect((await source('alfa_news'))?.last_message_id).toBe(250);
    // new posts arrive; the next pass reads only those
    (tg.channels.get('alfa_news') as Channel).messages.push(
      { id: 251, text: 'Ромашка: новый' },
      { id: 260, text: 'ромашка 260' },
    );
    await ctx.database.db.execute(sql`UPDATE telegram_sources SET next_run_at = now() WHERE username = '@alfa_news'`);
    expect((await collector('w1').pass()).read).toBe(2);
    expect(await stored(ch)).toEqual({ n: 252, d: 252, lo: 1, hi: 260 });
  });

  it('keeps post_author, fwd_from and views of each message: stored and returned by the messages API', async () => {
    clock = new Date();
    const ch = await channel('meta_ch', 0);
    (tg.channels.get('meta_ch') as Channel).messages.push(
      {
        id: 1,
        text: 'Ромашка: репост',
        author: 'Иван Петров',
        views: 1520,
        fwd: { channel: { id: 9001, title: 'Слухи рынка', username: 'rumours' } },
      },
      { id: 2, text: 'Ромашка: от скрытого', author: null, views: 7, fwd: { name: 'Аноним Анонимов' } },
      { id: 3, text: 'Ромашка: своё', author: null },
    );
    await collector('w-meta').pass();
    const list = (await sa.get(`/modules/filtrator/messages?channel=${ch}&sort=posted_at`)).json();
    expect(list.items.map((m: Record<string, unknown>) => [m.message_id, m.author, m.forwarded_from, m.views])).toEqual([
      [1, 'Иван Петров', 'Слухи рынка (@rumours)', 1520],
      [2, null, 'Аноним Анонимов', 7],
      [3, null, null, null],
    ]);
  });

  it('follows edits and deletions of recent posts: text re-matched, «изменено», «удалено», never removed', async () => {
    clock = new Date();
    const ch = await channel('edits_ch', 0);
    const posts = (tg.channels.get('edits_ch') as Channel).messages;
    posts.push(...[1, 2, 3, 4, 5].map((id) => ({ id, text: `Ромашка Ритейл: пост ${id}` })), { id: 6, text: 'о погоде' });
    await collector('w-edit').pass();
    expect(await stored(ch)).toEqual({ n: 5, d: 5, lo: 1, hi: 5 });
    const edit = (id: number, text: string) =>
      Object.assign(posts.find((m) => m.id === id) as Post, { text, editDate: 1_795_100_000 + id });
    edit(2, 'Ромашка Ритейл: пост 2 (исправлено)');
    edit(3, 'Без названий компаний'); // no longer matches
    edit(6, 'о погоде и о Ромашке'); // now matches
    posts.splice(
      posts.findIndex((m) => m.id === 4),
      1,
    ); // deleted in Telegram
    posts.push({ id: 7, text: 'Ромашка: новый' });
    const due = () => ctx.database.db.execute(sql`UPDATE telegram_sources SET next_run_at = now() WHERE username = '@edits_ch'`);
    await due();
    await collector('w-edit').pass();
    const list = (await sa.get(`/modules/filtrator/messages?channel=${ch}&sort=posted_at`)).json();
    const by = new Map<number, Record<string, unknown>>(list.items.map((m: Record<string, unknown>) => [m.message_id, m]));
    expect([...by.keys()]).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(by.get(1)).toMatchObject({ edited_at: null, deleted_at: null });
    expect(by.get(2)).toMatchObject({
      text: 'Ромашка Ритейл: пост 2 (исправлено)',
      edited_at: new Date((1_795_100_000 + 2) * 1000).toISOString(),
      deleted_at: null,
      rules: ['ромашка'],
    });
    // No longer about the company: the row stays with the rule it was kept for, marked edited.
    expect(by.get(3)).toMatchObject({ text: 'Без названий компаний', edited_at: expect.any(String), rules: ['ромашка'] });
    expect(by.get(4)).toMatchObject({ text: 'Ромашка Ритейл: пост 4', deleted_at: expect.any(String), edited_at: null });
    expect(by.get(6)).toMatchObject({ text: 'о погоде и о Ромашке', edited_at: expect.any(String), rules: ['ромашка'] });
    expect(by.get(7)).toMatchObject({ edited_at: null, deleted_at: null });
    const audits = async () =>
      (
        await ctx.database.db.execute<{ action: string; n: number }>(sql`
          SELECT action, count(*)::int AS n FROM audit_log
          WHERE action IN ('message.edit', 'message.source_delete') AND meta->>'channel' = '@edits_ch' GROUP BY action ORDER BY action`)
      ).rows;
    expect(await audits()).toEqual([
      { action: 'message.edit', n: 2 },
      { action: 'message.source_delete', n: 1 },
    ]);
    // Read again with nothing changed: nothing is written twice.
    await due();
    await collector('w-edit').pass();
    expect(await audits()).toEqual([
      { action: 'message.edit', n: 2 },
      { action: 'message.source_delete', n: 1 },
    ]);
    const again = (await sa.get(`/modules/filtrator/messages/${by.get(4)?.id}`)).json();
    expect(again.deleted_at).toBe(by.get(4)?.deleted_at);
  });

  it('a restart in the middle of a 10 000-message history: no gap, no duplicate', { timeout: 60_000 }, async () => {
    // Every post goes through the real message filter; one in ten is about the company (stored).
    const ch = await channel('big_history', 10_000);
    for (const m of (tg.channels.get('big_history') as Channel).messages)
      m.text = m.id % 10 === 0 ? `Ромашка Ритейл: пост ${m.id}` : `прочее ${m.id}`;
    const real = ctx.app.services.filtrator;
    const handed: number[] = [];
    let batches = 0;
    const sink = (dieAfter: number): PostSink => ({
      ingest: async (subs, posts, actor) => {
        const r = await real.ingest(subs, posts, actor);
        handed.push(...posts.map((p) => p.messageId));
        // The worker dies after filing this batch, before moving the source's last id.
        if (++batches === dieAfter) throw new Error('worker killed');
        return r;
      },
      markDeleted: real.markDeleted,
    });
    const big = (owner: string, s: PostSink) =>
      createAccountCollector({
        repo: createTelegramRepo(ctx.database.db),
        sink: s,
        mtproto: factory,
        credentials: (id) => ctx.app.services.telegram.credentials(id),
        log: { warn() {} },
        maxPerAccount: async () => 10,
        batch: 1000,
        owner,
      });
    await big('dies', sink(4)).pass();
    expect(await stored(ch)).toMatchObject({ n: 400, d: 400 });
    expect((await source('big_history'))?.last_message_id).toBe(3000);
    // its lease runs out; another worker takes over from the last confirmed id
    await ctx.database.db.execute(
      sql`UPDATE telegram_sources SET lease_until = now() - interval '1 second' WHERE username = '@big_history'`,
    );
    const r = await big('takes-over', sink(-1)).pass();
    expect(r.read).toBe(7000); // the unconfirmed 4th batch once more, then the rest
    // no gap: every id 1..10000 reached the filter; the only repeat is the unconfirmed batch
    expect(new Set(handed).size).toBe(10_000);
    expect(handed.length).toBe(11_000);
    // no duplicate: stored once each, ids 10..10000
    expect(await stored(ch)).toEqual({ n: 1000, d: 1000, lo: 10, hi: 10_000 });
  });

  it('FLOOD_WAIT_30 on a simulated clock: the account pauses ≥ 30 s, its channel moves to a free account', async () => {
    clock = new Date('2026-11-29T12:00:00Z');
    const ch = await channel('flood_ch', 5);
    const a1 = await account(1002);
    const a2 = await account(1003);
    await ctx.database.db.execute(sql`UPDATE telegram_accounts SET status = 'paused' WHERE id NOT IN (${a1}, ${a2})`);
    tg.accountErrors.set(1002, { text: 'FLOOD_WAIT_30', once: false });
    // one channel per account: a1 (fewest, lowest id) gets it first
    await collector('w-flood', 1).pass();
    const acc1 = (await sa.get(`/modules/telegram/accounts/${a1}`)).json();
    const until = await ctx.database.db.execute<{ t: Date }>(
      sql`SELECT flood_wait_until AS t FROM telegram_accounts WHERE id = ${a1}`,
    );
    expect(new Date(until.rows[0]?.t as Date).getTime() - clock.getTime()).toBeGreaterThanOrEqual(30_000);
    expect(acc1.id).toBe(a1);
    expect((await source('flood_ch'))?.account_id).toBe(a2);
    expect(await stored(ch)).toMatchObject({ n: 5, d: 5 });
    const repo = createTelegramRepo(ctx.database.db);
    expect((await repo.usableAccounts(10, new Date(clock.getTime() + 29_000))).map((x) => x.id)).not.toContain(a1);
    expect((await repo.usableAccounts(10, new Date(clock.getTime() + 30_000))).map((x) => x.id)).toContain(a1);
    tg.accountErrors.delete(1002);
    await ctx.database.db.execute(sql`UPDATE telegram_accounts SET status = 'active' WHERE status = 'paused'`);
  });

  it('CHANNEL_PRIVATE: the channel shows the reason', async () => {
    clock = new Date();
    await channel('closed_ch', 3, { error: 'CHANNEL_PRIVATE' });
    await collector('w-priv').pass();
    expect(await source('closed_ch')).toMatchObject({ state: 'error', error: ACCOUNT_COLLECTOR_MSG.private });
    const list = (await sa.get('/modules/telegram/channels?q=closed_ch')).json();
    expect(list.items[0].collector).toMatchObject({ state: 'error', error: ACCOUNT_COLLECTOR_MSG.private });
  });

  it('AUTH_KEY_UNREGISTERED: the account needs sign-in; its channel goes to another account', async () => {
    clock = new Date();
    const ch = await channel('revoked_ch', 4);
    const a = await account(1004);
    await ctx.database.db.execute(sql`UPDATE telegram_accounts SET status = 'paused' WHERE id <> ${a}`);
    tg.accountErrors.set(1004, { text: 'AUTH_KEY_UNREGISTERED', once: false });
    await collector('w-revoked').pass();
    const got = (await sa.get(`/modules/telegram/accounts/${a}`)).json();
    expect(got).toMatchObject({ state: 'needs_login', has_session: false });
    expect((await source('revoked_ch'))?.state).toBe('error'); // no account left: «нет свободного аккаунта»
    await ctx.database.db.execute(sql`UPDATE telegram_accounts SET status = 'active' WHERE id <> ${a}`);
    await ctx.database.db.execute(sql`UPDATE telegram_sources SET next_run_at = now() WHERE username = '@revoked_ch'`);
    await collector('w-revoked').pass();
    expect(await stored(ch)).toMatchObject({ n: 4, d: 4 });
    tg.accountErrors.delete(1004);
  });

  it('two workers never collect one channel at once', async () => {
    clock = new Date();
    const ch = await channel('shared_ch', 300);
    tg.maxActive = 0;
    await Promise.all([collector('x1').pass(), collector('x2').pass()]);
    expect(tg.maxActive).toBe(1);
    expect(await stored(ch)).toEqual({ n: 300, d: 300, lo: 1, hi: 300 });
  });

  it('the session and api_hash are nowhere after collecting (edits, deletions, errors): DB text, jobs, audit, logs', async () => {
    const secrets = [API_HASH, session];
    expect(await columnsHolding(ctx, secrets)).toEqual([]);
    const all = logs.join('\n');
    expect(all.length).toBeGreaterThan(0);
    for (const s of secrets) expect(all.includes(s), 'a secret in the logs').toBe(false);
  });
});
