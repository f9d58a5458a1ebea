/*
 * The SQL of a list filter (list-filter.ts decides what it selects): the module and the companies of
 * the caller's scope, a group of conditions, any of the rules, and the whole WHERE.
 */
import { type SQL, sql } from 'drizzle-orm';
import { and } from './events.query';

/** The module and the companies of the scope ('all': every company). */
export function moduleInScope(module: string, scope: 'all' | readonly number[]): SQL[] {
  const base: SQL[] = [sql`e.module = ${module}`];
  if (scope !== 'all')
    base.push(scope.length === 1 ? sql`e.company_id = ${scope[0]}` : sql`e.company_id = ANY(${`{${scope.join(',')}}`}::int[])`);
  return base;
}

/** All of the conditions, as one parenthesised condition. */
export const allOf = (conds: SQL[]): SQL => sql`(${and(conds)})`;

/** Any of the conditions (one rule of `rules` each). */
export const anyOf = (conds: SQL[]): SQL => sql`(${sql.join(conds, sql` OR `)})`;

/** The whole WHERE of a list filter (over `events e`). */
export const whereOf = (f: { base: SQL[]; own: SQL[]; text: SQL | null; anyRule: SQL[] }): SQL =>
  and([...f.base, ...f.own, ...(f.text ? [f.text] : []), ...f.anyRule]);
