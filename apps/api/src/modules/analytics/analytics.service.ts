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
import { type SlaSummaryResponse, slaSummaryResponse } from '@forpost/contract/sla';
import type { SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { type Caller, scopeFor } from '../../lib/caller';
import {
  type AnalyticsRepo,
  type CountColumn,
  type Counts,
  createAnalyticsRepo,
  type Part,
  type RollupFilter,
  type SeriesRow,
} from './analytics.repo';

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

type Row = Record<string, unknown>;
/** How a chart's figures are read (over a part), added up and rendered (see `charts`). */
interface ChartDef<K extends DashboardChart> {
  read: (f: RollupFilter, part: Part) => SQL;
  merge: 'series' | string[];
  render: (r: Resolved, rows: Row[], rf: Refs) => ChartAnswer<K>;
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

  const sum = (s: { total: number }[]) => s.reduce((a, b) => a + b.total, 0);
  const moduleLink = (m: string, query: Record<string, string> = {}): ChartLink => ({
    path: getModule(m as ModuleCode).route,
    query,
  });

  /**
   * A time-series answer from series rows (per key, arrays of day offsets and counts): one series per
   * key of `order` that has events in the period, in that order.
   */
  function timeSeries(
    r: Resolved,
    rows: SeriesRow[],
    order: { key: string; name: string; color: string | null; link: ChartLink }[],
  ): TimeSeriesResponse {
    const byKey = new Map(rows.map((x) => [x.key, x]));
    const series: TimeSeries[] = [];
    for (const o of order) {
      const x = byKey.get(o.key);
      if (!x) continue;
      const data = new Array<number>(r.days.length).fill(0);
      let total = 0;
      for (let i = 0; i < x.d.length; i++) {
        const at = x.d[i] as number;
        const n = x.n[i] as number;
        if (at >= 0 && at < data.length) {
          data[at] = (data[at] ?? 0) + n;
          total += n;
        }
      }
      if (total > 0) series.push({ key: o.key, name: o.name, color: o.color, total, data, link: o.link });
    }
    return { from: r.filter.from, to: r.filter.to, days: r.days, series, total: sum(series) };
  }

  /** The module a one-module chart is about (the contract's chart table names it). */
  const moduleOfChart = (chart: DashboardChart): ModuleCode => {
    const m = CHART_MODULES[chart]?.[0];
    if (!m) throw new Error(`chart ${chart} is not about one module`);
    return m;
  };

  /** Events of a one-module chart's module per day, one series per status (domains, accounts). */
  const byStatus = (chart: DashboardChart) => (r: Resolved, rows: Row[], rf: Refs) => {
    const module = moduleOfChart(chart);
    return timeSeries(
      r,
      rows as SeriesRow[],
      rf.statuses
        .filter((s) => s.module === module)
        .map((st) => ({ key: String(st.id), name: st.name, color: st.color, link: moduleLink(module, { status: st.code }) })),
    );
  };

  /** Per module, one series per module (new events, critical events). */
  const byModule = (query: Record<string, string>) => (r: Resolved, rows: Row[]) =>
    timeSeries(
      r,
      rows as SeriesRow[],
      r.filter.modules.map((m) => ({ key: m, name: getModule(m as ModuleCode).name, color: null, link: moduleLink(m, query) })),
    );

  const PRIORITY_COLUMNS = ['total', 'p_none', 'p_low', 'p_medium', 'p_high', 'p_critical'] as const;
  const CONNOTATION_COLUMNS = ['c_positive', 'c_negative', 'c_neutral', 'c_undefined'] as const;

  /**
   * Each chart: the SQL of its figures over a part (rollups, pending deltas, or both), how two row
   * sets of it add up, and the answer from its rows. Read and render are apart so the answer cache
   * can keep the rollups' rows and add the pending deltas to them.
   */
  const charts: { [K in DashboardChart]: ChartDef<K> } = {
    newevents: {
      read: (f, part) => repo.daySeriesSql(f, 'total', part),
      merge: 'series',
      render: byModule({}),
    },
    criticalevents: {
      read: (f, part) => repo.daySeriesSql(f, 'p_critical', part),
      merge: 'series',
      render: byModule({ priority: 'critical' }),
    },
    /** Events per module (categories) and priority (series), over the period. */
    priorityevents: {
      read: (f, part) => repo.countsSql(f, ['module'], PRIORITY_COLUMNS, 'text', part),
      merge: ['module'],
      render: (r, raw) => {
        const rows = raw as (Record<'module', string> & Counts)[];
        const base = { from: r.filter.from, to: r.filter.to };
        const byMod = new Map(rows.map((x) => [String(x.module), x]));
        const categories = r.filter.modules
          .filter((m) => Number(byMod.get(m)?.total ?? 0) > 0)
          .map((m) => ({ key: m, name: getModule(m as ModuleCode).name }));
        const levels = [...DEFAULT_PRIORITIES].sort((a, b) => b.level - a.level);
        const out = [...levels.map((p) => ({ key: p.code, name: p.name, color: p.color })), { ...NO_PRIORITY }].map((p) => {
          const col = `p_${p.key}` as CountColumn;
          const data = categories.map((cat) => Number(byMod.get(cat.key)?.[col] ?? 0));
          const links = categories.map((cat) => (p.key === NO_PRIORITY.key ? null : moduleLink(cat.key, { priority: p.key })));
          return { key: p.key, name: p.name, color: p.color, total: data.reduce((a, b) => a + b, 0), data, links };
        });
        const series = out.filter((s) => s.total > 0);
        return { ...base, categories, series, total: sum(series) };
      },
    },
    /** Media publications per day by sentiment. */
    connotationevents: {
      read: (f, part) => repo.countsSql(f, ['day'], CONNOTATION_COLUMNS, 'offset', part),
      merge: ['day'],
      render: (r, raw) => {
        // Day rows with a column per sentiment → a series row per sentiment.
        const rows = raw as (Record<'day', number> & Counts)[];
        const days = rows.map((x) => Number(x.day));
        return timeSeries(
          r,
          CONNOTATIONS.map((k) => ({ key: k, d: days, n: rows.map((x) => Number(x[`c_${k.toLowerCase()}` as CountColumn])) })),
          CONNOTATIONS.map((k) => ({
            key: k,
            name: CONNOTATION_LABELS[k],
            color: CONNOTATION_COLORS[k],
            link: moduleLink(moduleOfChart('connotationevents'), k === 'Undefined' ? {} : { connotation: k }),
          })),
        );
      },
    },
    domainevents: {
      read: (f, part) => repo.daySeriesSql(f, 'status', part),
      merge: 'series',
      render: byStatus('domainevents'),
    },
    accountevents: {
      read: (f, part) => repo.daySeriesSql(f, 'status', part),
      merge: 'series',
      render: byStatus('accountevents'),
    },
  };

  /** Two row sets of a chart added up: series rows by key (their day arrays joined), counts by group. */
  function merge(how: ChartDef<DashboardChart>['merge'], a: Row[], b: Row[]): Row[] {
    if (!b.length) return a;
    if (how === 'series') {
      const by = new Map<string, SeriesRow>();
      for (const r of [...(a as SeriesRow[]), ...(b as SeriesRow[])]) {
        const x = by.get(r.key);
        by.set(r.key, x ? { key: r.key, d: [...x.d, ...r.d], n: [...x.n, ...r.n] } : r);
      }
      return [...by.values()];
    }
    const by = new Map<string, Row>();
    for (const r of [...a, ...b]) {
      const k = how.map((g) => String(r[g])).join('\u0000');
      const x = by.get(k);
      if (!x) {
        by.set(k, { ...r });
        continue;
      }
      for (const [col, v] of Object.entries(r)) if (!how.includes(col)) x[col] = Number(x[col] ?? 0) + Number(v);
    }
    return [...by.values()];
  }

  const empty = (r: Resolved, chart: DashboardChart): TimeSeriesResponse | MatrixResponse =>
    chart === 'priorityevents'
      ? { from: r.filter.from, to: r.filter.to, categories: [], series: [], total: 0 }
      : timeSeries(r, [], []);

  /*
   * Answer cache. Per chart and *resolved* filter (period, companies after the access check, modules
   * after API-key roles — never the caller), an entry keeps the chart's rows **from the rollups
   * alone** with the rollups' generation they were read at, and the JSON of those rows. The rollups
   * change only by a fold or a rebuild, and both raise the generation in their own transaction; so:
   * - the session check read (same snapshot) the same generation and no pending delta anywhere →
   *   the answer is the entry's JSON, no query at all;
   * - otherwise one query reads the pending deltas of the filter with the generation in one
   *   snapshot: same generation → entry rows + those deltas, exact; another generation → recomputed.
   * Exact on every instance, while events are being written too. Bounded: least recently used out.
   */
  const cacheLimit = deps.cacheEntries ?? 256;
  const cache = new Map<string, { generation: string; refs: Refs; rows: Row[]; json: string }>();
  const stats = { hits: 0, misses: 0 };

  async function json<K extends DashboardChart>(chart: K, c: Caller, q: AnalyticsQuery): Promise<string> {
    const r = resolve(c, q, CHART_MODULES[chart] ?? undefined);
    const def = charts[chart] as ChartDef<DashboardChart>;
    if (r.empty) return JSON.stringify(CHART_SCHEMAS[chart].parse(empty(r, chart)));
    const rf = await refs();
    const render = (rows: Row[]) => JSON.stringify(CHART_SCHEMAS[chart].parse(def.render(r, rows, rf)));
    // Cached rollup rows + pending deltas: the same render over rows of the same shape as the entry
    // whose answer passed the response schema when it was stored — counts change, the shape cannot.
    const renderMerged = (rows: Row[]) => JSON.stringify(def.render(r, rows, rf));
    if (cacheLimit <= 0) return render(await repo.prepared<Row>(def.read(r.filter, 'all')));

    const key = JSON.stringify([chart, r.filter]);
    const hit = cache.get(key);
    if (hit && hit.refs === rf) {
      const seen = c.auth.rollups;
      let deltas: Row[] | null = [];
      if (!(seen && !seen.pending && seen.generation === hit.generation)) {
        const now = await repo.withGeneration<Row>(def.read(r.filter, 'deltas'));
        deltas = now.generation === hit.generation ? now.a : null;
      }
      if (deltas) {
        stats.hits++;
        cache.delete(key); // most recently used last
        cache.set(key, hit);
        return deltas.length ? renderMerged(merge(def.merge, hit.rows, deltas)) : hit.json;
      }
    }
    stats.misses++;
    // Both parts and the generation in one snapshot.
    const now = await repo.withGeneration<Row>(def.read(r.filter, 'rollup'), def.read(r.filter, 'deltas'));
    const entry = { generation: now.generation, refs: rf, rows: now.a, json: render(now.a) };
    cache.delete(key);
    cache.set(key, entry);
    while (cache.size > cacheLimit) cache.delete(cache.keys().next().value as string);
    return now.b.length ? render(merge(def.merge, now.a, now.b)) : entry.json;
  }

  /**
   * The SLA card of the home page: per module (and per company when the caller sees more than one)
   * the open events past their deadline now and the median times to triage and to resolve of the
   * events created in the period. Read from `events` by index (no rollup: «now» figures).
   */
  async function slaSummary(c: Caller, q: AnalyticsQuery): Promise<SlaSummaryResponse> {
    const r = resolve(c, q);
    const { from, to } = r.filter;
    if (r.empty) return { modules: [], companies: [], from, to };
    const rows = await repo.slaSummary({ ...r.filter, tz: ANALYTICS_TZ });
    const row = (key: string, name: string, x: (typeof rows)[number]) => ({
      key,
      name,
      overdue: Number(x.overdue),
      open: Number(x.open),
      median_triage_seconds: x.mt === null ? null : Math.round(Number(x.mt)),
      median_resolve_seconds: x.mr === null ? null : Math.round(Number(x.mr)),
    });
    const modules = MODULE_CODES.flatMap((m) => {
      const x = rows.find((y) => y.module === m);
      return x ? [row(m, getModule(m).name, x)] : [];
    });
    const companyRows = rows.filter((y) => y.module === null && y.company_id !== null);
    const companies =
      r.filter.companies === 'all' || r.filter.companies.length > 1
        ? companyRows
            .map((x) => row(String(x.company_id), x.company_name ?? '', x))
            .sort((a, b) => b.overdue - a.overdue || a.name.localeCompare(b.name, 'ru'))
        : [];
    return slaSummaryResponse.parse({ modules, companies, from, to });
  }

  return {
    /** A chart's answer as JSON (from the answer cache when it can be). */
    json,
    slaSummary,
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
