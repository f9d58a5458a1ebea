/*
 * The permutation families. Each permutes the registrable label of the target (the label left of the
 * public suffix: «sberbank» of sberbank.ru, «example» of sub.example.co.uk) and keeps the subdomain
 * and the suffix, as dnstwist does; «subdomain», «various» and «tld-swap» change the rest of the name.
 * A family emits raw Unicode names; the caller validates, converts and deduplicates them.
 * Definitions follow dnstwist's fuzzers (and are a superset of them: every position, every layout,
 * every glyph table), extended to Cyrillic labels: ЙЦУКЕН neighbours, Cyrillic vowels and plurals,
 * Cyrillic lookalikes, transliteration.
 */
import type { Fuzzer } from '@forpost/contract/fuzzers';
import { translit } from '../../../lib/translit';
import { GLYPHS, otherScript, PAIR_GLYPHS } from './glyphs';
import { keyNeighbours } from './keyboards';

export interface Target {
  /** The whole input, ASCII and Unicode. */
  ascii: string;
  unicode: string;
  /** Labels left of the registrable label (Unicode, '' when none). */
  sub: string;
  /** The registrable label, Unicode and ASCII. */
  label: string;
  labelAscii: string;
  /** The public suffix, Unicode and ASCII. */
  suffix: string;
  suffixAscii: string;
  /** The label has Cyrillic letters. */
  cyrillic: boolean;
}

export interface FamilyInput {
  target: Target;
  /** Zones for tld-swap, Unicode. */
  tlds: readonly string[];
  /** Words for dictionary. */
  words: readonly string[];
}

type Emit = (name: string) => void;
type Family = (input: FamilyInput, emit: Emit) => void;

const LATIN_ADDITION = [...'0123456789abcdefghijklmnopqrstuvwxyz'];
const CYRILLIC_ADDITION = [...'абвгдеёжзийклмнопрстуфхцчшщъыьэюя'];
const LATIN_VOWELS = 'aeiou';
const CYRILLIC_VOWELS = 'аеёиоуыэюя';
/** Russian plural after these is «и», otherwise «ы». */
const CYRILLIC_SOFT_PLURAL = 'гкхжшщч';

/** Emits names with the registrable label replaced. */
const withLabel = (t: Target, emit: Emit) => {
  const head = t.sub ? `${t.sub}.` : '';
  const tail = `.${t.suffix}`;
  return (label: string) => emit(head + label + tail);
};

const chars = (s: string) => Array.from(s);
const join = (a: readonly string[], from: number, to = a.length) => a.slice(from, to).join('');

const addition: Family = ({ target: t }, emit) => {
  const out = withLabel(t, emit);
  const extra = t.cyrillic ? [...LATIN_ADDITION, ...CYRILLIC_ADDITION] : LATIN_ADDITION;
  for (const c of extra) out(t.label + c);
  // Before each inner hyphen too: alfa-bank → alfa1-bank.
  const parts = t.label.split('-');
  for (let p = 1; p < parts.length; p++) {
    const left = parts.slice(0, p).join('-');
    const right = parts.slice(p).join('-');
    for (const c of extra) out(`${left}${c}-${right}`);
  }
};

/** One flipped bit in a byte of the label as it travels in DNS (its ASCII form), within [a-z0-9-]. */
const bitsquatting: Family = ({ target: t }, emit) => {
  const out = withLabel(t, emit);
  const l = t.labelAscii;
  for (let i = 0; i < l.length; i++) {
    const code = l.charCodeAt(i);
    for (let bit = 1; bit < 256; bit <<= 1) {
      const f = code ^ bit;
      if ((f >= 48 && f <= 57) || (f >= 97 && f <= 122) || f === 45) out(l.slice(0, i) + String.fromCharCode(f) + l.slice(i + 1));
    }
  }
};

/**
 * Every contiguous run of occurrences of one character replaced by one of its glyphs (dnstwist's
 * window mixing), and every lookalike pair replaced (rn → m).
 */
function mix(label: readonly string[], out: Emit): void {
  const positions = new Map<string, number[]>();
  label.forEach((c, i) => {
    if (!GLYPHS.has(c)) return;
    const list = positions.get(c);
    if (list) list.push(i);
    else positions.set(c, [i]);
  });
  for (const [c, list] of positions) {
    const glyphs = GLYPHS.get(c) ?? [];
    for (let a = 0; a < list.length; a++) {
      const from = list[a] ?? 0;
      const pre = join(label, 0, from);
      for (let b = a; b < list.length; b++) {
        const to = list[b] ?? 0;
        const suf = join(label, to + 1);
        for (const g of glyphs) {
          let mid = '';
          for (let j = from; j <= to; j++) mid += label[j] === c ? g : label[j];
          out(pre + mid + suf);
        }
      }
    }
  }
  for (let i = 0; i + 1 < label.length; i++)
    for (const g of PAIR_GLYPHS.get(`${label[i]}${label[i + 1]}`) ?? []) out(join(label, 0, i) + g + join(label, i + 2));
}

/** One or two rounds of mixing (as dnstwist), and the whole label in the other script's lookalikes. */
const homoglyph: Family = ({ target: t }, emit) => {
  const out = withLabel(t, emit);
  const first = new Set<string>();
  mix(chars(t.label), (s) => first.add(s));
  for (const s of first) out(s);
  for (const s of first) mix(chars(s), out);
  out(otherScript(t.label, t.cyrillic));
};

const hyphenation: Family = ({ target: t }, emit) => {
  const out = withLabel(t, emit);
  const l = chars(t.label);
  for (let i = 1; i < l.length; i++) out(`${join(l, 0, i)}-${join(l, i)}`);
};

const insertion: Family = ({ target: t }, emit) => {
  const out = withLabel(t, emit);
  const l = chars(t.label);
  l.forEach((c, i) => {
    const pre = join(l, 0, i);
    const suf = join(l, i + 1);
    for (const k of keyNeighbours(c, t.cyrillic)) {
      out(pre + k + c + suf);
      out(pre + c + k + suf);
    }
  });
};

const omission: Family = ({ target: t }, emit) => {
  const out = withLabel(t, emit);
  const l = chars(t.label);
  for (let i = 0; i < l.length; i++) out(join(l, 0, i) + join(l, i + 1));
};

const repetition: Family = ({ target: t }, emit) => {
  const out = withLabel(t, emit);
  const l = chars(t.label);
  l.forEach((c, i) => {
    out(join(l, 0, i) + c + join(l, i));
  });
};

const replacement: Family = ({ target: t }, emit) => {
  const out = withLabel(t, emit);
  const l = chars(t.label);
  l.forEach((c, i) => {
    const pre = join(l, 0, i);
    const suf = join(l, i + 1);
    for (const k of keyNeighbours(c, t.cyrillic)) out(pre + k + suf);
  });
};

/** A dot inside the label: the lookalike becomes a subdomain of a shorter registrable name. */
const subdomain: Family = ({ target: t }, emit) => {
  const out = withLabel(t, emit);
  const l = chars(t.label);
  for (let i = 1; i < l.length; i++) if (l[i] !== '-' && l[i - 1] !== '-') out(`${join(l, 0, i)}.${join(l, i)}`);
};

const transposition: Family = ({ target: t }, emit) => {
  const out = withLabel(t, emit);
  const l = chars(t.label);
  for (let i = 0; i + 1 < l.length; i++)
    if (l[i] !== l[i + 1]) out(join(l, 0, i) + (l[i + 1] ?? '') + (l[i] ?? '') + join(l, i + 2));
};

const vowelSwap: Family = ({ target: t }, emit) => {
  const out = withLabel(t, emit);
  const l = chars(t.label);
  l.forEach((c, i) => {
    const vowels = LATIN_VOWELS.includes(c) ? LATIN_VOWELS : CYRILLIC_VOWELS.includes(c) ? CYRILLIC_VOWELS : '';
    for (const v of vowels) if (v !== c) out(join(l, 0, i) + v + join(l, i + 1));
  });
};

/** The plural ending after a character: s/es for Latin, ы/и for Cyrillic. */
function pluralAfter(c: string): string {
  if (CYRILLIC_VOWELS.includes(c) || CYRILLIC_ADDITION.includes(c)) return CYRILLIC_SOFT_PLURAL.includes(c) ? 'и' : 'ы';
  return 'sxz'.includes(c) ? 'es' : 's';
}

/**
 * A plural inside the label (dnstwist: after each of the 3rd … 3rd-from-last characters, for compound
 * names: bankamerica → banksamerica) and at its end (sberbanks, сбербанки, картa → карты).
 */
const plural: Family = ({ target: t }, emit) => {
  const out = withLabel(t, emit);
  const l = chars(t.label);
  for (let i = 2; i < l.length - 2; i++) out(join(l, 0, i + 1) + pluralAfter(l[i] ?? '') + join(l, i + 1));
  const last = l[l.length - 1] ?? '';
  const stem = join(l, 0, l.length - 1);
  out(t.label + pluralAfter(last));
  if (last === 'y') out(`${stem}ies`);
  if (t.label.endsWith('sh') || t.label.endsWith('ch')) out(`${t.label}es`);
  if (last === 'а') out(stem + pluralAfter(l[l.length - 2] ?? ''));
  if (last === 'я' || last === 'ь' || last === 'й') out(`${stem}и`);
};

/**
 * dnstwist's «various»: the suffix glued to the label (sberbankru.ru, sberbank-ru.com, sberbankru.com,
 * exampleco.uk, example.uk for example.co.uk), the subdomain glued to the label (www-example.ru) — for
 * IDN both with the suffix's Unicode form and with its ASCII form, as dnstwist writes it. Plus, for a
 * Cyrillic label, its transliteration (сбербанк.рф → sberbank.ru, sberbank.рф).
 */
const various: Family = ({ target: t }, emit) => {
  const head = t.sub ? `${t.sub}.` : '';
  const suffixes = t.suffix === t.suffixAscii ? [t.suffix] : [t.suffix, t.suffixAscii];
  for (const s of suffixes) {
    if (s.includes('.')) {
      emit(`${head}${t.label}.${s.slice(s.lastIndexOf('.') + 1)}`);
      emit(`${head}${t.label}${s}`);
    } else {
      emit(`${head}${t.label}${s}.${t.suffix}`);
      if (t.suffixAscii !== 'com') {
        emit(`${head}${t.label}-${s}.com`);
        emit(`${head}${t.label}${s}.com`);
      }
    }
  }
  if (t.sub) {
    emit(`${t.sub}${t.label}.${t.suffix}`);
    emit(`${t.sub.replaceAll('.', '')}${t.label}.${t.suffix}`);
    emit(`${t.sub}-${t.label}.${t.suffix}`);
    emit(`${t.sub.replaceAll('.', '-')}-${t.label}.${t.suffix}`);
  }
  if (t.cyrillic) {
    const latin = translit(t.label);
    emit(`${head}${latin}.${t.suffix}`);
    emit(`${head}${latin}.ru`);
  }
};

const tldSwap: Family = ({ target: t, tlds }, emit) => {
  const head = t.sub ? `${t.sub}.` : '';
  for (const z of tlds) if (z !== t.suffix) emit(`${head}${t.label}.${z}`);
};

/**
 * A word added before or after the label, with and without a hyphen (sberbank-online, lksberbank);
 * for a hyphenated label, the word also replaces its first or last part (alfa-bank → alfa-online).
 */
const dictionary: Family = ({ target: t, words }, emit) => {
  const out = withLabel(t, emit);
  const l = t.label;
  for (const w of words) {
    if (l.startsWith(w) && l.endsWith(w)) continue;
    out(`${l}-${w}`);
    out(l + w);
    out(`${w}-${l}`);
    out(w + l);
  }
  if (l.includes('-')) {
    const parts = l.split('-');
    for (const w of words) {
      out(`${parts.slice(0, -1).join('-')}-${w}`);
      out(`${w}-${parts.slice(1).join('-')}`);
    }
  }
};

/** The families in the fixed order of FUZZERS: a name made by several is attributed to the first. */
export const FAMILIES: Record<Fuzzer, Family> = {
  addition,
  bitsquatting,
  homoglyph,
  hyphenation,
  insertion,
  omission,
  repetition,
  replacement,
  subdomain,
  transposition,
  'vowel-swap': vowelSwap,
  plural,
  various,
  'tld-swap': tldSwap,
  dictionary,
};
