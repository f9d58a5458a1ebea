/*
 * Highlighted message text without innerHTML: the API's `highlight` is HTML-escaped text whose only
 * markup is <mark>…</mark>. It is split on those two tags into plain-text segments (entities
 * decoded), which React renders as text — anything else that looks like markup stays literal text.
 */

export interface Segment {
  text: string;
  mark: boolean;
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** Decodes the entities an HTML escaper produces (&amp; &lt; &gt; &quot; &#39; &#x27; …); unknown ones stay as written. */
export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,6});/gi, (whole, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? Number.parseInt(body.slice(2), 16) : Number.parseInt(body.slice(1), 10);
      if (!Number.isFinite(code) || code <= 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return whole;
      return String.fromCodePoint(code);
    }
    return NAMED[body.toLowerCase()] ?? whole;
  });
}

/** '<mark>a</mark> &amp; b' → [{text: 'a', mark: true}, {text: ' & b', mark: false}]. */
export function parseHighlight(html: string): Segment[] {
  const out: Segment[] = [];
  let mark = false;
  for (const part of html.split(/(<mark>|<\/mark>)/i)) {
    const tag = part.toLowerCase();
    if (tag === '<mark>') mark = true;
    else if (tag === '</mark>') mark = false;
    else if (part) {
      const text = decodeEntities(part);
      const last = out[out.length - 1];
      if (last && last.mark === mark) last.text += text;
      else out.push({ text, mark });
    }
  }
  return out;
}

const VOWEL_END = /[аеёиоуыэюяйь]+$/iu;
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Marks the words of `text` that match `terms` (the matched keyword rules, or search words) the way
 * a Russian full-text match does, approximately: a word starting with the term's stem (the term
 * without its vowel ending) — «карта» marks «картой», «карты».
 */
export function highlightTerms(text: string, terms: readonly string[]): Segment[] {
  const stems = new Set<string>();
  for (const term of terms) {
    for (const word of term.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
      if (word.length < 2) continue;
      const stem = word.length >= 4 ? word.replace(VOWEL_END, '') : word;
      stems.add(stem.length >= 3 ? stem : word);
    }
  }
  if (stems.size === 0) return text ? [{ text, mark: false }] : [];
  const alternatives = [...stems].sort((a, b) => b.length - a.length).map(escapeRe);
  const re = new RegExp(`(?<![\\p{L}\\p{N}])(?:${alternatives.join('|')})[\\p{L}\\p{N}]*`, 'giu');
  const out: Segment[] = [];
  let at = 0;
  for (const m of text.matchAll(re)) {
    const i = m.index ?? 0;
    if (i > at) out.push({ text: text.slice(at, i), mark: false });
    out.push({ text: m[0], mark: true });
    at = i + m[0].length;
  }
  if (at < text.length) out.push({ text: text.slice(at), mark: false });
  return out;
}

/** The words of a search query (quotes and -exclusions dropped) for highlighting. */
export function searchWords(q: string | undefined): string[] {
  if (!q) return [];
  return q
    .split(/\s+/)
    .filter((w) => w && !w.startsWith('-'))
    .map((w) => w.replace(/["«»]/g, ''))
    .filter((w) => w.length >= 2);
}
