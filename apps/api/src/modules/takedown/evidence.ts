/*
 * The evidence pack of a takedown request: what was known when it was drafted (the event's fields, the
 * watch's last state, RDAP of the domain and of the hosting network, the latest screenshot, the
 * analyst's comment), rendered as an XARF v4 report (content-phishing / content-brand_infringement /
 * content-suspicious_registration; validated against the unmodified schemas in the tests), as a PDF
 * for people, and as the Russian and English texts of the message to an abuse desk.
 */
import { createHash, randomUUID } from 'node:crypto';
import { domainToASCII } from 'node:url';
import { XARF_TYPE_LABELS, type XarfType } from '@forpost/contract/takedown';
import type { WatchState } from '@forpost/contract/watch';
import { pdfmake } from '../../lib/pdf';
import type { DomainRdap, NetworkRdap } from './abuse';

export interface Evidence {
  domain: string;
  /** ASCII (punycode) form of the domain. */
  ascii: string;
  url: string | null;
  ip: string | null;
  company: string;
  /** The protected asset the domain imitates, and the similarity (0–100) when known. */
  asset: string | null;
  similarity: number | null;
  registrar: string | null;
  registered_at: string | null;
  page_title: string | null;
  event_created_at: string;
  watch: { state: WatchState; observed_at: string | null } | null;
  rdap: DomainRdap | null;
  network: (NetworkRdap & { ip: string }) | null;
  screenshot: { doc_id: number; taken_at: string; sha256: string; size: number; type: string } | null;
  comment: string | null;
}

/** The type a request gets unless the analyst chooses: a login form → phishing; a live page → brand; else a registration. */
export function defaultXarfType(e: Evidence): XarfType {
  const w = e.watch?.state;
  if (w?.login_form) return 'phishing';
  const live = w ? w.http_status !== null && w.http_status < 400 : e.url !== null;
  if (live && e.asset) return 'brand_infringement';
  return e.rdap?.created || e.registered_at ? 'suspicious_registration' : e.asset ? 'brand_infringement' : 'phishing';
}

const DOMAIN_RE = /^([a-z0-9]+(-[a-z0-9]+)*\.)+[a-z]{2,}$/;
const IPV4 = /^(\d{1,3}\.){3}\d{1,3}$/;
const iso = (v: string | null | undefined): string | null => {
  if (!v) return null;
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? null : d.toISOString().replace(/\.\d{3}Z$/, 'Z');
};
/** The address of «Name <a@b>» (XARF `contact` is an e-mail). */
export const addressOf = (from: string) => (/<([^>]+)>/.exec(from)?.[1] ?? from).trim();
const drop = <T extends Record<string, unknown>>(o: T): Partial<T> =>
  Object.fromEntries(
    Object.entries(o).filter(([, v]) => v !== null && v !== undefined && !(Array.isArray(v) && !v.length)),
  ) as Partial<T>;

export function pageUrl(e: Evidence): string {
  const w = e.watch?.state;
  if (w?.final_url) return w.final_url;
  if (e.url) {
    try {
      return new URL(e.url).href;
    } catch {
      /* fall through */
    }
  }
  return `http://${e.ascii}/`;
}

/**
 * An XARF v4 report of the evidence. `sender` is the address reports go from; `screenshot` the image
 * bytes (≤ 5 MB as the schema allows, else left out).
 */
export function xarfReport(
  e: Evidence,
  type: XarfType,
  opts: { sender: string; reference: string; screenshot: Buffer | null; now?: Date },
): Record<string, unknown> {
  const contact = addressOf(opts.sender);
  const senderDomain = contact.split('@')[1] ?? 'forpost.local';
  const party = { org: e.company.slice(0, 200), contact, domain: senderDomain };
  const w = e.watch?.state ?? null;
  const legit = e.asset ? `https://${domainToASCII(e.asset) || e.asset}/` : null;
  const evidence: Record<string, unknown>[] = [];
  if (opts.screenshot && opts.screenshot.length <= 5 * 1024 * 1024)
    evidence.push({
      content_type: e.screenshot?.type ?? 'image/png',
      description: `Screenshot of ${e.ascii} taken ${iso(e.screenshot?.taken_at) ?? ''}`.trim(),
      payload: opts.screenshot.toString('base64'),
      hash: `sha256:${createHash('sha256').update(opts.screenshot).digest('hex')}`,
      size: opts.screenshot.length,
    });
  if (w)
    evidence.push({
      content_type: 'application/json',
      description: 'Last observation of the domain: DNS, HTTP, TLS',
      payload: Buffer.from(JSON.stringify({ observed_at: e.watch?.observed_at ?? null, ...w })).toString('base64'),
    });
  const created = iso(e.rdap?.created ?? e.registered_at);
  const a = (w?.a ?? (e.ip && IPV4.test(e.ip) ? [e.ip] : [])).filter((x) => IPV4.test(x));
  const description = [
    `${XARF_TYPE_LABELS[type]}: ${e.domain}${e.asset ? ` imitates ${e.asset}` : ''}.`,
    e.comment ? `Analyst: ${e.comment}` : '',
    `Reference ${opts.reference}.`,
  ]
    .filter(Boolean)
    .join(' ')
    .slice(0, 1000);
  const base = drop({
    xarf_version: '4.0.0',
    report_id: randomUUID(),
    timestamp: iso(e.watch?.observed_at) ?? iso(e.event_created_at) ?? (opts.now ?? new Date()).toISOString(),
    reporter: party,
    sender: party,
    source_identifier: e.network?.ip ?? a[0] ?? e.ascii,
    category: 'content',
    type,
    evidence_source: 'automated_discovery',
    evidence,
    confidence: e.similarity !== null ? Math.max(0, Math.min(1, e.similarity / 100)) : null,
    description,
    url: pageUrl(e),
    domain: DOMAIN_RE.test(e.ascii) ? e.ascii : null,
    registrar: e.rdap?.registrar ?? e.registrar,
    nameservers: w?.ns.length ? w.ns : (e.rdap?.nameservers ?? null),
    dns_records: w ? drop({ a, aaaa: w.aaaa, mx: w.mx }) : null,
    verified_at: iso(e.watch?.observed_at),
    verification_method: 'automated_crawler',
    target_brand: e.company,
    hosting_provider: e.network?.owner ?? e.network?.name ?? null,
    country_code: e.network?.country && /^[A-Z]{2}$/.test(e.network.country) ? e.network.country : null,
    ssl_certificate: w?.tls_issuer || w?.tls_fingerprint ? drop({ issuer: w.tls_issuer, fingerprint: w.tls_fingerprint }) : null,
    whois:
      created || e.rdap
        ? drop({
            created_date: created,
            expiry_date: iso(e.rdap?.expires),
            updated_date: iso(e.rdap?.updated),
            registrar_abuse_contact: e.rdap?.abuse?.email ?? null,
          })
        : null,
    dns_response: w
      ? { response_code: w.dns === 'nxdomain' ? 'NXDOMAIN' : w.dns === 'registered' ? 'NOERROR' : 'SERVFAIL' }
      : null,
    _internal: { reference: opts.reference },
  });
  if (type === 'phishing')
    return {
      ...base,
      attack_vector: 'phishing',
      ...drop({ credential_fields: w?.login_form ? ['username', 'password'] : null, cloned_site: legit }),
    };
  if (type === 'brand_infringement')
    return {
      ...base,
      attack_vector: 'brand_infringement',
      infringement_type: /^xn--/.test(e.ascii) || e.ascii.includes('.xn--') ? 'homograph' : 'typosquatting',
      legitimate_site: legit ?? `https://${senderDomain}/`,
      ...drop({ similarity_score: e.similarity !== null ? e.similarity / 100 : null }),
      infringing_elements: ['domain_name', 'brand_name'],
    };
  const registered = created ?? iso(e.event_created_at) ?? (opts.now ?? new Date()).toISOString();
  const days = Math.max(0, Math.floor(((opts.now ?? new Date()).getTime() - new Date(registered).getTime()) / 86_400_000));
  const indicators = ['typosquatting', 'brand_keyword'];
  if (w?.ns.length && !w.a.length) indicators.push('parked_page');
  if (w?.mx.length) indicators.push('immediate_activation');
  return {
    ...base,
    attack_vector: 'suspicious_registration',
    registration_date: registered,
    days_since_registration: days,
    suspicious_indicators: indicators,
    targeted_brands: [e.company],
    ...drop({ risk_score: e.similarity !== null ? e.similarity / 100 : null }),
  };
}

/** The Russian and English body of the message to an abuse desk. */
export function messageText(e: Evidence, type: XarfType, reference: string): { subject: string; text: string } {
  const url = pageUrl(e);
  const en: Record<XarfType, string> = {
    phishing: 'a phishing site',
    brand_infringement: 'a site infringing the brand',
    suspicious_registration: 'a suspicious domain registration',
  };
  const w = e.watch?.state;
  const facts = [
    `Domain / Домен: ${e.domain}${e.ascii !== e.domain ? ` (${e.ascii})` : ''}`,
    `URL: ${url}`,
    w?.a.length ? `IP: ${w.a.join(', ')}` : e.ip ? `IP: ${e.ip}` : '',
    w?.mx.length ? `MX: ${w.mx.join(', ')}` : '',
    e.rdap?.registrar || e.registrar ? `Registrar / Регистратор: ${e.rdap?.registrar ?? e.registrar}` : '',
    e.network ? `Network / Сеть: ${[e.network.name, e.network.owner].filter(Boolean).join(', ')}` : '',
    e.asset ? `Brand asset / Защищаемый актив: ${e.asset}${e.similarity !== null ? ` (${e.similarity}%)` : ''}` : '',
  ].filter(Boolean);
  const text = [
    'Здравствуйте!',
    '',
    `От имени ${e.company} сообщаем: ${e.domain} — ${XARF_TYPE_LABELS[type].toLowerCase()}. Просим приостановить делегирование домена или размещение сайта.`,
    'Доказательства — во вложениях: отчёт PDF, отчёт XARF v4 (JSON) и снимок страницы.',
    e.comment ? `Комментарий аналитика: ${e.comment}` : '',
    `При ответе сохраните номер ${reference} в теме письма.`,
    '',
    '---',
    '',
    'Hello,',
    '',
    `On behalf of ${e.company} we report ${en[type]}: ${e.ascii}. Please suspend the domain or the hosting of the site.`,
    'The evidence is attached: a PDF report, an XARF v4 report (JSON) and a screenshot of the page.',
    `Please keep the reference ${reference} in the subject of your reply.`,
    '',
    ...facts,
  ]
    .filter((l, i, all) => l !== '' || all[i - 1] !== '')
    .join('\n');
  return {
    subject: `[${reference}] Abuse report: ${en[type]} ${e.ascii} / Жалоба: ${XARF_TYPE_LABELS[type].toLowerCase()}`,
    text,
  };
}

/** The PDF of the evidence, for people. */
export async function evidencePdf(e: Evidence, type: XarfType, reference: string, screenshot: Buffer | null): Promise<Buffer> {
  const w = e.watch?.state;
  const rows: [string, string][] = [
    ['Домен', e.ascii !== e.domain ? `${e.domain} (${e.ascii})` : e.domain],
    ['Тип нарушения (XARF)', `${XARF_TYPE_LABELS[type]} (content-${type})`],
    ['Адрес страницы', pageUrl(e)],
    ['Защищаемый актив', e.asset ? `${e.asset}${e.similarity !== null ? `, схожесть ${e.similarity}%` : ''}` : '—'],
    ['Регистратор (RDAP)', e.rdap?.registrar ?? e.registrar ?? '—'],
    ['Дата регистрации', iso(e.rdap?.created ?? e.registered_at) ?? '—'],
    ['Статус регистрации', e.rdap?.status.join(', ') || '—'],
    ['Abuse регистратора', e.rdap?.abuse?.email ?? '—'],
    ['IP-адреса', w?.a.join(', ') || e.ip || '—'],
    [
      'Сеть хостинга (RDAP RIR)',
      e.network ? [e.network.name, e.network.owner, e.network.country].filter(Boolean).join(', ') : '—',
    ],
    ['Abuse сети', e.network?.abuse?.email ?? '—'],
    ['DNS', w ? `${w.dns}; NS: ${w.ns.join(', ') || '—'}; MX: ${w.mx.join(', ') || '—'}` : '—'],
    ['HTTP', w ? `${w.http_status ?? '—'} ${w.title ? `«${w.title}»` : ''}${w.login_form ? ', форма входа' : ''}` : '—'],
    ['Сертификат', w?.tls_issuer ? `${w.tls_issuer}; ${w.tls_fingerprint ?? ''}` : '—'],
    ['Хэш содержимого', w?.content_hash ?? '—'],
    ['Последнее наблюдение', iso(e.watch?.observed_at) ?? '—'],
    ['Комментарий аналитика', e.comment ?? '—'],
  ];
  const doc = {
    info: { title: `${reference} ${e.ascii}` },
    content: [
      { text: `Запрос на блокировку ${reference}`, fontSize: 16, bold: true, margin: [0, 0, 0, 4] },
      { text: `${e.company} · ${new Date().toISOString()}`, fontSize: 8, color: '#8c8c8c', margin: [0, 0, 0, 10] },
      {
        table: { widths: [150, '*'], body: rows.map(([k, v]) => [{ text: k, bold: true }, { text: v }]) },
        layout: 'lightHorizontalLines',
        fontSize: 9,
      },
      ...(screenshot
        ? [
            { text: 'Снимок страницы', bold: true, margin: [0, 12, 0, 4] },
            { image: `data:${e.screenshot?.type ?? 'image/png'};base64,${screenshot.toString('base64')}`, fit: [500, 360] },
          ]
        : []),
    ],
    defaultStyle: { font: 'Roboto', fontSize: 10 },
  };
  return pdfmake.createPdf(doc as never).getBuffer();
}
