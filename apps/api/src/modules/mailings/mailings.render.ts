/* The digest email: Russian subject, HTML and text bodies with each event's key fields and a link. */
import { formatDateTime, pluralRu } from '@forpost/contract/format';
import {
  FIELD_KINDS,
  fieldOf,
  getModule,
  MODULE_CODES,
  type ModuleCode,
  SOURCE_LABELS,
  type Source,
} from '@forpost/contract/modules';
import { TRANSITION_KINDS, type TransitionKind, transitionLabel } from '@forpost/contract/watch';

export interface DigestEvent {
  id: number;
  module: string;
  title: string;
  company_name: string;
  status_name: string | null;
  priority_name: string | null;
  priority_level: number | null;
  source: string;
  created_at: Date | string;
  data: Record<string, unknown>;
  /** A transitions mailing (#31): the watch transition that happened to the event, and when. */
  transition_kind?: string | null;
  /** …all of them when several happened to the event (the letter lists it once, with each named). */
  transition_kinds?: string[] | null;
  transition_at?: Date | string | null;
}

export interface Digest {
  productName: string;
  mailingName: string;
  publicUrl: string;
  /** Events listed (at most the mailing's cap). */
  events: DigestEvent[];
  /** All events of this message, listed or not. */
  total: number;
  frequencyLabel: string;
}

/** 1 событие, 2 события, 5 событий (the contract's Russian plural, shared with the console). */
const eventsWord = (n: number) => pluralRu(n, 'событие', 'события', 'событий');
const newWord = (n: number) => pluralRu(n, 'новое', 'новых', 'новых');

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
const oneLine = (s: string) => s.replace(/[\r\n\t]+/g, ' ').trim();
/** Dates in the mail are Moscow time, as in the console. */
const moscow = (d: Date | string) => {
  const t = new Date(d);
  return `${formatDateTime(new Date(t.getTime() + (t.getTimezoneOffset() + 180) * 60_000))} МСК`;
};

/** Up to three of the module's own list columns, as label: value. */
function keyFields(e: DigestEvent): [string, string][] {
  if (!(MODULE_CODES as readonly string[]).includes(e.module)) return [];
  const m = getModule(e.module as ModuleCode);
  const out: [string, string][] = [];
  for (const key of m.columns) {
    const f = fieldOf(m, key);
    const text = f ? FIELD_KINDS[f.type].mailText : null;
    if (!f || !text) continue;
    const v: unknown = f.sensitive ? e.data[`${key}_mask`] : e.data[key];
    if (v == null || v === '') continue;
    out.push([f.label, oneLine(text(v, f)).slice(0, 200)]);
    if (out.length >= 3) break;
  }
  return out;
}

const eventLink = (publicUrl: string, e: Pick<DigestEvent, 'module' | 'id'>) => {
  const route = (MODULE_CODES as readonly string[]).includes(e.module) ? getModule(e.module as ModuleCode).route : `/${e.module}`;
  return `${publicUrl.replace(/\/$/, '')}${route}/${e.id}`;
};

const lower = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);
const isKind = (k: string | null | undefined): k is TransitionKind => !!k && (TRANSITION_KINDS as readonly string[]).includes(k);
/** The transitions an item is about, in the table's order, once each. */
const kindsOf = (e: Pick<DigestEvent, 'transition_kind' | 'transition_kinds'>): TransitionKind[] => {
  const given = e.transition_kinds?.length ? e.transition_kinds : [e.transition_kind];
  return TRANSITION_KINDS.filter((k) => given.includes(k));
};
/**
 * «Наблюдение: припаркован, появилась почта (MX)» — the transitions an item of the letter is about
 * (null: a new event).
 */
export const transitionLine = (e: Pick<DigestEvent, 'transition_kind' | 'transition_kinds'>): string | null => {
  const kinds = kindsOf(e);
  return kinds.length ? `Наблюдение: ${kinds.map((k) => lower(transitionLabel(k))).join(', ')}` : null;
};

function digestSubject(d: Pick<Digest, 'productName' | 'mailingName' | 'total' | 'events'>): string {
  const kinds = TRANSITION_KINDS.filter((k) => d.events.some((e) => kindsOf(e).includes(k)));
  if (kinds.length) {
    // A transitions letter names what happened: «Наблюдение: появилась форма входа, появилась почта (MX)».
    const what = `Наблюдение: ${kinds.map((k) => lower(transitionLabel(k))).join(', ')}`;
    // `total` counts events: one item per event, however many of its transitions the letter names.
    const count = d.total > 1 ? ` (${d.total} ${eventsWord(d.total)})` : '';
    return oneLine(`[${d.productName}] ${d.mailingName}: ${what}${count}`).slice(0, 250);
  }
  return oneLine(`[${d.productName}] ${d.mailingName}: ${d.total} ${newWord(d.total)} ${eventsWord(d.total)}`).slice(0, 250);
}

const moduleName = (code: string) =>
  (MODULE_CODES as readonly string[]).includes(code) ? getModule(code as ModuleCode).name : code;

export function renderDigest(d: Digest): { subject: string; text: string; html: string } {
  const subject = digestSubject(d);
  const headline = d.events.some((e) => isKind(e.transition_kind))
    ? `${d.total} ${eventsWord(d.total)} с переходами наблюдения`
    : `${d.total} ${newWord(d.total)} ${eventsWord(d.total)}`;
  const rest = d.total - d.events.length;
  const more = rest > 0 ? `и ещё ${rest} ${eventsWord(rest)}` : null;

  const lines: string[] = [`Рассылка «${oneLine(d.mailingName)}» (${d.frequencyLabel.toLowerCase()}): ${headline}.`, ''];
  d.events.forEach((e, i) => {
    lines.push(`${i + 1}. ${oneLine(e.title)}`);
    const tr = transitionLine(e);
    if (tr) lines.push(`   ${tr} · ${moscow(e.transition_at ?? e.created_at)}`);
    lines.push(`   Модуль: ${moduleName(e.module)} · Компания: ${oneLine(e.company_name)}`);
    lines.push(
      `   Приоритет: ${e.priority_name ?? 'не задан'} · Статус: ${e.status_name ?? '—'} · Источник: ${SOURCE_LABELS[e.source as Source] ?? e.source} · Создано: ${moscow(e.created_at)}`,
    );
    for (const [k, v] of keyFields(e)) lines.push(`   ${k}: ${v}`);
    lines.push(`   ${eventLink(d.publicUrl, e)}`);
    lines.push('');
  });
  if (more) lines.push(`…${more}. Откройте консоль, чтобы увидеть все: ${d.publicUrl}`, '');
  lines.push(
    '—',
    `${d.productName}. Вы получили это письмо, потому что указаны получателем рассылки «${oneLine(d.mailingName)}».`,
  );
  const text = lines.join('\n');

  const color = (level: number | null) =>
    level === 4 ? '#cf1322' : level === 3 ? '#d46b08' : level === 2 ? '#1677ff' : '#595959';
  const items = d.events
    .map((e) => {
      const fields = keyFields(e)
        .map(([k, v]) => `<div style="color:#595959;font-size:13px">${esc(k)}: <b>${esc(v)}</b></div>`)
        .join('');
      const tr = transitionLine(e);
      const trHtml = tr
        ? `<div style="font-size:14px;font-weight:600;margin-bottom:4px">${esc(tr)} · ${esc(moscow(e.transition_at ?? e.created_at))}</div>\n`
        : '';
      return `<tr><td style="padding:12px 0;border-bottom:1px solid #f0f0f0">
<div style="font-size:15px;margin-bottom:4px"><a href="${esc(eventLink(d.publicUrl, e))}" style="color:#1677ff;text-decoration:none">${esc(oneLine(e.title))}</a></div>
${trHtml}<div style="font-size:13px;color:#595959">${esc(moduleName(e.module))} · ${esc(oneLine(e.company_name))} · ${esc(moscow(e.created_at))}</div>
<div style="font-size:13px"><span style="color:${color(e.priority_level)};font-weight:600">${esc(e.priority_name ?? 'Приоритет не задан')}</span> · ${esc(e.status_name ?? '—')} · ${esc(SOURCE_LABELS[e.source as Source] ?? e.source)}</div>
${fields}
</td></tr>`;
    })
    .join('\n');
  const html = `<!doctype html><html lang="ru"><head><meta charset="utf-8"><title>${esc(subject)}</title></head>
<body style="margin:0;padding:24px;background:#f5f5f5;font-family:Arial,Helvetica,sans-serif;color:#262626">
<table role="presentation" width="100%" style="max-width:720px;margin:0 auto;background:#fff;border-radius:8px;padding:24px"><tr><td>
<h2 style="margin:0 0 4px;font-size:20px">${esc(d.productName)}: ${esc(headline)}</h2>
<div style="color:#595959;margin-bottom:12px">Рассылка «${esc(oneLine(d.mailingName))}» · ${esc(d.frequencyLabel)}</div>
<table role="presentation" width="100%">${items}</table>
${more ? `<p style="margin:16px 0 0;font-weight:600">…${esc(more)}. <a href="${esc(d.publicUrl)}" style="color:#1677ff">Открыть консоль</a></p>` : ''}
<p style="margin-top:24px;color:#8c8c8c;font-size:12px">Вы получили это письмо, потому что указаны получателем рассылки «${esc(oneLine(d.mailingName))}».</p>
</td></tr></table></body></html>`;
  return { subject, text, html };
}
