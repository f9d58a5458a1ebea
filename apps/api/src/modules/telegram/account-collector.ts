/*
 * The MTProto collector: channels read by signed-in collector accounts (mtcute). Shares the preview
 * collector's source rows and their PostgreSQL lease (one collector per channel across machines) and
 * its resume rule (the source's last id moves only after a filed batch, only by the lease holder).
 *
 * A claimed channel is assigned to a usable account (session, active, not in flood-wait), at most
 * `maxPerAccount` channels each, fewest first; the account resolves the channel (joins it when it is
 * public and not joined), reads history above the last stored id in ascending batches
 * (messages.getHistory with offset_id = last+1, add_offset = -batch) and files each batch through the
 * message filter (per-company keyword matching, as the preview path).
 * Telegram's errors: FLOOD_WAIT_X → the account pauses until now + X s and its channels return to the
 * pool (another account takes them); CHANNEL_PRIVATE / invalid → the channel shows the reason;
 * AUTH_KEY_UNREGISTERED → the account needs sign-in; USER_DEACTIVATED → banned.
 */
import { randomUUID } from 'node:crypto';
import { telegramLink } from '@forpost/contract/telegram';
import type { tl } from '@mtcute/core';
import type { AuditActor } from '../../lib/audit';
import { errInfo, type Logger } from '../../lib/logger';
import { type Poller, startPoller } from '../../lib/poller';
import type { PostSink } from './collector';
import { LEASE_SECONDS } from './collector';
import { classifyTelegramError, type MtprotoClient, type MtprotoFactory } from './mtproto';
import type { SourceRow, TelegramRepo } from './telegram.repo';

export const ACCOUNT_COLLECTOR_MSG = {
  noAccount: 'Нет свободного аккаунта-сборщика: добавьте аккаунт или увеличьте число каналов на аккаунт',
  private: 'Канал закрытый: аккаунт не состоит в нём или заблокирован в канале',
  invalid: 'Канал не найден в Telegram: имя неверно или это не канал',
  failed: 'Telegram отклонил запрос: повторим позже',
} as const;

const RETRY_SECONDS = 600;
type Subs = Parameters<PostSink['ingest']>[0];

/**
 * «Forwarded from» of a message: the hidden sender's name (fwd_from.from_name), else the channel's
 * title with its @name or the user's name, looked up in the chats and users Telegram sent along;
 * null when the message is not forwarded.
 */
export function forwardedFrom(m: tl.RawMessage, chats: tl.TypeChat[], users: tl.TypeUser[]): string | null {
  const f = m.fwdFrom;
  if (!f) return null;
  if (f.fromName) return f.fromName;
  const p = f.fromId;
  if (p?._ === 'peerChannel' || p?._ === 'peerChat') {
    const id = p._ === 'peerChannel' ? p.channelId : p.chatId;
    const c = chats.find((x) => x.id === id);
    if (c && 'title' in c) return c._ === 'channel' && c.username ? `${c.title} (@${c.username})` : c.title;
  } else if (p?._ === 'peerUser') {
    const u = users.find((x) => x.id === p.userId);
    if (u?._ === 'user') {
      const name = [u.firstName, u.lastName].filter(Boolean).join(' ');
      if (name) return u.username ? `${name} (@${u.username})` : name;
      if (u.username) return `@${u.username}`;
    }
  }
  return f.postAuthor ?? 'скрытый источник';
}

export function createAccountCollector(deps: {
  repo: TelegramRepo;
  sink: PostSink;
  mtproto: MtprotoFactory;
  /** The account's decrypted credentials (telegram.service `credentials`); never logged. */
  credentials: (
    id: number,
  ) => Promise<{ phone?: string; api_id: string | null; api_hash: string | null; session: string | null }>;
  log: Pick<Logger, 'warn'>;
  /** How often the worker's poller looks for due channels (ms). */
  tickMs?: number;
  /** Channels per account (setting); messages per getHistory call. */
  maxPerAccount: () => Promise<number>;
  batch?: number;
  /** The newest posts re-read each pass for edits and deletions (≤ 100: one getHistory call). */
  recent?: number;
  intervalSeconds?: number;
  now?: () => Date;
  owner?: string;
}) {
  const { repo, sink } = deps;
  const owner = deps.owner ?? `mtproto-${randomUUID()}`;
  const now = deps.now ?? (() => new Date());
  const batch = deps.batch ?? 100;
  const recent = Math.min(100, deps.recent ?? 100);
  const interval = deps.intervalSeconds ?? 60;
  const actor: AuditActor = { userId: null, keyId: null };

  async function accountFor(src: SourceRow): Promise<number | null> {
    const usable = await repo.usableAccounts(await deps.maxPerAccount(), now());
    if (src.accountId !== null) {
      // Still assigned and usable (the query leaves out full accounts, so allow its own slot).
      const all = await repo.usableAccounts(Number.MAX_SAFE_INTEGER, now());
      if (all.some((a) => a.id === src.accountId)) return src.accountId;
    }
    const pick = usable[0];
    if (!pick) return null;
    await repo.assignSource(src.id, pick.id);
    return pick.id;
  }

  async function resolve(client: MtprotoClient, username: string): Promise<tl.TypeInputPeer> {
    const r = await client.call({ _: 'contacts.resolveUsername', username: username.replace(/^@/, '') });
    const peer = r.peer;
    const ch = peer._ === 'peerChannel' ? r.chats.find((c) => c.id === peer.channelId) : undefined;
    if (ch?._ !== 'channel') throw Object.assign(new Error('not a channel'), { notChannel: true });
    const accessHash = ch.accessHash;
    if (!accessHash) throw Object.assign(new Error('not a channel'), { notChannel: true });
    if (ch.left) await client.call({ _: 'channels.joinChannel', channel: { _: 'inputChannel', channelId: ch.id, accessHash } });
    return { _: 'inputPeerChannel', channelId: ch.id, accessHash };
  }

  /** A message as the filter takes it (a media caption is the message's text). */
  const toPost = (username: string, m: tl.RawMessage, chats: tl.TypeChat[], users: tl.TypeUser[]) => ({
    messageId: m.id,
    text: m.message,
    author: m.postAuthor ?? null,
    forwardedFrom: forwardedFrom(m, chats, users),
    views: m.views ?? null,
    editedAt: m.editDate ? new Date(m.editDate * 1000) : null,
    url: telegramLink(username, m.id),
    postedAt: new Date(m.date * 1000),
  });

  /**
   * Edits and deletions: the newest `recent` posts up to `last` are read again (one getHistory call).
   * An edited post (edit_date later than the stored one) goes through the filter again; a stored post
   * with an id inside the window that Telegram no longer returns was deleted (marked, never removed).
   * Older posts are not followed (docs/operations.md).
   */
  async function recheck(client: MtprotoClient, peer: tl.TypeInputPeer, src: SourceRow, subs: Subs, last: number) {
    const h = await client.call({
      _: 'messages.getHistory',
      peer,
      offsetId: last + 1,
      addOffset: 0,
      limit: recent,
      maxId: 0,
      minId: 0,
      offsetDate: 0,
      hash: 0 as never,
    });
    if (h._ === 'messages.messagesNotModified') return;
    const there = h.messages.filter((m) => m._ !== 'messageEmpty' && m.id <= last);
    const edited = there.filter((m): m is tl.RawMessage => m._ === 'message' && !!m.editDate);
    if (edited.length)
      await sink.ingest(
        subs,
        edited.map((m) => toPost(src.username, m, h.chats, h.users)),
        actor,
      );
    // A short answer reached the channel's first post: the window starts at 1.
    const from = h.messages.length < recent ? 1 : Math.min(...there.map((m) => m.id));
    if (Number.isFinite(from))
      await sink.markDeleted(
        subs,
        { from, to: last },
        there.map((m) => m.id),
        actor,
      );
  }

  /** One channel under its lease with one account; returns messages read. */
  async function collect(src: SourceRow, accountId: number, stopped: () => boolean): Promise<number> {
    const creds = await deps.credentials(accountId);
    if (!creds.api_id || !creds.api_hash || !creds.session) {
      await repo.unassignAccount(accountId);
      await repo.finishSource(src.id, owner, { state: 'pending', error: null, nextInSeconds: 0, collected: false });
      return 0;
    }
    const client = deps.mtproto({ apiId: Number(creds.api_id), apiHash: creds.api_hash, phone: creds.phone });
    let read = 0;
    try {
      await client.importSession(creds.session);
      const peer = await resolve(client, src.username);
      const subs = await repo.activeSubscriptions(src.username);
      let last = src.lastMessageId ?? 0;
      while (!stopped()) {
        const h = await client.call({
          _: 'messages.getHistory',
          peer,
          offsetId: last + 1,
          addOffset: -batch,
          limit: batch,
          maxId: 0,
          minId: last,
          offsetDate: 0,
          hash: 0 as never,
        });
        if (h._ === 'messages.messagesNotModified') break;
        const msgs = (h.messages.filter((m) => m._ === 'message' && m.id > last) as tl.RawMessage[]).sort((a, b) => a.id - b.id);
        if (!msgs.length) break;
        await sink.ingest(
          subs,
          msgs.map((m) => toPost(src.username, m, h.chats, h.users)),
          actor,
        );
        read += msgs.length;
        last = (msgs[msgs.length - 1] as tl.RawMessage).id;
        if (!(await repo.advanceSource(src.id, owner, last, LEASE_SECONDS))) return read;
        if (msgs.length < batch) break;
      }
      if (last > 0 && !stopped()) await recheck(client, peer, src, subs, last);
      await repo.updateAccount(accountId, { lastActivityAt: now() });
      await repo.finishSource(src.id, owner, { state: 'ok', error: null, nextInSeconds: interval, collected: true });
    } catch (e) {
      const k = classifyTelegramError(e);
      if ((e as { notChannel?: boolean }).notChannel || k?.kind === 'channel_invalid') {
        await repo.finishSource(src.id, owner, {
          state: 'not_found',
          error: ACCOUNT_COLLECTOR_MSG.invalid,
          nextInSeconds: RETRY_SECONDS,
          collected: false,
        });
      } else if (k?.kind === 'channel_private') {
        await repo.finishSource(src.id, owner, {
          state: 'error',
          error: ACCOUNT_COLLECTOR_MSG.private,
          nextInSeconds: RETRY_SECONDS,
          collected: false,
        });
      } else if (k?.kind === 'flood_wait' || k?.kind === 'auth_revoked' || k?.kind === 'banned') {
        if (k.kind === 'flood_wait')
          await repo.updateAccount(accountId, { floodWaitUntil: new Date(now().getTime() + k.seconds * 1000) });
        else if (k.kind === 'auth_revoked') await repo.updateAccount(accountId, { sessionEnc: null });
        else await repo.updateAccount(accountId, { status: 'banned', sessionEnc: null });
        // The account's channels go back to the pool: another account takes them at once.
        await repo.unassignAccount(accountId);
        await repo.finishSource(src.id, owner, { state: 'pending', error: null, nextInSeconds: 0, collected: false });
      } else if (k) {
        await repo.finishSource(src.id, owner, {
          state: 'error',
          error: ACCOUNT_COLLECTOR_MSG.failed,
          nextInSeconds: RETRY_SECONDS,
          collected: false,
        });
      } else throw e;
    } finally {
      await client.destroy().catch(() => undefined);
    }
    return read;
  }

  /** Every due channel once: claim (lease), pick an account, collect; until none is due or `stopped()`. */
  async function pass(stopped: () => boolean = () => false) {
    const res = { sources: 0, read: 0 };
    await repo.enrolSources();
    for (;;) {
      if (stopped()) break;
      const src = await repo.claimSource(owner, LEASE_SECONDS, 'account');
      if (!src) break;
      res.sources++;
      const acc = await accountFor(src);
      if (acc === null) {
        await repo.finishSource(src.id, owner, {
          state: 'error',
          error: ACCOUNT_COLLECTOR_MSG.noAccount,
          nextInSeconds: interval,
          collected: false,
        });
        continue;
      }
      try {
        res.read += await collect(src, acc, stopped);
      } catch (e) {
        deps.log.warn({ err: errInfo(e), channel: src.username }, 'telegram account collection failed');
      }
    }
    return res;
  }

  const pollers: Poller[] = [];
  return {
    owner,
    pass,
    /** ROLE=all|worker: a pass every few seconds. `background: false` (tests): none (call pass). */
    attach(opts: { work: boolean; background?: boolean }) {
      if (!opts.work || opts.background === false) return;
      pollers.push(
        startPoller({ intervalMs: deps.tickMs ?? 5_000, run: pass, log: deps.log, failure: 'telegram account pass failed' }),
      );
    },
    async stop() {
      for (const p of pollers.splice(0)) await p.stop();
    },
  };
}
export type AccountCollector = ReturnType<typeof createAccountCollector>;
