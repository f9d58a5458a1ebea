/*
 * Related events of one event: for each of its indicators (modules/indicators.ts), the other events
 * with the same one that the caller may read — every module (an API key: its modules), every company
 * of the caller's scope, never another.
 */
import { INDICATOR_LABELS, indicatorsOf, type ModuleDescriptor, parseIndicator } from '@forpost/contract/modules';
import { companiesWith } from '@forpost/contract/permissions';
import { RELATED_COUNT_CAP, type RelatedEventsResponse } from '@forpost/contract/related';
import type { Caller } from '../../../lib/caller';
import { iso } from '../../../lib/serialize';
import type { EventsService } from '../write/events.service';
import type { RelatedRepo, RelatedScope } from './related.repo';

export function createRelatedService(deps: { events: EventsService; repo: RelatedRepo }) {
  return {
    async related(c: Caller, m: ModuleDescriptor, id: number): Promise<RelatedEventsResponse> {
      const event = await deps.events.load(c, m, id, 'events.read');
      const indicators = indicatorsOf(m, event.data ?? {});
      if (!indicators.length) return { items: [] };
      const keyModules = c.auth.principal.keyModules;
      const scope: RelatedScope = {
        companies: companiesWith(c.auth.principal, 'events.read'),
        modules: keyModules && !keyModules.includes('*') ? [...keyModules] : null,
      };
      if (scope.companies !== 'all' && !scope.companies.length) return { items: [] };
      const [items, counts] = await Promise.all([
        deps.repo.items(indicators, id, scope),
        deps.repo.counts(indicators, id, scope),
      ]);
      return {
        items: indicators.flatMap((indicator) => {
          const parsed = parseIndicator(indicator);
          if (!parsed) return [];
          const modules = counts
            .filter((r) => r.indicator === indicator)
            .map((r) => ({ module: r.module, count: r.n }))
            .sort((a, b) => b.count - a.count);
          const total = modules.reduce((s, x) => s + x.count, 0);
          if (!total) return [];
          return [
            {
              indicator,
              kind: parsed.kind,
              value: parsed.value,
              label: INDICATOR_LABELS[parsed.kind],
              total: Math.min(total, RELATED_COUNT_CAP),
              total_capped: total > RELATED_COUNT_CAP,
              modules,
              items: items
                .filter((r) => r.indicator === indicator)
                .map((r) => ({
                  id: Number(r.id),
                  module: r.module,
                  company_id: r.company_id,
                  company_name: r.company_name,
                  title: r.title,
                  status_id: r.status_id,
                  priority_id: r.priority_id,
                  created_at: iso(r.created_at) as string,
                })),
            },
          ];
        }),
      };
    },
  };
}
export type RelatedService = ReturnType<typeof createRelatedService>;
