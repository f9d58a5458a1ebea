/*
 * What an event list query selects (GET /modules/{code}/events): the module, the caller's tenant
 * scope, the list's own filters, the `rules` (any of them) and the free text `q`. One builder for the
 * list page and for the bulk operations on «все N, подходящие под фильтр» (bulk.service.ts).
 */
import { eventRuleSchema, MAX_RULES } from '@forpost/contract/events';
import { EVENT_MSG, type ModuleDescriptor } from '@forpost/contract/modules';
import type { Permission } from '@forpost/contract/permissions';
import type { SQL } from 'drizzle-orm';
import { assertModule, type Caller, scopeFor } from '../../../lib/caller';
import { badRequest } from '../../../lib/errors';
import type { CardVault } from '../write/event-data';
import { filterConditions, matching, resolveText, textQueryOf } from './events.query';
import { allOf, anyOf, moduleInScope, whereOf } from './list-filter.query';

export interface ListFilter {
  /** The module and the companies of the scope. */
  base: SQL[];
  /** The list's own filters, the free text left out. */
  own: SQL[];
  /** The same without the status filter (the counts per status). */
  ownButStatus: SQL[];
  /** The free text, its tsqueries resolved once (the page, the count and the status counts share them). */
  text: SQL | null;
  /** `rules`: one condition, any of them (empty without rules). */
  anyRule: SQL[];
  /** The rules as given and each one's condition (the list marks which rule an item matched). */
  rules?: { raw: Record<string, unknown>[]; conds: SQL[] };
  /** A free-text search is part of the query (its count stops earlier). */
  searching: boolean;
}

/** The filters of a list query (its paging and sort play no part). */
export type ListFilterQuery = { company_id?: number; rules?: string } & Record<string, unknown>;

export interface ListFilterDeps {
  vault: CardVault;
  /** The tsquery of a text, evaluated once (events.repo resolveQuery). */
  resolveQuery: (query: SQL) => Promise<SQL>;
}

/** `rules` (a JSON array of filter sets) → each one's condition; 400 in the error shape when malformed. */
function parseRules(
  m: ModuleDescriptor,
  text: string,
  vault: CardVault,
  me: number | null,
): { raw: Record<string, unknown>[]; conds: SQL[] } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw badRequest(EVENT_MSG.badRules, { rules: EVENT_MSG.badRules });
  }
  if (!Array.isArray(parsed) || parsed.length === 0 || parsed.length > MAX_RULES)
    throw badRequest(EVENT_MSG.badRules, { rules: EVENT_MSG.badRules });
  const raw: Record<string, unknown>[] = [];
  const conds: SQL[] = [];
  for (const [i, item] of parsed.entries()) {
    const r = eventRuleSchema(m).safeParse(item);
    if (!r.success) {
      const issue = r.error.issues[0];
      throw badRequest(EVENT_MSG.badRules, {
        [`rules.${i}${issue?.path.length ? `.${String(issue.path[0])}` : ''}`]: issue?.message ?? EVENT_MSG.badRules,
      });
    }
    raw.push(item as Record<string, unknown>);
    conds.push(allOf(filterConditions(m, r.data, vault, { me })));
  }
  return { raw, conds };
}

/**
 * The conditions of a list query for the caller, over companies where the caller has `perm` (and may
 * read). null: the scope is empty — the query selects nothing.
 */
export async function listFilter(
  c: Caller,
  m: ModuleDescriptor,
  q: ListFilterQuery,
  deps: ListFilterDeps,
  perm: Permission = 'events.read',
): Promise<ListFilter | null> {
  assertModule(c, m.code);
  const scope = scopeFor(c, perm, q.company_id);
  if (scope !== 'all' && scope.length === 0) return null;
  const base = moduleInScope(m.code, scope);
  // `assignee=me`: the signed-in user, or the owner of the API key.
  const me = c.auth.user.id;
  const rules = q.rules === undefined ? undefined : parseRules(m, q.rules, deps.vault, me);
  const query = typeof q.q === 'string' ? textQueryOf(q.q) : null;
  return {
    base,
    own: filterConditions(m, q, deps.vault, { skipText: true, me }),
    ownButStatus: filterConditions(m, q, deps.vault, { skipStatus: true, skipText: true, me }),
    text: query ? matching(await resolveText(query, deps.resolveQuery)) : null,
    anyRule: rules ? [anyOf(rules.conds)] : [],
    rules,
    searching: typeof q.q === 'string' || (rules?.raw ?? []).some((r) => typeof r.q === 'string'),
  };
}

/** The whole WHERE of a list filter (over `events e`). */
export const listWhere = (f: ListFilter): SQL => whereOf(f);
