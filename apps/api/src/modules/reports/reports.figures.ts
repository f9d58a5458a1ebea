/*
 * The steps from a report's raw figures (rollup rows, statuses) to what the PDF shows: pure
 * functions, one per block of the report. `reports.service` `gather` reads the rows and calls them.
 */
import { CHART_MODULES } from '@forpost/contract/analytics';
import { NO_PRIORITY_STYLE } from '@forpost/contract/chart-style';
import {
  CONNOTATION_LABELS,
  CONNOTATIONS,
  DEFAULT_PRIORITIES,
  getModule,
  isModuleCode,
  MODULE_CODES,
  type ModuleCode,
} from '@forpost/contract/modules';
import type { CountColumn, Counts } from '../analytics/index';
import { NAMED } from './reports.charts';
import type { ModuleFigures, ReportData } from './reports.render';

export type StatusRef = { id: number; module: string; name: string; is_final: boolean };
type ModuleCounts = Record<'module', string> & Counts;
type StatusCount = { module: string | number; status_id: string | number; n: number };
/** A module's figures, with its events per status (id → count). */
export type ModuleTally = ModuleFigures & { statuses: Map<number, number> };

/** A module's Russian name; an unknown code as is (a report may name a module that was removed). */
export const moduleName = (code: string) => (isModuleCode(code) ? getModule(code).name : code);

/** The modules a report covers, in menu order: those it names that still exist, or all of them. */
export const reportModules = (named: readonly string[]): ModuleCode[] =>
  named.length ? named.filter(isModuleCode) : [...MODULE_CODES];

/** The module whose sentiment the report shows (the dashboard's sentiment chart), if the report covers it. */
export const sentimentModuleOf = (modules: readonly string[]): ModuleCode | undefined =>
  CHART_MODULES.connotationevents?.find((m) => modules.includes(m));

/** Per module with events: total, critical, high, open and resolved (by final status), in the order of `modules`. */
export function tallyModules(
  modules: readonly string[],
  counts: readonly ModuleCounts[],
  statusRows: readonly StatusCount[],
  statuses: readonly StatusRef[],
): ModuleTally[] {
  const status = new Map(statuses.map((s) => [s.id, s]));
  const byModule = new Map<string, ModuleTally>();
  for (const c of counts) {
    const code = String(c.module);
    if (!Number(c.total)) continue;
    byModule.set(code, {
      code,
      name: moduleName(code),
      total: Number(c.total),
      critical: Number(c.p_critical),
      high: Number(c.p_high),
      open: 0,
      resolved: 0,
      statuses: new Map(),
    });
  }
  for (const x of statusRows) {
    const m = byModule.get(String(x.module));
    const n = Number(x.n);
    if (!m || !n) continue;
    const id = Number(x.status_id);
    if (status.get(id)?.is_final) m.resolved += n;
    else m.open += n;
    m.statuses.set(id, (m.statuses.get(id) ?? 0) + n);
  }
  return modules.filter((m) => byModule.has(m)).map((m) => byModule.get(m) as ModuleTally);
}

/** The headline figures: sums over the modules. */
export const totalsOf = (ordered: readonly ModuleFigures[]) => ({
  total: ordered.reduce((a, m) => a + m.total, 0),
  critical: ordered.reduce((a, m) => a + m.critical, 0),
  open: ordered.reduce((a, m) => a + m.open, 0),
  resolved: ordered.reduce((a, m) => a + m.resolved, 0),
});

/** Events per priority, highest first, then those without one. */
export function byPriorityOf(counts: readonly Counts[]): ReportData['byPriority'] {
  const levels = [...DEFAULT_PRIORITIES].sort((a, b) => b.level - a.level);
  const sumOf = (col: CountColumn) => counts.reduce((a, x) => a + Number(x[col]), 0);
  return [
    ...levels.map((p) => ({
      name: p.name,
      color: p.color === 'default' ? '#8c8c8c' : (NAMED[p.color] ?? '#bfbfbf'),
      value: sumOf(`p_${p.code}` as CountColumn),
    })),
    { name: 'Без приоритета', color: NO_PRIORITY_STYLE.color, striped: true, value: sumOf('p_none') },
  ];
}

/** One series per module over the days of the period, in the module's colour. */
export function daySeriesOf(
  ordered: readonly ModuleFigures[],
  days: readonly string[],
  perDay: readonly (Record<'day' | 'module', string> & Counts)[],
): ReportData['daySeries'] {
  const dayIdx = new Map(days.map((d, i) => [d, i]));
  return ordered.map((m) => {
    const data = new Array<number>(days.length).fill(0);
    for (const x of perDay) if (x.module === m.code) data[dayIdx.get(String(x.day)) ?? -1] = Number(x.total);
    return { name: m.name, color: isModuleCode(m.code) ? getModule(m.code).color : undefined, data };
  });
}

const SENTIMENT_COLORS: Record<string, string | undefined> = {
  Positive: NAMED.green,
  Negative: NAMED.red,
  Neutral: NAMED.blue,
  Undefined: NAMED.default,
};

/** Publications per sentiment, from the sentiment module's counts (none: the report has no sentiment block). */
export function sentimentOf(row: Counts | undefined): ReportData['sentiment'] {
  if (!row) return null;
  return CONNOTATIONS.map((k) => ({
    name: CONNOTATION_LABELS[k],
    color: SENTIMENT_COLORS[k] ?? '#bfbfbf',
    value: Number(row[`c_${k.toLowerCase()}` as CountColumn]),
  }));
}

/** A module's events per status, in the order of its statuses. */
export const statusBreakdown = (m: ModuleTally, statuses: readonly StatusRef[]) =>
  statuses
    .filter((s) => s.module === m.code && m.statuses.get(s.id))
    .map((s) => ({ name: s.name, n: m.statuses.get(s.id) ?? 0 }));

/**
 * Time to resolve per module with resolved events, in the order of `ordered`: `n` is the module's
 * «Решено / закрыто» (the same figure as everywhere), `timed` how many of them have the time of their
 * change into a final status (the average and median are over those; null when none has).
 */
export const resolveOf = (
  ordered: readonly ModuleFigures[],
  rows: readonly { module: string; n: number; avg_s: number; median_s: number }[],
): ReportData['resolve'] =>
  ordered
    .filter((m) => m.resolved > 0)
    .map((m) => {
      const x = rows.find((r) => r.module === m.code);
      const timed = Math.min(x?.n ?? 0, m.resolved);
      return {
        name: m.name,
        n: m.resolved,
        timed,
        avgSeconds: timed ? (x?.avg_s ?? null) : null,
        medianSeconds: timed ? (x?.median_s ?? null) : null,
      };
    });

/** Open and resolved events (the status chart): the summary's figures. */
export const stateOf = (t: { open: number; resolved: number }): ReportData['byState'] => [
  { name: 'Открытые', color: NAMED.orange as string, value: t.open },
  { name: 'Решено / закрыто', color: NAMED.green as string, value: t.resolved },
];

/** Events per module (the module chart), in the module's colour. */
export const moduleShareOf = (ordered: readonly ModuleFigures[]): ReportData['byModuleShare'] =>
  ordered.map((m) => ({ name: m.name, color: isModuleCode(m.code) ? getModule(m.code).color : '#bfbfbf', value: m.total }));
