/*
 * Matches certificate names against one company's assets. The CT monitor runs every name of every
 * entry against every company, so everything is precomputed once per company:
 *  - own domains and their subdomains never match (a Set lookup per parent of the name);
 *  - permutation: the name or one of its parents is in the candidate set (ASCII Set lookups);
 *  - keyword: one Aho–Corasick pass over the name without its zone, in Unicode (IDN labels decoded),
 *    and for IDN names one more over its transliteration; Cyrillic keywords are also searched in Latin
 *    transliteration, so «сбер» finds sber-pay.com and «sber» finds сбер-онлайн.рф;
 *  - similar: normalized Damerau–Levenshtein (optimal string alignment: insert, delete, substitute,
 *    swap adjacent, each 1) of the registrable label to each protected domain's label,
 *    1 − distance / longer length ≥ threshold. Only labels whose length difference alone does not rule
 *    them out are compared, with a distance bound that stops a row early.
 */
import { translit } from '../../../lib/translit';
import { domainParts } from '../../classifier/index';
import { normalizeCtName } from './parse';

export interface AssetMatch {
  /** The protected domain (permutation, similar) or the keyword as given. */
  asset: string;
  reason: 'permutation' | 'keyword' | 'similar';
  /** 1 for permutation and keyword hits, the similarity for 'similar'. */
  score: number;
}
export interface AssetMatcher {
  match(name: string): AssetMatch | null;
}

/** Keywords shorter than this would hit most names and are ignored. */
const MIN_KEYWORD = 3;

/** Multi-pattern substring search (Aho–Corasick) over UTF-16 code units. */
class Automaton {
  private readonly next: Map<number, number>[] = [new Map()];
  private readonly fail: number[] = [0];
  /** Pattern id ending at this state (itself or through its failure links), −1 for none. */
  private readonly out: number[] = [-1];

  add(pattern: string, id: number) {
    let s = 0;
    for (let i = 0; i < pattern.length; i++) {
      const c = pattern.charCodeAt(i);
      let t = this.next[s]?.get(c);
      if (t === undefined) {
        t = this.next.length;
        this.next.push(new Map());
        this.fail.push(0);
        this.out.push(-1);
        this.next[s]?.set(c, t);
      }
      s = t;
    }
    if (this.out[s] === -1) this.out[s] = id;
  }

  build() {
    const queue: number[] = [...(this.next[0]?.values() ?? [])];
    for (let q = 0; q < queue.length; q++) {
      const s = queue[q] as number;
      for (const [c, t] of this.next[s] ?? []) {
        let f = this.fail[s] as number;
        while (f && !this.next[f]?.has(c)) f = this.fail[f] as number;
        const g = this.next[f]?.get(c);
        this.fail[t] = g !== undefined && g !== t ? g : 0;
        if (this.out[t] === -1) this.out[t] = this.out[this.fail[t] as number] as number;
        queue.push(t);
      }
    }
  }

  /** The id of the first pattern found in text, −1 for none. */
  find(text: string): number {
    let s = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      let t = this.next[s]?.get(c);
      while (t === undefined && s) {
        s = this.fail[s] as number;
        t = this.next[s]?.get(c);
      }
      s = t ?? 0;
      const o = this.out[s] as number;
      if (o !== -1) return o;
    }
    return -1;
  }
}

/** Damerau–Levenshtein distance (optimal string alignment), or limit + 1 once it must exceed limit. */
function boundedDistance(a: string, b: string, limit: number): number {
  const n = a.length;
  const m = b.length;
  if (Math.abs(n - m) > limit) return limit + 1;
  let prev2 = new Array<number>(m + 1).fill(0);
  let prev = Array.from({ length: m + 1 }, (_, j) => j);
  let cur = new Array<number>(m + 1).fill(0);
  for (let i = 1; i <= n; i++) {
    cur[0] = i;
    let rowMin = i;
    for (let j = 1; j <= m; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let d = Math.min((prev[j] as number) + 1, (cur[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, (prev2[j - 2] as number) + 1);
      cur[j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > limit) return limit + 1;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return prev[m] as number;
}

const foldYo = (s: string) => s.replace(/ё/g, 'е');

interface PreparedName {
  /** The name and its parents (b.c for a.b.c), down to two labels; ASCII. */
  chain: string[];
  /** The registrable label, Unicode. */
  label: string;
  /** The name without its zone (and www.), Unicode, ё folded: what keywords are searched in. */
  text: string;
  /** The text transliterated, for IDN names only. */
  latin: string | null;
}

/**
 * What every company's matcher needs of a name, computed once per name: the monitor asks each
 * company's matcher about the same names in turn. Bounded: cleared when full.
 */
const prepared = new Map<string, PreparedName | null>();
const PREPARED_MAX = 50_000;

function prepare(raw: string): PreparedName | null {
  const hit = prepared.get(raw);
  if (hit !== undefined) return hit;
  const name = normalizeCtName(raw);
  let out: PreparedName | null = null;
  if (name) {
    const chain = [name];
    for (let i = name.indexOf('.'); i !== -1; i = name.indexOf('.', i + 1)) {
      const rest = name.slice(i + 1);
      if (rest.includes('.')) chain.push(rest);
    }
    const parts = domainParts(name);
    const text = foldYo(parts.labels.slice().reverse().join('.'));
    out = { chain, label: parts.labels[0] ?? '', text, latin: name.includes('xn--') ? translit(text) : null };
  }
  if (prepared.size >= PREPARED_MAX) prepared.clear();
  prepared.set(raw, out);
  return out;
}

export function createMatcher(opts: {
  domains: string[];
  permutations: Iterable<string>;
  keywords: string[];
  threshold: number;
}): AssetMatcher {
  const own = new Map<string, string>(); // ASCII → as given
  for (const d of opts.domains) {
    const a = normalizeCtName(d);
    if (a) own.set(a, d);
  }
  const perms = new Set<string>();
  for (const p of opts.permutations) {
    const a = p.toLowerCase();
    if (!own.has(a)) perms.add(a);
  }

  const keywords: string[] = [];
  const automaton = new Automaton();
  for (const k of opts.keywords) {
    const kw = foldYo(k.trim().toLowerCase());
    if (kw.length < MIN_KEYWORD) continue;
    const id = keywords.push(k.trim()) - 1;
    automaton.add(kw, id);
    const latin = translit(kw);
    if (latin !== kw && latin.length >= MIN_KEYWORD) automaton.add(latin, id);
  }
  automaton.build();

  /** Protected registrable labels (Unicode) by length. */
  const byLength = new Map<number, { label: string; domain: string }[]>();
  for (const [ascii, given] of own) {
    const label = domainParts(ascii).labels[0];
    if (!label) continue;
    const list = byLength.get(label.length) ?? [];
    list.push({ label, domain: given });
    byLength.set(label.length, list);
  }
  const threshold = Math.min(1, Math.max(0, opts.threshold));

  /** The closest protected label to `label` with its similarity (0 when none reaches the threshold). */
  const closest = (label: string, atLeast: number) => {
    let best: { domain: string; score: number } | null = null;
    const len = label.length;
    for (const [l, list] of byLength) {
      const longer = Math.max(l, len);
      const limit = Math.floor(longer * (1 - atLeast) + 1e-9);
      if (Math.abs(l - len) > limit) continue;
      for (const t of list) {
        const d = boundedDistance(label, t.label, limit);
        if (d > limit) continue;
        const score = (longer - d) / longer;
        if (score >= atLeast && (!best || score > best.score)) best = { domain: t.domain, score };
      }
    }
    return best;
  };

  return {
    match(raw) {
      const prepared = prepare(raw);
      if (!prepared) return null;
      const { chain, label, text, latin } = prepared;
      if (chain.some((n) => own.has(n))) return null;

      if (chain.some((n) => perms.has(n))) {
        const c = closest(label, 0);
        return { asset: c?.domain ?? opts.domains[0] ?? (chain[0] as string), reason: 'permutation', score: 1 };
      }

      if (keywords.length) {
        let id = automaton.find(text);
        if (id === -1 && latin !== null) id = automaton.find(latin);
        if (id !== -1) return { asset: keywords[id] as string, reason: 'keyword', score: 1 };
      }

      const c = label ? closest(label, threshold) : null;
      return c ? { asset: c.domain, reason: 'similar', score: c.score } : null;
    },
  };
}
