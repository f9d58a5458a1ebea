/*
 * Built-in phishing score of a domain against the company's brands and known domains: Levenshtein
 * similarity after homoglyph and transliteration normalisation (Latin, Cyrillic, IDN/punycode), risky
 * keywords (login, secure, bank, оплата …) and risky zones. Pure functions, no network.
 */
import type { MlPriorityCode } from '@forpost/contract/classifier';
import { punycodeToUnicode } from '@forpost/contract/helpers';
import { translit } from '../../lib/translit';

/** Characters that look like Latin letters (Cyrillic, Greek, digits). */
const HOMOGLYPHS: Record<string, string> = {
  а: 'a',
  в: 'b',
  е: 'e',
  ё: 'e',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  с: 'c',
  т: 't',
  у: 'y',
  х: 'x',
  ѕ: 's',
  і: 'i',
  ј: 'j',
  ԁ: 'd',
  ɡ: 'g',
  ո: 'n',
  α: 'a',
  ο: 'o',
  ρ: 'p',
  ν: 'v',
  τ: 't',
  '0': 'o',
  '1': 'l',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  '8': 'b',
  '6': 'b',
  '9': 'g',
  '@': 'a',
  $: 's',
};

const RISKY_KEYWORDS = [
  'login',
  'signin',
  'sign-in',
  'logon',
  'secure',
  'security',
  'account',
  'verify',
  'verification',
  'update',
  'confirm',
  'bank',
  'pay',
  'payment',
  'bonus',
  'gift',
  'promo',
  'prize',
  'support',
  'help',
  'wallet',
  'auth',
  'password',
  'reset',
  'unlock',
  'refund',
  'lk',
  'cabinet',
  'online',
  'oplata',
  'vyplata',
  'kompensaciya',
  'kompensatsiya',
  'priz',
  'podarok',
  'aktsiya',
  'akciya',
  'vhod',
  'оплата',
  'оплат',
  'вход',
  'войти',
  'бонус',
  'приз',
  'выплат',
  'компенсац',
  'подарок',
  'акция',
  'кабинет',
  'лк',
  'банк',
  'поддержк',
  'карта',
  'кредит',
  'возврат',
];
const RISKY_ZONES = new Set([
  'xyz',
  'top',
  'online',
  'site',
  'club',
  'icu',
  'buzz',
  'live',
  'shop',
  'info',
  'click',
  'link',
  'rest',
  'fun',
  'support',
  'pw',
  'tk',
  'ml',
  'ga',
  'cf',
  'gq',
  'work',
  'monster',
  'cyou',
  'sbs',
  'cfd',
  'store',
  'space',
  'website',
  'tech',
  'biz',
  'su',
  'app',
  'host',
]);
const LEGAL_FORMS = new Set([
  'ооо',
  'пао',
  'ао',
  'зао',
  'оао',
  'нко',
  'ип',
  'гк',
  'llc',
  'ltd',
  'inc',
  'jsc',
  'pjsc',
  'corp',
  'co',
  'group',
  'груп',
  'группа',
]);
/** Second-level public suffixes we treat as a zone (sber.com.ru → registrable label 'sber'). */
const SECOND_LEVEL = new Set(['com', 'net', 'org', 'co', 'msk', 'spb', 'gov', 'edu', 'ac']);

/** Visual skeleton: lookalike characters → Latin, 'rn' → 'm', 'vv' → 'w'. */
export const skeleton = (s: string) =>
  [...s.toLowerCase()]
    .map((c) => HOMOGLYPHS[c] ?? c)
    .join('')
    .replace(/rn/g, 'm')
    .replace(/vv/g, 'w');

export function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  if (!a.length) return b.length;
  if (!b.length) return a.length;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length] ?? 0;
}
const similarity = (a: string, b: string) => (a.length || b.length ? 1 - levenshtein(a, b) / Math.max(a.length, b.length) : 0);

const hasCyrillic = (s: string) => /[\u0400-\u04ff]/.test(s);
const hasLatin = (s: string) => /[a-z]/.test(s);

interface DomainParts {
  host: string;
  zone: string;
  /** Labels left of the zone, most significant (registrable) first. */
  labels: string[];
  registrable: string;
}

export function domainParts(domain: string): DomainParts {
  let host =
    domain
      .trim()
      .toLowerCase()
      .replace(/^[a-z]+:\/\//, '')
      .split(/[/?#:]/)[0] ?? '';
  host = host.replace(/\.$/, '');
  try {
    host = punycodeToUnicode(host);
  } catch {
    // keep as is
  }
  host = host.replace(/^www\./, '');
  const all = host.split('.').filter(Boolean);
  let zoneLen = 1;
  if (all.length >= 3 && SECOND_LEVEL.has(all[all.length - 2] ?? '')) zoneLen = 2;
  const zone = all.slice(-zoneLen).join('.');
  const labels = all.slice(0, -zoneLen).reverse();
  const registrable = labels.length ? `${labels[0]}.${zone}` : host;
  return { host, zone, labels, registrable };
}

export interface BrandProfile {
  /** Brand words (company name, legal name), lower case as written. */
  brands: string[];
  /** The company's own domains (whitelist, allowlist, contact email). */
  domains: string[];
}

/** Brand tokens from company names: the whole name without spaces and each longer word, minus legal forms. */
function brandTokens(names: string[]): string[] {
  const out = new Set<string>();
  for (const n of names) {
    const words = n
      .toLowerCase()
      .replace(/ё/g, 'е')
      .replace(/[«»"'()]/g, ' ')
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w && !LEGAL_FORMS.has(w));
    if (!words.length) continue;
    const joined = words.join('');
    if (joined.length >= 3) out.add(joined);
    for (const w of words) if (w.length >= 4) out.add(w);
  }
  return [...out];
}

export interface PhishingResult {
  score: number;
  priority: MlPriorityCode;
  /** The brand or domain it resembles most, and how much (0..1). */
  brand: string | null;
  similarity: number;
  keywords: string[];
  riskyZone: boolean;
  homoglyphs: boolean;
  ownDomain: boolean;
  reasons: string[];
}

const priorityOfScore = (score: number): MlPriorityCode =>
  score >= 0.8 ? 'critical' : score >= 0.6 ? 'high' : score >= 0.4 ? 'medium' : 'low';

const round2 = (n: number) => Math.round(n * 100) / 100;

const isOwnDomain = (d: DomainParts, own: readonly DomainParts[]) =>
  own.some((o) => o.registrable === d.registrable || d.host === o.host || d.host.endsWith(`.${o.registrable}`));

const ownDomainResult = (d: DomainParts): PhishingResult => ({
  score: 0,
  priority: 'low',
  brand: d.registrable,
  similarity: 1,
  keywords: [],
  riskyZone: false,
  homoglyphs: false,
  ownDomain: true,
  reasons: ['Домен принадлежит компании'],
});

/**
 * What a domain is compared with: the brand tokens and the labels of the company's domains, in Latin
 * forms (normalised form → the name shown in the reasons). Brand names win over domain labels.
 */
function brandTargets(own: readonly DomainParts[], brands: string[]): Map<string, string> {
  const targets = new Map<string, string>();
  for (const o of own) {
    const l = o.labels[0]?.replace(/-/g, '');
    if (l && l.length >= 3) {
      targets.set(translit(l), o.registrable);
      targets.set(skeleton(l), o.registrable);
    }
  }
  for (const b of brandTokens(brands)) targets.set(translit(b), b);
  for (const t of [...targets.keys()]) if (!/^[a-z0-9]+$/.test(t)) targets.delete(t);
  return targets;
}

/**
 * The forms a domain's labels are compared in: each label whole (without hyphens, with and without
 * digits) and each of its tokens, transliterated and as a visual skeleton.
 */
function candidateForms(labels: readonly string[]): Set<string> {
  const forms = new Set<string>();
  const add = (f: string) => {
    if (f.length < 3) return;
    forms.add(translit(f));
    forms.add(skeleton(f));
  };
  for (const label of labels) {
    const plain = label.replace(/-/g, '');
    add(plain);
    add(plain.replace(/\d+/g, ''));
    for (const t of label.split(/[-\d]+/)) add(t);
  }
  return forms;
}

interface BrandMatch {
  /** Similarity to the closest brand (0..1). */
  best: number;
  brand: string | null;
  /** A form contains the brand's name whole. */
  contains: boolean;
}

/** The brand the forms resemble most; a form that contains a brand of 4+ letters counts as 0.95 at least. */
function closestBrand(targets: ReadonlyMap<string, string>, forms: ReadonlySet<string>): BrandMatch {
  const m: BrandMatch = { best: 0, brand: null, contains: false };
  for (const [target, shown] of targets) {
    if (target.length < 3) continue;
    for (const f of forms) {
      let s = similarity(f, target);
      if (target.length >= 4 && f.includes(target) && f !== target) {
        s = Math.max(s, 0.95);
        m.contains = true;
      }
      if (s > m.best) {
        m.best = s;
        m.brand = shown;
      }
    }
  }
  return m;
}

/**
 * Lookalike characters: a label's visual skeleton contains a brand its plain form does not (an
 * all-Cyrillic label is a transliteration, not a lookalike), or a label mixes Cyrillic and Latin.
 */
function lookalikesOf(labels: readonly string[], targets: ReadonlyMap<string, string>) {
  const mixedScript = labels.some((l) => hasCyrillic(l) && hasLatin(l));
  const skeletonHit = labels.some((label) => {
    const plain = label.replace(/-/g, '');
    if (!/[a-z0-9]/.test(plain)) return false;
    const sk = skeleton(plain);
    return sk !== plain && [...targets.keys()].some((t) => t.length >= 4 && sk.includes(t) && !plain.includes(t));
  });
  return { mixedScript, homoglyphs: mixedScript || skeletonHit };
}

/** Risky words in the host name (those of 3 letters or less only as whole tokens), without the ones inside a longer one found. */
function riskyKeywordsOf(labels: readonly string[]): string[] {
  const hay = `-${labels.join('-')}-`;
  const found = RISKY_KEYWORDS.filter((k) => (k.length <= 3 ? new RegExp(`[-.]${k}[-.\\d]`).test(hay) : hay.includes(k)));
  return [...new Set(found)].filter((k, _i, all) => !all.some((o) => o !== k && o.includes(k)));
}

/** The score (0..1): mostly the closeness to a brand, then risky words, zone and lookalikes. */
function scoreOf(m: BrandMatch, keywords: number, riskyZone: boolean, homoglyphs: boolean): number {
  const sim = m.best >= 0.5 ? m.best : m.best * 0.5;
  let score = 0.6 * sim + 0.2 * Math.min(1, keywords * 0.5) + 0.1 * (riskyZone ? 1 : 0) + 0.1 * (homoglyphs ? 1 : 0);
  if (m.best >= 0.8 && (keywords > 0 || riskyZone || homoglyphs)) score += 0.1;
  if (m.best >= 0.99 && !m.contains) score += 0.1; // the brand's exact name in another zone
  return round2(Math.max(0, Math.min(1, score)));
}

/** Why, in Russian: the brand it resembles, the source's similarity, the risky words and zone, the lookalikes. */
function reasonsOf(
  m: BrandMatch,
  targets: number,
  imported: number | null,
  keywords: readonly string[],
  riskyZone: string | null,
  look: ReturnType<typeof lookalikesOf>,
): string[] {
  const reasons: string[] = [];
  if (m.brand && m.best >= 0.5) {
    reasons.push(
      m.contains ? `Содержит название бренда «${m.brand}»` : `Похож на «${m.brand}» (схожесть ${Math.round(m.best * 100)}%)`,
    );
  } else if (!targets) reasons.push('У компании не заданы бренды и домены: сравнить домен не с чем');
  else reasons.push('Сравнение с брендами и доменами компании сходства не нашло');
  if (imported !== null) {
    const used = imported > m.best;
    reasons.push(
      `Схожесть по данным источника: ${Math.round(imported * 100)}% — ${used ? 'учтена в оценке вместо своей' : 'своя оценка не ниже, учтена она'}`,
    );
  }
  if (keywords.length) reasons.push(`Рискованные слова: ${keywords.join(', ')}`);
  if (riskyZone !== null) reasons.push(`Рискованная доменная зона .${riskyZone}`);
  if (look.mixedScript) reasons.push('Смешение кириллицы и латиницы');
  else if (look.homoglyphs) reasons.push('Подмена похожими символами');
  return reasons;
}

/**
 * The phishing score of a domain against a company's brands and domains (its own domains score 0).
 * `importedSimilarity` (0..100): the source's own similarity to the brand, when the event carries one
 * (the descriptor's `classify.similarityField`) — the closeness used is the higher of the two.
 */
export function phishingScore(domain: string, profile: BrandProfile, importedSimilarity?: number | null): PhishingResult {
  const d = domainParts(domain);
  const own = profile.domains.map((x) => domainParts(x));
  if (isOwnDomain(d, own)) return ownDomainResult(d);
  const targets = brandTargets(own, profile.brands);
  const match = closestBrand(targets, candidateForms(d.labels));
  const look = lookalikesOf(d.labels, targets);
  const keywords = riskyKeywordsOf(d.labels);
  const riskyZone = RISKY_ZONES.has(d.zone.split('.').pop() ?? '');
  const imported =
    typeof importedSimilarity === 'number' && Number.isFinite(importedSimilarity)
      ? Math.max(0, Math.min(1, importedSimilarity / 100))
      : null;
  const closeness = imported !== null && imported > match.best ? { ...match, best: imported, contains: false } : match;
  const score = scoreOf(closeness, keywords.length, riskyZone, look.homoglyphs);
  return {
    score,
    priority: priorityOfScore(score),
    brand: match.brand,
    similarity: round2(match.best),
    keywords,
    riskyZone,
    homoglyphs: look.homoglyphs,
    ownDomain: false,
    reasons: reasonsOf(match, targets.size, imported, keywords, riskyZone ? d.zone : null, look),
  };
}
