// The light modules (no zod, no registry): this validator is in the entry chunk with the route tree.
import { isDay, PERIOD_PRESETS } from '@forpost/contract/enums';
import { isModuleSectionCode } from '@forpost/contract/modules/sections';

/** The home page's state in the URL: `/?period=90d` or `/?from=2026-03-01&to=2026-03-31&modules=domains,media`. */
export interface DashboardSearch {
  period?: (typeof PERIOD_PRESETS)[number];
  from?: string;
  to?: string;
  /** Module codes, comma-joined. */
  modules?: string;
}

export function validateDashboardSearch(raw: Record<string, unknown>): DashboardSearch {
  const out: DashboardSearch = {};
  if (typeof raw.period === 'string' && (PERIOD_PRESETS as readonly string[]).includes(raw.period))
    out.period = raw.period as DashboardSearch['period'];
  if (typeof raw.from === 'string' && typeof raw.to === 'string' && isDay(raw.from) && isDay(raw.to) && raw.from <= raw.to) {
    out.from = raw.from;
    out.to = raw.to;
    delete out.period;
  }
  if (typeof raw.modules === 'string') {
    const list = raw.modules.split(',').filter(isModuleSectionCode);
    if (list.length) out.modules = [...new Set(list)].join(',');
  }
  return out;
}
