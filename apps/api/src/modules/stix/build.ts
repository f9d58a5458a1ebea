/*
 * One event → its STIX 2.1 objects, by the module's line in STIX_MODULES (contract modules/stix.ts)
 * and the field kinds' observable types (FIELD_KINDS.stix). Pure: no database, no clock.
 *
 * What an event gives, in order: its observables (SCOs, deterministic ids), composite observables
 * (`user-account`, `network-traffic`), an `indicator` with a STIX pattern when the module is a
 * detection, the relationships (`based-on` indicator → observable, `related-to` SDO → observables,
 * `targets` incident → company), and last the event's own SDO (`incident`, `report` or `note`).
 * Status, priority, decision and tags go into `labels` and, with the module and the event id, into
 * the Forpost property extension (an `extension-definition`, never invented top-level properties).
 * Card numbers and other sensitive fields never leave: they are neither observables nor in the text.
 */
import { domainToASCII } from 'node:url';
import {
  FIELD_KINDS,
  type FieldDescriptor,
  getModule,
  type ModuleCode,
  STIX_MODULES,
  type StixObservableType,
} from '@forpost/contract/modules';
import { eventObjectId, namedId, type ScoType, scoId } from './ids';
import { equalsPattern } from './pattern';

export type StixObject = Record<string, unknown> & { type: string; id: string };

export interface StixEventInput {
  id: number;
  module: ModuleCode;
  companyId: number;
  companyName: string;
  title: string;
  createdAt: Date;
  updatedAt: Date;
  detectedAt: Date | null;
  /** Codes of the event's status, priority and decision (null: none). */
  status: string | null;
  priority: string | null;
  decision: string | null;
  /** Tag names. */
  tags: readonly string[];
  data: Record<string, unknown>;
}

export interface StixContext {
  /** The instance's namespace (a UUID): ids of event objects, the company identity and the extension. */
  namespace: string;
  /** The console's address, for links back to the event (external_references), or undefined. */
  consoleUrl?: string;
}

/** Timestamps of the objects Forpost creates (the extension's and the identities' `created`). */
const EPOCH = '2026-01-01T00:00:00.000Z';
export const FORPOST_EXTENSION_VERSION = '1.0';

/** The instance as the creator of everything it exports. */
export function forpostIdentity(ctx: StixContext): StixObject {
  return {
    type: 'identity',
    spec_version: '2.1',
    id: namedId(ctx.namespace, 'identity', 'forpost'),
    created: EPOCH,
    modified: EPOCH,
    name: 'Форпост',
    identity_class: 'system',
  };
}

/** The property extension that carries the event's module, id, status, priority, decision and tags. */
export function forpostExtension(ctx: StixContext): StixObject {
  return {
    type: 'extension-definition',
    spec_version: '2.1',
    id: extensionId(ctx),
    created_by_ref: forpostIdentity(ctx).id,
    created: EPOCH,
    modified: EPOCH,
    name: 'Forpost event',
    description:
      'Свойства события «Форпоста»: module — модуль, event_id — номер события, company_id — компания, status, priority, decision — коды статуса, приоритета и решения, tags — теги, source — источник.',
    schema: 'https://forpost.example/docs/operations.md#taxii',
    version: FORPOST_EXTENSION_VERSION,
    extension_types: ['property-extension'],
  };
}
export const extensionId = (ctx: StixContext) => namedId(ctx.namespace, 'extension-definition', 'forpost-event');

/** The company as an `identity` (organization). */
export function companyIdentity(ctx: StixContext, companyId: number, name: string, created?: Date): StixObject {
  const at = created ? created.toISOString() : EPOCH;
  return {
    type: 'identity',
    spec_version: '2.1',
    id: companyIdentityId(ctx, companyId),
    created_by_ref: forpostIdentity(ctx).id,
    created: at,
    modified: at,
    name: name || `Компания ${companyId}`,
    identity_class: 'organization',
  };
}
export const companyIdentityId = (ctx: StixContext, companyId: number) =>
  namedId(ctx.namespace, 'identity', `company:${companyId}`);

const IPV4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}(\/\d{1,2})?$/;
const EMAIL =
  /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const looksIpv6 = (s: string) => s.includes(':') && /^[0-9a-f:.]+(\/\d{1,3})?$/i.test(s);

/** The observable type of a value among those its field kind allows (a host: domain or IP by form). */
function observableTypeOf(allowed: readonly StixObservableType[], v: string): StixObservableType | null {
  if (allowed.includes('ipv4-addr') && IPV4.test(v)) return 'ipv4-addr';
  if (allowed.includes('ipv6-addr') && looksIpv6(v)) return 'ipv6-addr';
  if (allowed.includes('domain-name')) return 'domain-name';
  if (allowed.includes('url')) return 'url';
  if (allowed.includes('email-addr')) return 'email-addr';
  return null;
}

/** The value as the observable holds it: domains in lower-case A-labels (one id for `пример.рф` and `xn--e1afmkfd.xn--p1ai`). */
function observableValue(type: StixObservableType, raw: string): string | null {
  const v = raw.trim();
  if (!v) return null;
  if (type === 'domain-name') {
    const ascii = domainToASCII(v.toLowerCase().replace(/\.$/, ''));
    return ascii || null;
  }
  if (type === 'email-addr') {
    // `value` is an RFC 5322 addr-spec (format `email`): the domain in A-labels; a non-ASCII local part has no such form.
    const at = v.lastIndexOf('@');
    const domain = at > 0 ? domainToASCII(v.slice(at + 1).toLowerCase()) : '';
    const addr = `${v.slice(0, at).toLowerCase()}@${domain}`;
    return domain && EMAIL.test(addr) ? addr : null;
  }
  if (type === 'ipv6-addr') return v.toLowerCase();
  if (type === 'url') {
    try {
      // WHATWG form (host in punycode, path percent-encoded), then what RFC 3986 still refuses (`\`, `^`, `|` …) encoded too.
      return new URL(v).href.replace(/[^A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]/g, (c) => encodeURIComponent(c));
    } catch {
      return null;
    }
  }
  return v;
}

function sco(type: ScoType, props: Record<string, unknown>): StixObject {
  const defined = Object.fromEntries(Object.entries(props).filter(([, v]) => v !== undefined));
  return { type, spec_version: '2.1', id: scoId(type, defined), ...defined };
}

const ms = (d: Date) => d.toISOString();
const text = (v: unknown) =>
  Array.isArray(v) ? v.join(', ') : typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v);

/** The event's fields as text lines (sensitive fields never). */
function describe(fields: readonly FieldDescriptor[], data: Record<string, unknown>): string {
  const lines: string[] = [];
  for (const f of fields) {
    if (f.sensitive) continue;
    const v = data[f.key];
    if (v === undefined || v === null || v === '' || (Array.isArray(v) && !v.length)) continue;
    const shown = f.options?.find((o) => o.value === v)?.label ?? text(v);
    lines.push(`${f.label}: ${shown}`);
  }
  return lines.join('\n');
}

/** Every STIX object of one event (the company identity, the Forpost identity and extension are not repeated here). */
export function eventToStix(e: StixEventInput, ctx: StixContext): StixObject[] {
  const m = getModule(e.module);
  const map = STIX_MODULES[e.module];
  const creator = forpostIdentity(ctx).id;
  const company = companyIdentityId(ctx, e.companyId);
  const created = ms(e.createdAt);
  const modified = ms(new Date(Math.max(e.updatedAt.getTime(), e.createdAt.getTime())));
  const seen = ms(e.detectedAt ?? e.createdAt);
  const own = (type: string, role: string) => eventObjectId(ctx.namespace, type, role, e.id);

  const out: StixObject[] = [];
  const byField = new Map<string, StixObject>();
  const add = (o: StixObject) => {
    if (!out.some((x) => x.id === o.id)) out.push(o);
    return o;
  };

  for (const key of map.observables) {
    const f = m.fields.find((x) => x.key === key);
    const raw = e.data[key];
    const allowed = f ? FIELD_KINDS[f.type].stix : null;
    if (!f || !allowed || typeof raw !== 'string') continue;
    const type = observableTypeOf(allowed, raw.trim());
    const value = type && observableValue(type, raw);
    if (!type || !value) continue;
    byField.set(key, add(sco(type, { value })));
  }
  if (map.resolves) {
    const d = byField.get(map.resolves.domain);
    const ip = byField.get(map.resolves.ip);
    if (d?.type === 'domain-name' && ip) d.resolves_to_refs = [ip.id];
  }
  if (map.account) {
    const login = map.account.login ? e.data[map.account.login] : undefined;
    const email = map.account.email ? byField.get(map.account.email) : undefined;
    if (typeof login === 'string' && login.trim()) {
      const ua = add(sco('user-account', { account_login: login.trim(), account_type: map.account.type }));
      if (email) email.belongs_to_ref = ua.id;
    }
  }
  if (map.traffic) {
    const t = map.traffic;
    const dst = byField.get(t.dst);
    const src = t.src ? byField.get(t.src) : undefined;
    const port = t.dstPort ? e.data[t.dstPort] : undefined;
    const proto = t.protocol ? e.data[t.protocol] : undefined;
    const when = (k?: string) => {
      const v = k ? e.data[k] : undefined;
      return typeof v === 'string' && !Number.isNaN(Date.parse(v)) ? new Date(v).toISOString() : undefined;
    };
    if (dst || src) {
      const start = when(t.start);
      const end = when(t.end);
      add(
        sco('network-traffic', {
          start,
          end: start && end && end >= start ? end : undefined,
          src_ref: src?.id,
          dst_ref: dst?.id,
          dst_port: typeof port === 'number' && Number.isInteger(port) && port >= 0 && port <= 65535 ? port : undefined,
          protocols: [typeof proto === 'string' && /^[a-z0-9-]+$/.test(proto) ? proto : 'tcp'],
        }),
      );
    }
  }
  const observables = [...out];
  const primary = map.observables.map((k) => byField.get(k)).find((o) => o);

  const labels = [
    ...(e.status ? [`status:${e.status}`] : []),
    ...(e.priority ? [`priority:${e.priority}`] : []),
    ...(e.decision ? [`decision:${e.decision}`] : []),
    ...e.tags.map((t) => `tag:${t}`),
  ];
  const extension: Record<string, unknown> = {
    extension_type: 'property-extension',
    module: e.module,
    event_id: e.id,
    company_id: e.companyId,
  };
  if (e.status) extension.status = e.status;
  if (e.priority) extension.priority = e.priority;
  if (e.decision) extension.decision = e.decision;
  if (e.tags.length) extension.tags = [...e.tags];
  const common = (type: string, role: string): StixObject => ({
    type,
    spec_version: '2.1',
    id: own(type, role),
    created_by_ref: creator,
    created,
    modified,
    ...(labels.length ? { labels } : {}),
  });
  const reference = {
    source_name: 'forpost',
    external_id: `${e.module}-${e.id}`,
    ...(ctx.consoleUrl ? { url: `${ctx.consoleUrl.replace(/\/$/, '')}${m.route}/${e.id}` } : {}),
  };

  const sdo: StixObject = { ...common(map.sdo, 'event') };
  const description = describe(m.fields, e.data);
  const name = e.title.trim() || `${m.name} №${e.id}`;
  if (map.sdo === 'note') {
    sdo.abstract = name;
    sdo.content = description || name;
  } else {
    sdo.name = name;
    if (description) sdo.description = description;
  }
  sdo.external_references = [reference];
  sdo.extensions = { [extensionId(ctx)]: extension };

  const relationships: StixObject[] = [];
  const rel = (source: string, kind: string, target: string) =>
    relationships.push({
      ...common('relationship', `${kind}:${source}:${target}`),
      relationship_type: kind,
      source_ref: source,
      target_ref: target,
    });

  let indicator: StixObject | undefined;
  if (map.indicator && primary && typeof primary.value === 'string') {
    indicator = {
      ...common('indicator', 'indicator'),
      name: primary.value,
      indicator_types: [...map.indicator.types],
      pattern: equalsPattern(primary.type, 'value', primary.value),
      pattern_type: 'stix',
      pattern_version: '2.1',
      valid_from: seen,
      external_references: [reference],
    };
    rel(indicator.id, 'based-on', primary.id);
  }

  if (map.sdo === 'incident') {
    rel(sdo.id, 'targets', company);
    for (const o of observables) rel(sdo.id, 'related-to', o.id);
    if (indicator) rel(indicator.id, 'indicates', sdo.id);
  } else {
    const refs = [company, ...observables.map((o) => o.id), ...(indicator ? [indicator.id] : [])];
    sdo.object_refs = refs;
    if (map.sdo === 'report') {
      sdo.report_types = [...(map.reportTypes ?? ['threat-report'])];
      sdo.published = seen;
    }
  }
  return [...observables, ...(indicator ? [indicator] : []), ...relationships, sdo];
}

/** The objects a bundle of events starts with: the Forpost identity and extension. */
export const bundleHead = (ctx: StixContext): StixObject[] => [forpostIdentity(ctx), forpostExtension(ctx)];
