import { eventCreateRequest } from '@forpost/contract/events';
import {
  type CollectMessageRequest,
  FILTRATOR_MSG,
  type Message,
  type MessageListItem,
  type MessageListQuery,
  type MessageToEventRequest,
  type RuleRef,
} from '@forpost/contract/filtrator';
import { getModule, inputFields, type ModuleDescriptor, messageTarget } from '@forpost/contract/modules';
import { companiesWith, type Principal } from '@forpost/contract/permissions';
import { telegramLink } from '@forpost/contract/telegram';
import { storableText } from '@forpost/contract/validation';
import type { Db } from '../../db/client';
import type { Audit, AuditActor } from '../../lib/audit';
import type { Caller } from '../../lib/caller';
import { ApiError, badRequest, notFound } from '../../lib/errors';
import { iso } from '../../lib/serialize';
import { createFiltratorRepo, type FiltratorRepo, type MessageView, type RuleHit } from './filtrator.repo';

const escapeHtml = (s: string) =>
  s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;').replaceAll("'", '&#39;');

/**
 * The highlight is built from escaped text, so its only tags are <mark> and </mark>. Checked here
 * once more: anything else falls back to the plainly escaped text (never unescaped markup).
 */
export function safeHighlight(highlight: string | undefined, text: string): string {
  if (highlight !== undefined && !/[<>]/.test(highlight.replaceAll('<mark>', '').replaceAll('</mark>', ''))) return highlight;
  return escapeHtml(text.slice(0, 500));
}

/** Matched keywords (each once, first occurrence first) and where each came from. */
function rulesOf(hits: RuleHit[]): { rules: string[]; rulesMap: RuleRef[] } {
  const seen = new Set<string>();
  const rules: string[] = [];
  for (const h of hits) {
    const k = h.keyword.toLowerCase();
    if (!seen.has(k)) {
      seen.add(k);
      rules.push(h.keyword);
    }
  }
  return { rules, rulesMap: hits.map((h) => ({ item_id: h.item_id, rule_index: h.rule_index })) };
}

function toMessage(v: MessageView): Message {
  return {
    id: v.m.id,
    channel: v.channel,
    company: v.company,
    message_id: v.m.messageId,
    text: v.m.text,
    author: v.m.author,
    forwarded_from: v.m.forwardedFrom,
    views: v.m.views,
    edited_at: iso(v.m.editedAt),
    deleted_at: iso(v.m.deletedAt),
    url: v.m.url,
    link: telegramLink(v.channel.username, v.m.messageId),
    posted_at: iso(v.m.postedAt),
    created_at: iso(v.m.createdAt),
    rules: v.m.rules,
    rules_map: v.m.rulesMap,
  };
}

// PostgreSQL text cannot hold NUL or lone surrogates; collectors sometimes send them.
const clean = storableText;

/** A company's subscription to a channel (a telegram_channels row). */
export interface Subscription {
  id: number;
  username: string;
  companyId: number;
}
/** One post of a channel as a collector read it. */
export interface ChannelPost {
  messageId: number;
  text: string;
  author: string | null;
  /** «Forwarded from» (channel title and @name, or a hidden sender's name). */
  forwardedFrom?: string | null;
  views?: number | null;
  /** Telegram's edit time: a stored post with an older (or no) edit time takes this text. */
  editedAt?: Date | null;
  url: string | null;
  postedAt: Date;
}

/** What to-event needs of the event engine (its service's create). */
export interface EventCreator {
  create(c: Caller, m: ModuleDescriptor, body: Record<string, unknown>, opts?: { tx?: Db }): Promise<Record<string, unknown>>;
}

/** The first line of the message (up to 200 characters) as the event title. */
function titleOf(text: string, fallback: string): string {
  const line =
    text
      .split(/\r?\n/)
      .map((l) => l.trim())
      .find(Boolean) ?? '';
  return (line.length > 200 ? `${line.slice(0, 199)}…` : line) || fallback;
}

export interface FiltratorServiceDeps {
  db: Db;
  audit: Audit;
  repo?: FiltratorRepo;
}

/**
 * The message filter. Collectors (messages.collect, an API key limited to its company) post
 * messages of registered channels; readers see the messages of the companies they may read.
 */
export function createFiltratorService(deps: FiltratorServiceDeps) {
  const { db, audit } = deps;
  const repo = deps.repo ?? createFiltratorRepo(db);
  let events: EventCreator | null = null;

  async function view(id: number) {
    const v = await repo.find(id);
    if (!v) throw notFound(FILTRATOR_MSG.notFound);
    return v;
  }
  /** The message if the principal may `perm` in its company; 404 otherwise (never reveal other tenants' ids). */
  async function visible(p: Principal, id: number, perm: 'messages.read' | 'messages.delete') {
    const v = await view(id);
    const scope = companiesWith(p, perm);
    if (scope !== 'all' && !scope.includes(v.m.companyId)) throw notFound(FILTRATOR_MSG.notFound);
    return v;
  }

  /**
   * Files posts of one channel for its subscriptions (one telegram_channels row per company following
   * it): a post is stored for a company only when that company's keyword rules match it — posts about
   * another client never land under this one. A repeat of (subscription, message id) stores nothing.
   * Per post: the ids stored now and the ids already stored.
   */
  async function ingest(
    subs: readonly Subscription[],
    posts: readonly ChannelPost[],
    actor: AuditActor,
  ): Promise<{ created: number[]; existing: number[] }[]> {
    const out: { created: number[]; existing: number[] }[] = [];
    // What each subscription already holds of these posts: one query per subscription, not per post.
    const stored = new Map<number, Map<number, { id: number; editedAt: Date | null }>>();
    for (const sub of subs)
      stored.set(
        sub.id,
        await repo.idsOf(
          sub.id,
          posts.map((p) => p.messageId),
        ),
      );
    for (const post of posts) {
      const res = { created: [] as number[], existing: [] as number[] };
      out.push(res);
      const text = clean(post.text);
      for (const sub of subs) {
        const had = stored.get(sub.id)?.get(post.messageId);
        if (had !== undefined) {
          if (post.editedAt && (!had.editedAt || had.editedAt < post.editedAt)) await revise(sub, had.id, post, text, actor);
          res.existing.push(had.id);
          continue;
        }
        // Matching is a read: most posts are about nobody here, and they cost one query, no transaction.
        const { rules, rulesMap } = rulesOf(await repo.matchRules(sub.companyId, text));
        if (!rules.length) continue; // not about this company: nothing stored for it
        const id = await db.transaction(async (tx) => {
          const id = await repo.insert(
            {
              channelId: sub.id,
              companyId: sub.companyId,
              messageId: post.messageId,
              text,
              author: post.author ? clean(post.author) || null : null,
              forwardedFrom: post.forwardedFrom ? clean(post.forwardedFrom) || null : null,
              views: post.views ?? null,
              editedAt: post.editedAt ?? null,
              url: post.url,
              postedAt: post.postedAt,
              rules,
              rulesMap,
              collectedByUserId: actor.userId ?? null,
              collectedByKeyId: actor.keyId ?? null,
            },
            tx,
          );
          if (id === undefined) return undefined; // a concurrent post of the same message won
          await repo.touchChannel(sub.id, post.postedAt, tx);
          await audit.record(
            actor,
            {
              action: 'message.collect',
              entity: 'filtrator_message',
              entityId: id,
              companyId: sub.companyId,
              meta: { channel: sub.username, message_id: post.messageId, rules },
            },
            tx,
          );
          return id;
        });
        if (id !== undefined) res.created.push(id);
        else {
          const again = await repo.idOf(sub.id, post.messageId);
          if (again !== undefined) res.existing.push(again);
        }
      }
    }
    return out;
  }

  /**
   * An edit of a stored post: the new text, its keywords matched again. A text that still matches
   * takes the new rules; one that no longer does keeps the rules it was stored for (the row stays,
   * marked «изменено»). Written with its audit entry; a repeat of the same edit writes nothing.
   */
  async function revise(sub: Subscription, id: number, post: ChannelPost, text: string, actor: AuditActor) {
    const { rules, rulesMap } = rulesOf(await repo.matchRules(sub.companyId, text));
    await db.transaction(async (tx) => {
      const changed = await repo.revise(
        id,
        { text, editedAt: post.editedAt as Date, views: post.views, ...(rules.length && { rules, rulesMap }) },
        tx,
      );
      if (!changed) return;
      await audit.record(
        actor,
        {
          action: 'message.edit',
          entity: 'filtrator_message',
          entityId: id,
          companyId: sub.companyId,
          meta: { channel: sub.username, message_id: post.messageId, matches: rules.length > 0, rules },
        },
        tx,
      );
    });
  }

  /**
   * Deletions seen in Telegram: the stored posts of these subscriptions with ids in [from, to] that are
   * not in `present` (the ids Telegram still has there) are marked deleted — never removed — each with
   * its audit entry, in one transaction. How many were marked.
   */
  async function markDeleted(
    subs: readonly Subscription[],
    range: { from: number; to: number },
    present: readonly number[],
    actor: AuditActor,
  ): Promise<number> {
    const names = new Map(subs.map((s) => [s.id, s.username]));
    return db.transaction(async (tx) => {
      const rows = await repo.markDeleted(
        subs.map((s) => s.id),
        range.from,
        range.to,
        present,
        tx,
      );
      for (const r of rows)
        await audit.record(
          actor,
          {
            action: 'message.source_delete',
            entity: 'filtrator_message',
            entityId: r.id,
            companyId: r.companyId,
            meta: { channel: names.get(r.channelId), message_id: Number(r.messageId) },
          },
          tx,
        );
      return rows.length;
    });
  }

  return {
    repo,

    /**
     * A message pushed by a collector key: filed for the channel's subscriptions in the key's scope
     * (`ingest`). 201 — stored for at least one company (the first such row); 200 — already stored,
     * nothing new; `skipped` — no subscribing company's keywords match, nothing stored.
     */
    async collect(
      { auth: { principal: p }, actor }: Caller,
      body: CollectMessageRequest,
    ): Promise<{ created: boolean; message: Message } | { skipped: true }> {
      const scope = companiesWith(p, 'messages.collect');
      const subs = (await repo.subscriptions(body.channel)).filter((s) => scope === 'all' || scope.includes(s.companyId));
      if (!subs.length) throw notFound(FILTRATOR_MSG.unknownChannel);
      const [r] = await ingest(
        subs,
        [
          {
            messageId: body.message_id,
            text: body.text,
            author: body.author ?? null,
            forwardedFrom: body.forwarded_from ?? null,
            views: body.views ?? null,
            editedAt: body.edited_at ? new Date(body.edited_at) : null,
            url: body.url || null,
            postedAt: new Date(body.posted_at),
          },
        ],
        actor,
      );
      const created = r?.created[0];
      if (created !== undefined) return { created: true, message: toMessage(await view(created)) };
      const existing = r?.existing[0];
      if (existing !== undefined) return { created: false, message: toMessage(await view(existing)) };
      return { skipped: true };
    },

    ingest,
    markDeleted,

    async list(
      { auth: { principal: p } }: Caller,
      q: MessageListQuery,
    ): Promise<{ items: MessageListItem[]; total: number; page: number; page_size: number }> {
      const scope = companiesWith(p, 'messages.read');
      const empty = { items: [], total: 0, page: q.page, page_size: q.page_size };
      if (scope !== 'all' && scope.length === 0) return empty;
      // Another company's id in the filter is not an error: it simply has nothing the caller may see.
      if (scope !== 'all' && q.company_id !== undefined && q.company_id !== -1 && !scope.includes(q.company_id)) return empty;
      const { rows, total } = await repo.list(scope, q);
      return {
        items: rows.map((v) => ({ ...toMessage(v), highlight: safeHighlight(v.highlight, v.m.text) })),
        total,
        page: q.page,
        page_size: q.page_size,
      };
    },

    async get({ auth: { principal: p } }: Caller, id: number): Promise<Message> {
      return toMessage(await visible(p, id, 'messages.read'));
    },

    async remove({ auth: { principal: p }, actor }: Caller, id: number): Promise<void> {
      const v = await visible(p, id, 'messages.delete');
      await db.transaction(async (tx) => {
        if (!(await repo.remove(id, tx))) throw notFound(FILTRATOR_MSG.notFound);
        await audit.record(
          actor,
          {
            action: 'message.delete',
            entity: 'filtrator_message',
            entityId: id,
            companyId: v.m.companyId,
            before: { channel: v.channel.username, message_id: v.m.messageId, text: v.m.text.slice(0, 1000), rules: v.m.rules },
          },
          tx,
        );
      });
    },

    /** Plugs in the event engine (registered after the filtrator routes). */
    useEvents(e: EventCreator) {
      events = e;
    },

    /**
     * Makes an event of `module` from a message the caller may read, in the message's company
     * (the event engine checks events.write there). The post's link and text prefill the module's
     * first URL and text fields; `fields` adds or overrides module fields.
     */
    async toEvent(c: Caller, id: number, body: MessageToEventRequest) {
      if (!events) throw new ApiError(503, FILTRATOR_MSG.eventsUnavailable);
      const v = await visible(c.auth.principal, id, 'messages.read');
      const m = getModule(body.module);
      const own = new Set(inputFields(m).map((f) => f.key));
      for (const key of Object.keys(body.fields ?? {})) {
        if (!own.has(key))
          throw badRequest(FILTRATOR_MSG.unknownField(key), { [`fields.${key}`]: FILTRATOR_MSG.unknownField(key) });
      }
      const link = telegramLink(v.channel.username, v.m.messageId);
      const prefill: Record<string, unknown> = {};
      const urlField = messageTarget(inputFields(m), 'link');
      const textField = messageTarget(inputFields(m), 'body');
      if (urlField) prefill[urlField.key] = link;
      if (textField && v.m.text.trim()) prefill[textField.key] = v.m.text.trim().slice(0, 2000);
      const request = {
        company_id: v.m.companyId,
        title: body.title ?? titleOf(v.m.text, `Сообщение ${v.channel.username} №${v.m.messageId}`),
        source: 'Telegram',
        detected_at: v.m.postedAt.toISOString(),
        ...prefill,
        ...body.fields,
      };
      const parsed = eventCreateRequest(m).safeParse(request);
      if (!parsed.success) {
        const fields: Record<string, string> = {};
        for (const i of parsed.error.issues) fields[`fields.${i.path.map(String).join('.')}`] ??= i.message;
        const list = Object.values(fields);
        throw badRequest(list.length === 1 ? (list[0] as string) : 'Заполните поля события выбранного модуля', fields);
      }
      const creator = events;
      const eventId = await db.transaction(async (tx) => {
        const ev = await creator.create(c, m, parsed.data, { tx });
        const eventId = Number(ev.id);
        await audit.record(
          c.actor,
          {
            action: 'message.to_event',
            entity: 'filtrator_message',
            entityId: id,
            companyId: v.m.companyId,
            meta: { module: m.code, event_id: eventId, link },
          },
          tx,
        );
        return eventId;
      });
      return { module: m.code, event_id: eventId, route: `${m.route}/${eventId}` };
    },

    /** For a channel's move to another company (telegram). */
    rematchChannel: (channelId: number, tx: Db) => repo.rematchChannel(channelId, tx),
  };
}
export type FiltratorService = ReturnType<typeof createFiltratorService>;
