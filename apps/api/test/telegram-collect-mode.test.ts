/*
 * A channel's collection mode: «Веб-просмотр» (preview) or «Аккаунт» (MTProto). Each collector claims
 * only its own mode's sources, and the account collector the app builds (the one main.ts attaches on
 * ROLE=all|worker) reads an account-mode channel through the MtprotoFactory given to buildApp — here
 * mtcute's StubTelegramClient (@mtcute/test) answering the real TL methods.
 */
import { tl } from '@mtcute/core';
import { StubTelegramClient } from '@mtcute/test';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ACCOUNT_COLLECTOR_MSG, createTelegramRepo } from '../src/modules/telegram/index';
import type { MtprotoClient } from '../src/modules/telegram/mtproto';
import { setConfig } from './discovery-kit';
import { ADMIN, Client, createCompany, createUser, setupApp, type TestContext } from './helpers';

const channels = new Map<string, { id: number; messages: number }>();
const ACC_HASH = { low: 7, high: 0, unsigned: false } as never;

function factory(): MtprotoClient {
  const c = new StubTelegramClient();
  c.respondWith('contacts.resolveUsername', (req) => {
    const ch = channels.get(req.username);
    if (!ch) throw new tl.RpcError(400, 'USERNAME_NOT_OCCUPIED');
    return {
      _: 'contacts.resolvedPeer',
      peer: { _: 'peerChannel', channelId: ch.id },
      chats: [{ _: 'channel', id: ch.id, title: req.username, accessHash: ACC_HASH, left: false, broadcast: true } as never],
      users: [],
    };
  });
  c.respondWith('messages.getHistory', (req) => {
    const ch = [...channels.values()].find((x) => req.peer._ === 'inputPeerChannel' && x.id === req.peer.channelId);
    if (!ch) throw new tl.RpcError(400, 'CHANNEL_INVALID');
    const ids = Array.from({ length: ch.messages }, (_, i) => ch.messages - i).filter((id) => id > req.minId);
    return {
      _: 'messages.channelMessages',
      pts: 1,
      count: ch.messages,
      messages: ids.slice(0, req.limit).map((id) => ({
        _: 'message',
        id,
        peerId: { _: 'peerChannel', channelId: ch.id },
        date: 1_795_000_000 + id,
        message: `Ромашка Ритейл: пост ${id}`,
      })),
      chats: [],
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

beforeAll(async () => {
  ctx = await setupApp({}, false, { mtproto: factory });
  await createUser(ctx, { email: ADMIN.email, role: 'SUPER_ADMIN' });
  sa = new Client(ctx);
  await sa.login(ADMIN.email, ADMIN.password);
  A = await createCompany(ctx, 'Ромашка Ритейл');
  const s = new StubTelegramClient();
  session = await s.exportSession();
  await s.destroy();
});
afterAll(async () => {
  await ctx.app.services.telegramAccountCollector.stop();
});

async function channel(username: string, mode?: 'preview' | 'account') {
  const r = await sa.post('/modules/telegram/channels', {
    link: `@${username}`,
    company_id: A.id,
    keywords: ['ромашка'],
    ...(mode && { collect_mode: mode }),
  });
  expect(r.statusCode, r.body).toBe(201);
  return r.json() as { id: number; collect_mode: string };
}

describe('collection mode per channel', () => {
  it('the preview and the account collector never claim the same source; a mode change waits for the lease', async () => {
    const repo = createTelegramRepo(ctx.database.db);
    const p = await channel('mode_preview');
    const a = await channel('mode_account', 'account');
    expect(p.collect_mode).toBe('preview');
    expect(a.collect_mode).toBe('account');
    // A second company following the same channel without a mode leaves the shared source's mode alone.
    const B = await createCompany(ctx, 'Северный Банк');
    const b = await sa.post('/modules/telegram/channels', { link: '@mode_account', company_id: B.id, keywords: ['банк'] });
    expect(b.statusCode, b.body).toBe(201);
    expect(b.json().collect_mode).toBe('account');
    await repo.enrolSources();
    const byPreview = await repo.claimSource('p', 60, 'preview');
    const byAccount = await repo.claimSource('a', 60, 'account');
    expect(byPreview?.username).toBe('@mode_preview');
    expect(byAccount?.username).toBe('@mode_account');
    expect(await repo.claimSource('p', 60, 'preview')).toBeUndefined();
    expect(await repo.claimSource('a', 60, 'account')).toBeUndefined();

    // Switched to preview while the account collector holds it: the preview collector waits for the lease.
    const r = await sa.patch(`/modules/telegram/channels/${a.id}`, { collect_mode: 'preview' });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().collect_mode).toBe('preview');
    expect(await repo.claimSource('p', 60, 'preview')).toBeUndefined();
    await repo.finishSource(byAccount?.id as number, 'a', { state: 'ok', error: null, nextInSeconds: 0, collected: false });
    expect((await repo.claimSource('p', 60, 'preview'))?.username).toBe('@mode_account');
    expect(await repo.claimSource('a', 60, 'account')).toBeUndefined();
    await ctx.database.db.execute(sql`UPDATE telegram_channels SET is_active = false`);
  });

  it('the worker-started account collector reads an account-mode channel, at most N channels per account', async () => {
    await setConfig(sa, 'telegram_account_channels', 1);
    const acc = await sa.post('/modules/telegram/accounts', {
      name: 'Сборщик 1',
      phone: '+79990001001',
      api_id: '1001',
      api_hash: 'f'.repeat(32),
      session,
    });
    expect(acc.statusCode, acc.body).toBe(201);
    channels.set('worker_one', { id: 7001, messages: 30 });
    channels.set('worker_two', { id: 7002, messages: 5 });
    const one = await channel('worker_one', 'account');
    const two = await channel('worker_two', 'account');

    ctx.app.services.telegramAccountCollector.attach({ work: true });
    const cards = async () =>
      Promise.all([one.id, two.id].map(async (id) => (await sa.get(`/modules/telegram/channels/${id}`)).json()));
    await vi.waitFor(
      async () => {
        const [c1, c2] = await cards();
        expect(c1.collector?.state).toBe('ok');
        expect(c2.collector?.state).toBe('error');
      },
      { timeout: 15_000, interval: 100 },
    );
    await ctx.app.services.telegramAccountCollector.stop();
    const [c1, c2] = await cards();
    expect(c1.collect_mode).toBe('account');
    expect(c1.collector.account).toEqual({ id: acc.json().id, name: 'Сборщик 1' });
    expect(c1.messages_count).toBe(30);
    // One channel per account (the setting): the second waits for a free account, and says so.
    expect(c2.collector).toMatchObject({ state: 'error', error: ACCOUNT_COLLECTOR_MSG.noAccount, account: null });
    expect(c2.messages_count).toBe(0);
  });
});
