/*
 * Home dashboard figures, from the rollups only (constant cost per day and dimension, whatever the
 * number of events). Tenant scope from the caller's principal; modules limited by API key roles.
 */
import {
  ANALYTICS_TZ,
  type AnalyticsQuery,
  CHART_MODULES,
  type ChartLink,
  type DASHBOARD_CHARTS,
  type DashboardChart,
  daysBetween,
  type MatrixResponse,
  matrixResponse,
  NO_PRIORITY,
  resolvePeriod,
  type TimeSeries,
  type TimeSeriesResponse,
  timeSeriesResponse,
} from '@forpost/contract/analytics';
import {
  CONNOTATION_LABELS,
  CONNOTATIONS,
  DEFAULT_PRIORITIES,
  getModule,
  MODULE_CODES,
  type ModuleCode,
} from '@forpost/contract/modules';
import type { Db } from '../../db/client';
import { type Caller, scopeFor } from '../events/access';
import { type AnalyticsRepo, type CountColumn, createAnalyticsRepo, type RollupFilter } from './analytics.repo';

type Refs = Awaited<ReturnType<AnalyticsRepo['refs']>>;

const CONNOTATION_COLORS: Record<(typeof CONNOTATIONS)[number], string> = {
  Positive: 'green',
  Negative: 'red',
  Neutral: 'blue',
  Undefined: 'default',
};

const ROLLUP_SEED = 'analytics.rollup.v2';

interface Resolved {
  filter: RollupFilter;
  days: string[];
  empty: boolean;
}

type ChartAnswer<K extends DashboardChart> = (typeof DASHBOARD_CHARTS)[K]['shape'] extends 'matrix'
  ? MatrixResponse
  : TimeSeriesResponse;

/** The response schema of each chart (the answer cache stores what it would have sent). */
const CHART_SCHEMAS: Record<DashboardChart, typeof timeSeriesResponse | typeof matrixResponse> = {
  newevents: timeSeriesResponse,
  criticalevents: timeSeriesResponse,
  priorityevents: matrixResponse,
  connotationevents: timeSeriesResponse,
  domainevents: timeSeriesResponse,
  accountevents: timeSeriesResponse,
};

export function createAnalyticsService(deps: {
  db: Db;
  repo?: AnalyticsRepo;
  now?: () => Date;
  /** Answers kept by the answer cache (0: no cache). */
  cacheEntries?: number;
}) {
  const repo = deps.repo ?? createAnalyticsRepo(deps.db);
  const now = deps.now ?? (() => new Date());
  let refsCache: { at: number; refs: Refs } | null = null;

  async function refs(): Promise<Refs> {
    if (refsCache && Date.now() - refsCache.at < 60_000 && refsCache.refs.statuses.length) return refsCache.refs;
    refsCache = { at: Date.now(), refs: await repo.refs() };
    return refsCache.refs;
  }

  /** Period, companies and modules of a request; `empty` when the caller may see nothing of it. */
  function resolve(c: Caller, q: AnalyticsQuery, only?: readonly ModuleCode[]): Resolved {
    const { from, to } = resolvePeriod(q, now());
    const days = daysBetween(from, to);
    const companies = scopeFor(c, 'events.read', q.company_id);
    const keyModules = c.auth.principal.keyModules;
    let modules: string[] = q.modules?.length ? [...q.modules] : [...MODULE_CODES];
    if (only) modules = modules.filter((m) => only.includes(m as ModuleCode));
    if (keyModules && !keyModules.includes('*')) modules = modules.filter((m) => keyModules.includes(m));
    const empty = modules.length === 0 || (companies !== 'all' && companies.length === 0);
    return { filter: { from, to, companies, modules }, days, empty };
  }

  const zeros = (n: number) => new Array<number>(n).fill(0);

  /** Rows (day as the offset from the period's first day, key, n) → one series per key, in `order`. */
  function series(
    days: string[],
    rows: { day: string | number; key: string | number; n: number }[],
    order: { key: string; name: string; color: string | null; link: ChartLink }[],
    keepEmpty: boolean,
  ): TimeSeries[] {
    const data = new Map(order.map((o) => [o.key, zeros(days.length)]));
    for (const r of rows) {
      const arr = data.get(String(r.key));
      const i = Number(r.day);
      if (arr && i >= 0 && i < days.length) arr[i] = (arr[i] ?? 0) + Number(r.n);
    }
    return order
      .map((o) => {
        const d = data.get(o.key) ?? zeros(days.length);
        return { key: o.key, name: o.name, color: o.color, total: d.reduce((a, b) => a + b, 0), data: d, link: o.link };
      })
      .filter((s) => keepEmpty || s.total > 0);
  }

  /** Series of `daySeries` rows (arrays of day offsets and counts per key), in `order`. */
  function keyedSeries(
    days: string[],
    rows: { key: string; d: number[]; n: number[] }[],
    order: { key: string; name: string; color: string | null; link: ChartLink }[],
  ): TimeSeries[] {
    const byKey = new Map(rows.map((r) => [r.key, r]));
    const out: TimeSeries[] = [];
    for (const o of order) {
      const r = byKey.get(o.key);
      if (!r) continue;
      const data = zeros(days.length);
      let total = 0;
      for (let i = 0; i < r.d.length; i++) {
        const at = r.d[i] as number;
        const n = r.n[i] as number;
        if (at >= 0 && at < days.length) {
          data[at] = (data[at] ?? 0) + n;
          total += n;
        }
      }
      if (total > 0) out.push({ key: o.key, name: o.name, color: o.color, total, data, link: o.link });
    }
    return out;
  }

  const emptySeries = (r: Resolved): TimeSeriesResponse => ({
    from: r.filter.from,
    to: r.filter.to,
    days: r.days,
    series: [],
    total: 0,
  });
  const sum = (s: { total: number }[]) => s.reduce((a, b) => a + b.total, 0);
  const moduleLink = (m: string, query: Record<string, string> = {}): ChartLink => ({
    path: getModule(m as ModuleCode).route,
    query,
  });

  /** Events of one module per day, one series per status (domains, accounts). */
  async function byStatus(r: Resolved, module: ModuleCode): Promise<TimeSeriesResponse> {
    if (r.empty) return emptySeries(r);
    const [rows, rf] = await Promise.all([repo.daySeries(r.filter, 'status'), refs()]);
    const statuses = rf.statuses.filter((s) => s.module === module);
    const s = keyedSeries(
      r.days,
      rows,
      statuses.map((st) => ({
        key: String(st.id),
        name: st.name,
        color: st.color,
        link: moduleLink(module, { status: st.code }),
      })),
    );
    return { from: r.filter.from, to: r.filter.to, days: r.days, series: s, total: sum(s) };
  }

  /** Each chart's figures for a resolved request. */
  const charts: { [K in DashboardChart]: (r: Resolved) => Promise<ChartAnswer<K>> } = {
    /** New events per day, one series per module. */
    async newevents(r) {
      if (r.empty) return emptySeries(r);
      const rows = await repo.daySeries(r.filter, 'total');
      const s = keyedSeries(
        r.days,
        rows,
        r.filter.modules.map((m) => ({ key: m, name: getModule(m as ModuleCode).name, color: null, link: moduleLink(m) })),
      );
      return { from: r.filter.from, to: r.filter.to, days: r.days, series: s, total: sum(s) };
    },

    /** Critical-priority events per day, one series per module. */
    async criticalevents(r) {
      if (r.empty) return emptySeries(r);
      const rows = await repo.daySeries(r.filter, 'p_critical');
      const s = keyedSeries(
        r.days,
        rows,
        r.filter.modules.map((m) => ({
          key: m,
          name: getModule(m as ModuleCode).name,
          color: null,
          link: moduleLink(m, { priority: 'critical' }),
        })),
      );
      return { from: r.filter.from, to: r.filter.to, days: r.days, series: s, total: sum(s) };
    },

    /** Events per module (categories) and priority (series), over the period. */
    async priorityevents(r) {
      const base = { from: r.filter.from, to: r.filter.to };
      if (r.empty) return { ...base, categories: [], series: [], total: 0 };
      const rows = await repo.counts(r.filter, ['module'] as const, [
        'total',
        'p_none',
        'p_low',
        'p_medium',
        'p_high',
        'p_critical',
      ]);
      const byModule = new Map(rows.map((x) => [String(x.module), x]));
      const categories = r.filter.modules
        .filter((m) => Number(byModule.get(m)?.total ?? 0) > 0)
        .map((m) => ({ key: m, name: getModule(m as ModuleCode).name }));
      const levels = [...DEFAULT_PRIORITIES].sort((a, b) => b.level - a.level);
      const out = [...levels.map((p) => ({ key: p.code, name: p.name, color: p.color })), { ...NO_PRIORITY }].map((p) => {
        const col = `p_${p.key}` as CountColumn;
        const data = categories.map((cat) => Number(byModule.get(cat.key)?.[col] ?? 0));
        const links = categories.map((cat) => (p.key === NO_PRIORITY.key ? null : moduleLink(cat.key, { priority: p.key })));
        return { key: p.key, name: p.name, color: p.color, total: data.reduce((a, b) => a + b, 0), data, links };
      });
      const series = out.filter((s) => s.total > 0);
      return { ...base, categories, series, total: sum(series) };
    },

    /** Media publications per day by sentiment. */
    async connotationevents(r) {
      if (r.empty) return emptySeries(r);
      const rows = await repo.counts(
        r.filter,
        ['day'] as const,
        ['c_positive', 'c_negative', 'c_neutral', 'c_undefined'],
        'offset',
      );
      const s = series(
        r.days,
        rows.flatMap((x) =>
          CONNOTATIONS.map((k) => ({ day: x.day, key: k, n: Number(x[`c_${k.toLowerCase()}` as CountColumn]) })),
        ),
        CONNOTATIONS.map((k) => ({
          key: k,
          name: CONNOTATION_LABELS[k],
          color: CONNOTATION_COLORS[k],
          link: moduleLink('media', k === 'Undefined' ? {} : { connotation: k }),
        })),
        false,
      );
      return { from: r.filter.from, to: r.filter.to, days: r.days, series: s, total: sum(s) };
    },

    domainevents: (r) => byStatus(r, 'domains'),
    accountevents: (r) => byStatus(r, 'accounts'),
  };
  const answer = <K extends DashboardChart>(chart: K, c: Caller, q: AnalyticsQuery) =>
    charts[chart](resolve(c, q, CHART_MODULES[chart] ?? undefined));

  /*
   * Answer cache: the JSON of a chart for a resolved request (period, companies, modules — never the
   * caller: the access check has already happened), valid while the rollups' generation is the same
   * and no unfolded delta touches the filter. Checked against the database on every request (in the
   * session check's own query, or one small prepared read), so it is exact on every instance; while events of the filter are being
   * written (deltas pending) answers are computed and not kept. Bounded: least recently used first out.
   */
  const cacheLimit = deps.cacheEntries ?? 256;
  const cache = new Map<string, { generation: string; refs: Refs; json: string }>();
  const stats = { hits: 0, misses: 0 };

  async function json<K extends DashboardChart>(chart: K, c: Caller, q: AnalyticsQuery): Promise<string> {
    const r = resolve(c, q, CHART_MODULES[chart] ?? undefined);
    const render = async () => JSON.stringify(CHART_SCHEMAS[chart].parse(await charts[chart](r)));
    if (cacheLimit <= 0 || r.empty) return render();
    const key = JSON.stringify([chart, r.filter]);
    // The session check has read the rollups' state already; with deltas pending somewhere, ask
    // whether any touch this filter (a write to other modules or companies keeps this answer).
    const seen = c.auth.rollups;
    const [before, rf] = await Promise.all([seen && !seen.pending ? seen : repo.freshness(r.filter), refs()]);
    const hit = cache.get(key);
    if (!before.pending && hit && hit.generation === before.generation && hit.refs === rf) {
      stats.hits++;
      cache.delete(key); // most recently used last
      cache.set(key, hit);
      return hit.json;
    }
    stats.misses++;
    const out = await render();
    if (before.pending) return out;
    // Kept under the generation read *before* computing: anything that changed the figures since then
    // is either a visible pending delta or a fold that raised the generation, so this entry can only
    // be served while the figures are still those of that first read.
    cache.delete(key);
    cache.set(key, { generation: before.generation, refs: rf, json: out });
    while (cache.size > cacheLimit) cache.delete(cache.keys().next().value as string);
    return out;
  }

  return {
    newEvents: (c: Caller, q: AnalyticsQuery) => answer('newevents', c, q),
    criticalEvents: (c: Caller, q: AnalyticsQuery) => answer('criticalevents', c, q),
    priorityEvents: (c: Caller, q: AnalyticsQuery) => answer('priorityevents', c, q),
    connotationEvents: (c: Caller, q: AnalyticsQuery) => answer('connotationevents', c, q),
    domainEvents: (c: Caller, q: AnalyticsQuery) => answer('domainevents', c, q),
    accountEvents: (c: Caller, q: AnalyticsQuery) => answer('accountevents', c, q),
    /** A chart's answer as JSON, from the answer cache when the figures have not moved. */
    json,
    /** Hits and misses of the answer cache since start (tests, diagnostics). */
    cacheStats: () => ({ ...stats, entries: cache.size }),

    /** Folds pending count deltas into the rollups (worker). */
    fold: () => repo.fold(),
    vacuumDeltas: () => repo.vacuumDeltas(),
    /** Builds the rollup from the events once, on the first start with this feature (worker). */
    async backfillOnce(): Promise<number | null> {
      if (await repo.seeded(ROLLUP_SEED)) return null;
      const n = await repo.rebuild(ANALYTICS_TZ);
      await repo.markSeeded(ROLLUP_SEED);
      return n;
    },
    repo,
  };
}
export type AnalyticsService = ReturnType<typeof createAnalyticsService>;
