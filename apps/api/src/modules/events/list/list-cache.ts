/*
 * The pages of the event lists this instance answered, kept for a moment (LIST_CACHE_MS, 1 s): the
 * first page of a module's list is what every analyst's console and every collector asks again and
 * again, and between two changes of events the answer is the same bytes. A page is kept under the
 * module, the caller's scope (the companies it may read), the query as parsed and — only when the
 * query says «me» — the caller; so two analysts with the same companies share it, and a caller never
 * gets a page of companies outside its scope (the scope is checked before the cache is consulted).
 *
 * How it stays true is db/notify-cache.ts's: any statement that changes events announces it on
 * EVENTS_CHANNEL (trigger, migration 0035_events_notify), any change of a user or a company (their
 * names are in the page; memberships change scopes) on ACCESS_CHANNEL; every instance drops every page.
 * What changes with the clock alone: an item's SLA turns overdue — a page is not kept past the first
 * such moment; filters relative to now («срок скоро», periods) are at most LIST_CACHE_MS old.
 * docs/decisions.md, «Путь запроса: одна и та же страница списка».
 */
import type { EventListQuery } from '@forpost/contract/events';
import type { ModuleDescriptor } from '@forpost/contract/modules';
import type pg from 'pg';
import { createNotifyCache, type NotifyCache } from '../../../db/notify-cache';
import { assertModule, type Caller, scopeFor } from '../../../lib/caller';
import type { Logger } from '../../../lib/logger';
import { ACCESS_CHANNEL } from '../../auth/index';

/** The channel the events trigger notifies (migration 0035_events_notify). */
export const EVENTS_CHANNEL = 'forpost_events';
/** Most held at once, over all pages, by pageWeight (≈ KB: ≈ 10–30 MB of objects); past it the oldest pages go. */
export const LIST_CACHE_WEIGHT = 10_000;

/** A cached page: its items (event views, their `sla` block: sla.view.ts) tell when it turns stale by itself. */
export interface CachedPage {
  readonly items: readonly Readonly<Record<string, unknown>>[];
}

export type ListCache = NotifyCache<CachedPage>;

/**
 * The first moment an item of the page turns overdue by the clock alone (null: none will): each item
 * shown as not overdue with a due time turns at due + 1 ms (overdue once now > due: contract sla.ts
 * slaOverdue). A moment already past — an item due while the page was read — keeps the page from
 * being kept at all (notify-cache stores only what ends after now).
 */
export function firstSlaTurn(page: CachedPage): number | null {
  let first: number | null = null;
  for (const it of page.items) {
    const sla = it.sla as { due_at?: string | null; overdue?: boolean } | null | undefined;
    if (!sla?.due_at || sla.overdue) continue;
    const turn = Date.parse(sla.due_at) + 1;
    if (first === null || turn < first) first = turn;
  }
  return first;
}

/** Roughly how many KB a page holds: its items (≈ 1 KB each) and its key and rules (the query's text). */
export const pageWeight = (page: CachedPage, key: string): number => page.items.length + Math.ceil((2 * key.length) / 1024);

/** `ttlMs`: LIST_CACHE_MS (0: no cache). */
export function createListCache(deps: { pool: pg.Pool; log: Pick<Logger, 'warn'>; ttlMs: number }): ListCache {
  return createNotifyCache<CachedPage>({
    ...deps,
    channels: [EVENTS_CHANNEL, ACCESS_CHANNEL],
    maxWeight: LIST_CACHE_WEIGHT,
    weigh: pageWeight,
    expiresAt: firstSlaTurn,
  });
}

/**
 * The key of a list query's page for this caller — after the checks that refuse it (the module of an
 * API key, a company outside the scope: 404), which run on every request, hit or not.
 */
export function listCacheKey(c: Caller, m: ModuleDescriptor, q: EventListQuery): string {
  assertModule(c, m.code);
  const scope = scopeFor(c, 'events.read', q.company_id);
  const asks = q as Record<string, unknown>;
  // «assignee=me» (a filter or inside a rule) is the only part of a list that depends on who asks;
  // rules are JSON (an escaped «\u006de» is «me» too), so any query with rules is the caller's own.
  const me = asks.assignee === 'me' || asks.rules !== undefined ? c.auth.user.id : '';
  return `${m.code}|${scope === 'all' ? '*' : scope.join(',')}|${me}|${JSON.stringify(q)}`;
}
