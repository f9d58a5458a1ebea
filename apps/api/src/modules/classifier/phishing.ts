/*
 * Built-in phishing score of a domain against the company's brands and known domains: Levenshtein
 * similarity after homoglyph and transliteration normalisation (Latin, Cyrillic, IDN/punycode), risky
 * keywords (login, secure, bank, оплата …) and risky zones. Pure functions, no network.
 */
import type { MlPriorityCode } from '@forpost/contract/classifier';
import { punycodeToUnicode } from '@forpost/contract/helpers';

const TRANSLIT: Record<string, string> = {
  а: 'a',
  б: 'b',
  в: 'v',
  г: 'g',
  д: 'd',
  е: 'e',
  ё: 'e',
  ж: 'zh',
  з: 'z',
  и: 'i',
  й: 'y',
  к: 'k',
  л: 'l',
  м: 'm',
  н: 'n',
  о: 'o',
  п: 'p',
  р: 'r',
  с: 's',
  т: 't',
  у: 'u',
  ф: 'f',
  х: 'h',
  ц: 'ts',
  ч: 'ch',
  ш: 'sh',
  щ: 'sch',
  ъ: '',
  ы: 'y',
  ь: '',
  э: 'e',
  ю: 'yu',
  я: 'ya',
};
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

export const translit = (s: string) => [...s.toLowerCase()].map((c) => TRANSLIT[c] ?? c).join('');
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
export const similarity = (a: string, b: string) =>
  a.length || b.length ? 1 - levenshtein(a, b) / Math.max(a.length, b.length) : 0;

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
export function brandTokens(names: string[]): string[] {
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

export const priorityOfScore = (score: number): MlPriorityCode =>
  score >= 0.8 ? 'critical' : score >= 0.6 ? 'high' : score >= 0.4 ? 'medium' : 'low';

const round2 = (n: number) => Math.round(n * 100) / 100;

export function phishingScore(domain: string, profile: BrandProfile): PhishingResult {
  const d = domainParts(domain);
  const own = profile.domains.map((x) => domainParts(x));
  const reasons: string[] = [];
  if (own.some((o) => o.registrable === d.registrable || d.host === o.host || d.host.endsWith(`.${o.registrable}`))) {
    return {
      score: 0,
      priority: 'low',
      brand: d.registrable,
      similarity: 1,
      keywords: [],
      riskyZone: false,
      homoglyphs: false,
      ownDomain: true,
      reasons: ['Домен принадлежит компании'],
    };
  }

  // What to compare: brand tokens and the labels of the company's domains, in Latin forms.
  const targets = new Map<string, string>(); // normalised Latin form → shown name
  for (const o of own) {
    const l = o.labels[0]?.replace(/-/g, '');
    if (l && l.length >= 3) {
      targets.set(translit(l), o.registrable);
      targets.set(skeleton(l), o.registrable);
    }
  }
  for (const b of brandTokens(profile.brands)) targets.set(translit(b), b); // brand names win over domain labels
  for (const t of [...targets.keys()]) if (!/^[a-z0-9]+$/.test(t)) targets.delete(t);

  // Candidate forms: each label whole (without hyphens and digits) and its tokens.
  const forms = new Set<string>();
  let homoglyphHit = false;
  for (const label of d.labels) {
    const plain = label.replace(/-/g, '');
    const noDigits = plain.replace(/\d+/g, '');
    for (const f of [plain, noDigits]) {
      if (f.length >= 3) {
        forms.add(translit(f));
        forms.add(skeleton(f));
      }
    }
    for (const t of label.split(/[-\d]+/)) {
      if (t.length >= 3) {
        forms.add(translit(t));
        forms.add(skeleton(t));
      }
    }
  }

  let best = 0;
  let bestBrand: string | null = null;
  let contains = false;
  for (const [target, shown] of targets) {
    if (target.length < 3) continue;
    for (const f of forms) {
      let s = similarity(f, target);
      if (target.length >= 4 && f.includes(target) && f !== target) {
        s = Math.max(s, 0.95);
        contains = true;
      }
      if (s > best) {
        best = s;
        bestBrand = shown;
      }
    }
  }
  // Homoglyphs: the visual skeleton matches a brand better than the plain transliteration does.
  for (const label of d.labels) {
    const plain = label.replace(/-/g, '');
    if (!/[a-z0-9]/.test(plain)) continue; // an all-Cyrillic name is a transliteration, not a lookalike
    const sk = skeleton(plain);
    if (sk !== plain && [...targets.keys()].some((t) => t.length >= 4 && sk.includes(t) && !plain.includes(t)))
      homoglyphHit = true;
  }
  const mixedScript = d.labels.some((l) => hasCyrillic(l) && hasLatin(l));
  if (mixedScript) homoglyphHit = true;

  const hostWords = d.labels.join('-');
  const keywords = RISKY_KEYWORDS.filter((k) => {
    const hay = `-${hostWords}-`;
    return k.length <= 3 ? new RegExp(`[-.]${k}[-.\\d]`).test(hay) : hay.includes(k);
  });
  const uniqueKeywords = [...new Set(keywords)].filter((k, _i, all) => !all.some((o) => o !== k && o.includes(k)));
  const riskyZone = RISKY_ZONES.has(d.zone.split('.').pop() ?? '');

  const sim = best >= 0.5 ? best : best * 0.5;
  let score =
    0.6 * sim + 0.2 * Math.min(1, uniqueKeywords.length * 0.5) + 0.1 * (riskyZone ? 1 : 0) + 0.1 * (homoglyphHit ? 1 : 0);
  if (best >= 0.8 && (uniqueKeywords.length > 0 || riskyZone || homoglyphHit)) score += 0.1;
  if (best >= 0.99 && !contains) score += 0.1; // the brand's exact name in another zone
  score = round2(Math.max(0, Math.min(1, score)));

  if (bestBrand && best >= 0.5) {
    reasons.push(
      contains ? `Содержит название бренда «${bestBrand}»` : `Похож на «${bestBrand}» (схожесть ${Math.round(best * 100)}%)`,
    );
  } else reasons.push('Нет сходства с брендами и доменами компании');
  if (uniqueKeywords.length) reasons.push(`Рискованные слова: ${uniqueKeywords.join(', ')}`);
  if (riskyZone) reasons.push(`Рискованная доменная зона .${d.zone}`);
  if (mixedScript) reasons.push('Смешение кириллицы и латиницы');
  else if (homoglyphHit) reasons.push('Подмена похожими символами');

  return {
    score,
    priority: priorityOfScore(score),
    brand: bestBrand,
    similarity: round2(best),
    keywords: uniqueKeywords,
    riskyZone,
    homoglyphs: homoglyphHit,
    ownDomain: false,
    reasons,
  };
}
