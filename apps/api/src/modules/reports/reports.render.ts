import { formatDate, formatDateTime, formatNumber } from '@forpost/contract/format';
import type { TakedownFigures } from '@forpost/contract/takedown';
import { pdfmake } from '../../lib/pdf';
import { NAMED, pieSvg, stackedBarsSvg } from './reports.charts';
import type { ReportEventRow } from './reports.repo';

export interface ModuleFigures {
  code: string;
  name: string;
  total: number;
  critical: number;
  high: number;
  open: number;
  resolved: number;
}

export interface ReportData {
  productName: string;
  title: string;
  companyName: string;
  from: string;
  to: string;
  moduleNames: string[];
  allModules: boolean;
  generatedAt: Date;
  /** «Резюме аналитика», shown on page 1. */
  summary: string | null;
  total: number;
  critical: number;
  open: number;
  resolved: number;
  byModule: ModuleFigures[];
  /** Open and resolved (the status chart): the same figures as the summary. */
  byState: { name: string; color: string; value: number }[];
  byModuleShare: { name: string; color: string; value: number }[];
  days: string[];
  daySeries: { name: string; color?: string; data: number[] }[];
  byPriority: { name: string; color: string; value: number; striped?: boolean }[];
  sentiment: { name: string; color: string; value: number }[] | null;
  topCritical: ReportEventRow[];
  perModule: { code: string; name: string; total: number; byStatus: { name: string; n: number }[]; rows: ReportEventRow[] }[];
  /** Per module with resolved events: `n` = its «Решено / закрыто», `timed` of them with a known time. */
  resolve: { name: string; n: number; timed: number; avgSeconds: number | null; medianSeconds: number | null }[];
  /** Screenshots of the most important events (domain snapshots), as data URLs. */
  screenshots: { id: number; module: string; title: string; pageTitle: string | null; takenAt: Date; image: string }[];
  /** Takedown requests (#32) drafted in the period; null = none. */
  takedown: TakedownFigures | null;
  moduleName: (code: string) => string;
}

/** The one name and definition of resolved events, on every page that counts them. */
const RESOLVED = 'Решено / закрыто';
const RESOLVED_MEANS =
  'Решено / закрыто — события периода, статус которых финальный («Решено», «Ложное срабатывание» и т. п.) на момент формирования отчёта; открытые — все остальные.';

/** 3 д 4 ч · 5 ч 20 мин · 12 мин. */
function formatDuration(seconds: number): string {
  const m = Math.max(0, Math.round(seconds / 60));
  const d = Math.floor(m / 1440);
  const h = Math.floor((m % 1440) / 60);
  const min = m % 60;
  if (d) return h ? `${d} д ${h} ч` : `${d} д`;
  if (h) return min ? `${h} ч ${min} мин` : `${h} ч`;
  return `${min} мин`;
}

/** Moscow time, as in the console. */
const moscow = (d: Date | string) => {
  const t = new Date(d);
  return formatDateTime(new Date(t.getTime() + (t.getTimezoneOffset() + 180) * 60_000));
};
const day = (s: string) => formatDate(s);
const n = (x: number) => formatNumber(x);

const th = (text: string) => ({ text, style: 'th' });
const tableLayout = {
  hLineWidth: (i: number) => (i === 0 ? 0 : 0.5),
  vLineWidth: () => 0,
  hLineColor: () => '#d9d9d9',
  paddingTop: () => 3,
  paddingBottom: () => 3,
  fillColor: (row: number) => (row === 0 ? '#fafafa' : null),
};

function eventsTable(rows: ReportEventRow[], withModule: boolean, moduleName: (c: string) => string) {
  const header = [th('№'), ...(withModule ? [th('Модуль')] : []), th('Событие'), th('Приоритет'), th('Статус'), th('Создано')];
  const body = rows.map((r) => [
    { text: String(r.id), color: '#8c8c8c' },
    ...(withModule ? [moduleName(r.module)] : []),
    r.title.slice(0, 200),
    {
      text: r.priority_name ?? '—',
      color: r.priority_level === 4 ? NAMED.red : r.priority_level === 3 ? NAMED.orange : '#262626',
    },
    r.status_name ?? '—',
    moscow(r.created_at),
  ]);
  return {
    table: {
      headerRows: 1,
      widths: withModule ? [35, 65, '*', 60, 70, 70] : [35, '*', 60, 80, 70],
      body: [header, ...body],
    },
    layout: tableLayout,
    fontSize: 8,
  };
}

function reportDocument(r: ReportData): Record<string, unknown> {
  const content: unknown[] = [
    { text: r.title, style: 'h1' },
    { text: r.companyName, style: 'subtitle' },
    {
      text: [
        { text: 'Период: ', bold: true },
        `${day(r.from)} — ${day(r.to)}    `,
        { text: 'Модули: ', bold: true },
        r.allModules ? 'все' : r.moduleNames.join(', '),
      ],
      margin: [0, 2, 0, 2],
    },
    { text: `Сформирован ${moscow(r.generatedAt)} (МСК)`, color: '#8c8c8c', fontSize: 8, margin: [0, 0, 0, 12] },
  ];

  if (r.summary) {
    content.push({ text: 'Резюме аналитика', style: 'h2', headlineLevel: 1 });
    content.push({
      table: { widths: ['*'], body: [[{ text: r.summary, margin: [6, 4, 6, 4] }]] },
      layout: {
        hLineWidth: () => 0,
        vLineWidth: (i: number) => (i === 0 ? 2 : 0),
        vLineColor: () => NAMED.blue,
        fillColor: () => '#f5f8ff',
      },
      margin: [0, 0, 0, 6],
    });
  }

  const card = (label: string, value: string, color = '#262626') => ({
    stack: [
      { text: value, fontSize: 20, bold: true, color },
      { text: label, color: '#595959', fontSize: 9 },
    ],
    margin: [0, 0, 0, 0],
  });
  content.push({ text: 'Сводка', style: 'h2', headlineLevel: 1 });
  content.push({
    columns: [
      card('Всего событий', n(r.total)),
      card('Критических', n(r.critical), r.critical ? NAMED.red : '#262626'),
      card('Открытых', n(r.open)),
      card(RESOLVED, n(r.resolved), r.resolved ? NAMED.green : '#262626'),
    ],
    columnGap: 12,
    margin: [0, 0, 0, 4],
  });
  content.push({ text: RESOLVED_MEANS, style: 'note', margin: [0, 0, 0, 10] });

  if (r.total === 0) {
    content.push({
      text: 'За выбранный период событий не найдено. Отчёт сформирован: в указанные даты по выбранным модулям компании новых событий не было.',
      margin: [0, 6, 0, 6],
      style: 'note',
    });
  } else {
    content.push({
      table: {
        headerRows: 1,
        dontBreakRows: true,
        widths: ['*', 50, 60, 50, 50, 60],
        body: [
          [th('Модуль'), th('Всего'), th('Критических'), th('Высоких'), th('Открытых'), th(RESOLVED)],
          ...r.byModule.map((m) => [m.name, n(m.total), n(m.critical), n(m.high), n(m.open), n(m.resolved)]),
          [
            { text: 'Итого', bold: true },
            { text: n(r.total), bold: true },
            { text: n(r.critical), bold: true },
            { text: n(r.byModule.reduce((a, m) => a + m.high, 0)), bold: true },
            { text: n(r.open), bold: true },
            { text: n(r.resolved), bold: true },
          ],
        ],
      },
      layout: tableLayout,
      fontSize: 9,
      margin: [0, 0, 0, 12],
    });

    // Charts: the days across the page, the doughnuts two per row (never one chart alone on a page).
    content.push({ text: 'Новые события по дням', style: 'h2', headlineLevel: 1 });
    content.push({ svg: stackedBarsSvg(r.days, r.daySeries, 515, 185), width: 515 });
    const pies = [pieSvg('По приоритетам', r.byPriority, 250, 170), pieSvg('Открытые и закрытые', r.byState, 250, 170)];
    if (r.sentiment?.some((s) => s.value > 0))
      pies.push(pieSvg('Тональность публикаций СМИ', r.sentiment, 250, 170), pieSvg('По модулям', r.byModuleShare, 250, 170));
    for (let i = 0; i < pies.length; i += 2)
      content.push({
        columns: pies.slice(i, i + 2).map((svg) => ({ svg, width: 250 })),
        columnGap: 15,
        margin: [0, 6, 0, 6],
        unbreakable: true,
      });

    content.push({ text: 'Критические события', style: 'h2', headlineLevel: 1 });
    content.push(
      r.topCritical.length
        ? eventsTable(r.topCritical, true, r.moduleName)
        : { text: 'Критических событий за период нет.', style: 'note' },
    );

    if (r.screenshots.length) {
      content.push({ text: 'Скриншоты важных событий', style: 'h2', headlineLevel: 1 });
      const shot = (s: ReportData['screenshots'][number]) => ({
        stack: [
          { image: s.image, fit: [250, 170], margin: [0, 0, 0, 3] },
          { text: `№ ${s.id} · ${r.moduleName(s.module)} · ${s.title.slice(0, 120)}`, fontSize: 8, bold: true },
          {
            text: `${s.pageTitle ? `${s.pageTitle.slice(0, 120)} · ` : ''}снимок ${moscow(s.takenAt)}`,
            fontSize: 8,
            color: '#8c8c8c',
          },
        ],
        width: 250,
      });
      for (let i = 0; i < r.screenshots.length; i += 2)
        content.push({
          columns: r.screenshots.slice(i, i + 2).map(shot),
          columnGap: 15,
          margin: [0, 0, 0, 10],
          unbreakable: true,
        });
    }

    content.push({ text: 'Время до решения', style: 'h2', headlineLevel: 1 });
    const dur = (s: number | null) => (s === null ? '—' : formatDuration(s));
    content.push(
      r.resolve.length
        ? {
            table: {
              headerRows: 1,
              dontBreakRows: true,
              widths: ['*', 80, 80, 80, 80],
              body: [
                [th('Модуль'), th(RESOLVED), th('Со временем решения'), th('Среднее'), th('Медиана')],
                ...r.resolve.map((x) => [x.name, n(x.n), n(x.timed), dur(x.avgSeconds), dur(x.medianSeconds)]),
              ],
            },
            layout: tableLayout,
            fontSize: 9,
          }
        : { text: `За период нет событий в финальном статусе (${RESOLVED}: 0).`, style: 'note' },
    );
    if (r.resolve.length)
      content.push({
        text: 'Время — от создания события до первого перевода в финальный статус по его истории; у событий, пришедших уже закрытыми (импорт), оно неизвестно.',
        style: 'note',
        margin: [0, 3, 0, 0],
      });

    if (r.takedown) {
      const t = r.takedown;
      const hrs = (h: number | null) => (h === null ? '—' : formatDuration(h * 3600));
      const pct = (x: number) => `${Math.round(x * 100)}%`;
      content.push({ text: 'Блокировки', style: 'h2', headlineLevel: 1 });
      content.push({
        table: {
          headerRows: 1,
          widths: ['*', 70, 70, 90, 90],
          body: [
            [
              th('Запросов'),
              th('Отправлено'),
              th('Недоступны'),
              th('До отправки, медиана / p90'),
              th('До недоступности, медиана / p90'),
            ],
            [
              n(t.requests),
              n(t.sent),
              n(t.down),
              `${hrs(t.time_to_send.median_hours)} / ${hrs(t.time_to_send.p90_hours)}`,
              `${hrs(t.time_to_down.median_hours)} / ${hrs(t.time_to_down.p90_hours)}`,
            ],
          ],
        },
        layout: tableLayout,
        fontSize: 9,
      });
      content.push({
        text: `Недоступны в течение 24 ч — ${pct(t.share_down_within.h24)}, 48 ч — ${pct(t.share_down_within.h48)}, 72 ч — ${pct(t.share_down_within.h72)} отправленных запросов.`,
        style: 'note',
        margin: [0, 3, 0, 6],
      });
      for (const [title, rows] of [
        ['Регистратор', t.by_registrar],
        ['Сеть хостинга', t.by_hosting],
      ] as const)
        if (rows.length)
          content.push({
            table: {
              headerRows: 1,
              dontBreakRows: true,
              widths: ['*', 70, 90, 90],
              body: [
                [th(title), th('Недоступны'), th('Медиана'), th('p90')],
                ...rows.slice(0, 10).map((x) => [x.name, n(x.count), hrs(x.median_hours), hrs(x.p90_hours)]),
              ],
            },
            layout: tableLayout,
            fontSize: 9,
            margin: [0, 0, 0, 6],
          });
    }

    for (const m of r.perModule) {
      content.push({ text: `${m.name}: ${n(m.total)}`, style: 'h2', headlineLevel: 1 });
      content.push({
        text: m.byStatus.map((s) => `${s.name} — ${n(s.n)}`).join(' · '),
        color: '#595959',
        fontSize: 9,
        margin: [0, 0, 0, 4],
      });
      content.push(eventsTable(m.rows, false, r.moduleName));
      if (m.total > m.rows.length)
        content.push({ text: `Показаны ${m.rows.length} из ${n(m.total)} (сначала важные).`, style: 'note' });
    }
  }

  return {
    pageSize: 'A4',
    pageMargins: [40, 50, 40, 50],
    info: {
      title: r.title,
      author: r.productName,
      subject: `${r.companyName}, ${day(r.from)} — ${day(r.to)}`,
      creator: r.productName,
    },
    header: { text: `${r.productName} · ${r.companyName}`, margin: [40, 20, 40, 0], fontSize: 8, color: '#8c8c8c' },
    footer: (page: number, pages: number) => ({
      text: `Страница ${page} из ${pages}`,
      alignment: 'right',
      margin: [40, 20, 40, 0],
      fontSize: 8,
      color: '#8c8c8c',
    }),
    content,
    // A heading never ends a page: it moves to the next one with what follows it.
    pageBreakBefore: (node: { headlineLevel?: number }, nodes: { getFollowingNodesOnPage: () => unknown[] }) =>
      node.headlineLevel === 1 && nodes.getFollowingNodesOnPage().length === 0,
    defaultStyle: { font: 'Roboto', fontSize: 10, color: '#262626' },
    styles: {
      h1: { fontSize: 18, bold: true, margin: [0, 0, 0, 2] },
      subtitle: { fontSize: 13, color: '#595959', margin: [0, 0, 0, 6] },
      h2: { fontSize: 13, bold: true, margin: [0, 10, 0, 6] },
      th: { bold: true, color: '#595959' },
      note: { color: '#595959', italics: true, fontSize: 9 },
    },
  };
}

export async function renderReportPdf(r: ReportData, opts: { compress?: boolean } = {}): Promise<Buffer> {
  const doc = reportDocument(r);
  if (opts.compress === false) doc.compress = false;
  return pdfmake.createPdf(doc).getBuffer();
}
