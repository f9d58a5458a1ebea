/*
 * Indicators: the values events share across modules and companies — an IP, a domain, a registrar,
 * an INN/OGRN, a card BIN, an e-mail, a phone, an account. Which field carries which kind is the
 * registry's fact (the field's type, or its `indicator` option); the normal form is this file's.
 * The API stores an event's indicators as `kind:value` strings (events.indicators, GIN-indexed), so
 * «related events» and the list's `indicator` filter are one index lookup.
 */
import { unicodeToPunycode, urlHost } from '../helpers';
import { isIPv4, isIPv6 } from '../validation';
import { FIELD_KINDS } from './kinds';
import type { FieldDescriptor, IndicatorKind, ModuleDescriptor } from './types';

export const INDICATOR_KINDS = [
  'ip',
  'domain',
  'registrar',
  'inn',
  'ogrn',
  'bin',
  'email',
  'phone',
  'account',
] as const satisfies readonly IndicatorKind[];

export const INDICATOR_LABELS: Record<IndicatorKind, string> = {
  ip: 'IP-адрес',
  domain: 'Домен',
  registrar: 'Регистратор',
  inn: 'ИНН',
  ogrn: 'ОГРН',
  bin: 'BIN карты',
  email: 'Email',
  phone: 'Телефон',
  account: 'Аккаунт',
};

/*
 * Hosts of public platforms: a URL on them names the platform, not an actor, and would relate every
 * Telegram post or GitHub repository to every other one. Their URLs give no domain indicator.
 */
const PLATFORM_HOSTS = new Set([
  't.me',
  'telegram.me',
  'vk.com',
  'ok.ru',
  'dzen.ru',
  'youtube.com',
  'youtu.be',
  'rutube.ru',
  'instagram.com',
  'facebook.com',
  'twitter.com',
  'x.com',
  'tiktok.com',
  'github.com',
  'gitlab.com',
  'bitbucket.org',
  'pastebin.com',
  'google.com',
  'yandex.ru',
  'play.google.com',
  'apps.apple.com',
]);

/** The kind a field's values are, or null (by its `indicator` option, else by its type). */
export function indicatorKindOf(f: FieldDescriptor): IndicatorKind | 'host' | 'url' | null {
  if (f.indicator === false) return null;
  if (f.indicator) return f.indicator;
  return FIELD_KINDS[f.type].indicator;
}

const normalHost = (s: string): string | null => {
  const h = s.trim().toLowerCase().replace(/\.$/, '');
  if (!h) return null;
  if (isIPv4(h) || isIPv6(h)) return h;
  const ascii = unicodeToPunycode(h);
  return ascii.startsWith('www.') ? ascii.slice(4) : ascii;
};

/** `kind:value` in normal form, or null when the value is not one of that kind. */
export function indicatorOf(kind: IndicatorKind | 'host' | 'url', raw: unknown): string | null {
  if (typeof raw !== 'string' && typeof raw !== 'number') return null;
  const s = String(raw).trim();
  if (!s) return null;
  switch (kind) {
    case 'ip':
      return isIPv4(s) || isIPv6(s.toLowerCase()) ? `ip:${s.toLowerCase()}` : null;
    case 'host': {
      const h = normalHost(s);
      if (!h) return null;
      return isIPv4(h) || isIPv6(h) ? `ip:${h}` : `domain:${h}`;
    }
    case 'domain': {
      const h = normalHost(s);
      return h ? `domain:${h}` : null;
    }
    case 'url': {
      const host = urlHost(s);
      if (!host) return null;
      const h = normalHost(host);
      if (!h || PLATFORM_HOSTS.has(h)) return null;
      return isIPv4(h) || isIPv6(h) ? `ip:${h}` : `domain:${h}`;
    }
    case 'email':
      return s.includes('@') ? `email:${s.toLowerCase()}` : null;
    case 'phone': {
      let d = s.replace(/\D/g, '');
      // Russian numbers written with the trunk prefix 8 are the same line as +7.
      if (d.length === 11 && d.startsWith('8')) d = `7${d.slice(1)}`;
      return d.length >= 7 ? `phone:${d}` : null;
    }
    case 'inn':
    case 'ogrn':
    case 'bin': {
      const d = s.replace(/\D/g, '');
      return d ? `${kind}:${d}` : null;
    }
    case 'registrar':
      return `registrar:${s.toLowerCase().replace(/\s+/g, ' ')}`;
    case 'account':
      return `account:${s.toLowerCase().replace(/^@/, '')}`;
  }
}

/**
 * An event's indicators from its stored data (plain fields; sealed card numbers are skipped — their
 * BIN is a derived field), deduplicated and sorted. Values over 300 characters are not indicators.
 */
export function indicatorsOf(m: ModuleDescriptor, data: Record<string, unknown>): string[] {
  const out = new Set<string>();
  for (const f of m.fields) {
    if (f.sensitive) continue;
    const kind = indicatorKindOf(f);
    if (!kind) continue;
    const v = data[f.key];
    const values = Array.isArray(v) ? v : [v];
    for (const x of values) {
      if (typeof x === 'string' && x.length > 300) continue;
      const i = indicatorOf(kind, x);
      if (i) out.add(i);
    }
  }
  return [...out].sort();
}

/** Splits `kind:value`; null when the kind is unknown or the value empty. */
export function parseIndicator(s: string): { kind: IndicatorKind; value: string } | null {
  const i = s.indexOf(':');
  if (i <= 0) return null;
  const kind = s.slice(0, i) as IndicatorKind;
  const value = s.slice(i + 1);
  if (!(INDICATOR_KINDS as readonly string[]).includes(kind) || !value) return null;
  return { kind, value };
}
