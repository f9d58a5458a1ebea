/*
 * The event card follows the watch: an observation that answers for the domain's module fields (IP,
 * NS, «Есть MX», HTTP status, page title, the certificate's issuer and names) writes them through the
 * events' write rules (changeOf: derived fields, fingerprint, search text, indicators), by the system.
 *
 * One history line per change (docs/decisions.md, «Наблюдение: поля карточки»): a field that a
 * transition of the same observation explains (MX by «Появилась почта (MX)», the IP by «Перестал
 * работать»…) has its transition line and no `update` line of its own — the transition row keeps its
 * before and after; a field no transition explains (an IP that moved, MX gone, a new title without a
 * new page hash) gets the usual `update` line.
 */
import { getModule } from '@forpost/contract/modules';
import type { TransitionKind, WatchState } from '@forpost/contract/watch';
import type { Db } from '../../db/client';
import { type CardVault, changeOf, columnsOf, type EventsRepo, type HistoryEntry } from '../events/index';
import { dnsKnown } from './transitions';

const DOMAINS = getModule('domains');

/** The domains module's fields the watch keeps. */
export const CARD_FIELDS = ['ip', 'ns', 'mx', 'http_status', 'page_title', 'ct_issuer', 'ct_names'] as const;
type CardField = (typeof CARD_FIELDS)[number];

/** The card fields whose change a transition's own history line already tells. */
const EXPLAINED: Record<TransitionKind, readonly CardField[]> = {
  parked: ['ns'],
  mx_appeared: ['mx'],
  web_live: ['http_status', 'page_title'],
  login_form: ['http_status', 'page_title'],
  content_changed: ['page_title'],
  cert_issued: ['ct_issuer', 'ct_names'],
  offline: ['ip', 'ns', 'mx', 'http_status', 'page_title'],
  came_back: ['ip', 'ns', 'mx', 'http_status', 'page_title'],
};

/** The domains module holds no sealed field: the watch never seals. */
const NO_VAULT: CardVault = {
  seal() {
    throw new Error('the watch writes no sealed field');
  },
  open() {
    throw new Error('the watch writes no sealed field');
  },
  hash() {
    throw new Error('the watch writes no sealed field');
  },
};

/**
 * The card fields an observation answers for (null clears one). Nothing when the DNS question failed
 * (no evidence); the certificate's fields only when the state shows a certificate (one that ceased to be
 * served stays on the card: it was issued).
 */
export function cardFieldsOf(s: WatchState): Partial<Record<CardField, unknown>> {
  if (!dnsKnown(s)) return {};
  const out: Partial<Record<CardField, unknown>> = {
    ip: s.a[0] ?? s.aaaa[0] ?? null,
    ns: s.ns.length ? s.ns.join(', ') : null,
    mx: s.mx.length > 0,
    http_status: s.http_status,
    page_title: s.title ? s.title.slice(0, 1000) : null,
  };
  if (s.tls_fingerprint) {
    out.ct_issuer = s.tls_issuer ? s.tls_issuer.slice(0, 1000) : null;
    out.ct_names = s.tls_sans.length ? s.tls_sans.join(', ').slice(0, 10_000) : null;
  }
  return out;
}

/** The fields of `wanted` that differ from the event's stored data. */
export function cardChanges(data: Record<string, unknown> | null, wanted: Partial<Record<CardField, unknown>>) {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(wanted)) if (JSON.stringify(data?.[k] ?? null) !== JSON.stringify(v ?? null)) out[k] = v;
  return out;
}

/**
 * Writes `input` (cardChanges) to the event in `tx`; returns the history lines to add (the `update`
 * lines of the fields no transition in `kinds` explains).
 */
export async function writeCard(
  events: Pick<EventsRepo, 'findById' | 'update'>,
  tx: Db,
  eventId: number,
  input: Record<string, unknown>,
  kinds: readonly TransitionKind[],
): Promise<HistoryEntry[]> {
  const before = await events.findById('domains', eventId, tx, true);
  if (!before) return [];
  const change = changeOf(DOMAINS, NO_VAULT, before, columnsOf(before), input, { actorUserId: null, actorKeyId: null });
  if (!change) return [];
  // The domain is not among the fields: the fingerprint and the allowlist mark stay.
  await events.update(eventId, { ...change.row, whitelistKind: before.whitelist_kind }, tx);
  const explained = new Set(kinds.flatMap((k) => EXPLAINED[k]));
  return change.history.filter((h) => !explained.has(h.field as CardField));
}
