/*
 * Lookalike characters for the «homoglyph» family. A key is replaced by any of its glyphs; a glyph
 * may be several characters (m → rn) and a key may be two (rn → m).
 *
 * Latin keys: dnstwist's tables (the ASCII lookalikes, the accented and small-capital letters and
 * its per-zone IDN tables, all merged) plus the Cyrillic letters that look like Latin ones (a → а,
 * e → е, o → о, p → р, c → с, x → х, y → у …). Cyrillic keys (for .рф and other Cyrillic labels):
 * Latin and digit lookalikes (а → a, б → 6, в → ʙ, н → ʜ, т → ᴛ …) and the Cyrillic pairs that differ
 * by a stroke (е ↔ ё, и ↔ й, ш ↔ щ, ь ↔ ъ, л ↔ п). Digits get the lookalikes of both scripts.
 * Every glyph is a valid IDNA 2008 code point; mixed-script results are valid IDN and are kept.
 */

const LATIN: Record<string, string> = {
  '0': 'o',
  '1': 'l i',
  '2': 'ƻ',
  '3': '8 ʒ',
  '5': 'ƽ',
  '6': '9',
  '8': '3',
  '9': '6',
  a: 'à á â ã ä å ɑ ạ ǎ ă ȧ ą ə ā а',
  b: 'd lb ʙ ɓ ḃ ḅ ḇ ƅ ь',
  c: 'e ƈ ċ ć ç č ĉ ᴄ с',
  d: 'b cl dl ɗ đ ď ɖ ḑ ḋ ḍ ḏ ḓ ԁ',
  e: 'c é è ê ë ē ĕ ě ė ẹ ę ȩ ɇ ḛ е',
  f: 'ƒ ḟ',
  g: 'q ɢ ɡ ġ ğ ǵ ģ ĝ ǧ ǥ ԍ',
  h: 'lh ĥ ȟ ħ ɦ ḧ ḩ ⱨ ḣ ḥ ḫ ẖ һ',
  i: '1 l í ì ï ı ɩ ǐ ĭ ỉ ị ɨ ȋ ī ɪ ĩ î į і',
  j: 'ʝ ǰ ɉ ĵ ј',
  k: 'lk ik lc ḳ ḵ ⱪ ķ ᴋ ĸ ǩ к',
  l: '1 i ɫ ł ĺ ļ ľ ӏ',
  m: 'n nn rn rr ṁ ṃ ᴍ ɱ ḿ м',
  n: 'm r ń ṅ ṇ ṉ ñ ņ ǹ ň ꞑ ŋ',
  o: '0 ȯ ọ ỏ ơ ó ö ᴏ ô ō ò ŏ ő õ ø о',
  p: 'ƿ ƥ ṕ ṗ р',
  q: 'g ʠ ԛ',
  r: 'ʀ ɼ ɽ ŕ ŗ ř ɍ ɾ ȓ ȑ ṙ ṛ ṟ г',
  s: 'ʂ ś ṣ ṡ ș ŝ š ꜱ ş ѕ',
  t: 'ţ ŧ ṫ ṭ ț ƫ ť т',
  u: 'v ᴜ ǔ ŭ ü ʉ ù ú û ũ ū ų ư ů ű ȕ ȗ ụ',
  v: 'u ṿ ⱱ ᶌ ṽ ⱴ ᴠ ѵ',
  w: 'vv ŵ ẁ ẃ ẅ ⱳ ẇ ẉ ẘ ᴡ ԝ',
  x: 'ẋ ẍ х',
  y: 'ʏ ý ÿ ŷ ƴ ȳ ɏ ỿ ẏ ỵ у',
  z: 'ʐ ż ź ᴢ ƶ ẓ ẕ ⱬ ž',
  rn: 'm',
  cl: 'd',
  vv: 'w',
  ae: 'æ',
  oe: 'œ',
};

const CYRILLIC: Record<string, string> = {
  '0': 'о',
  '3': 'з',
  '4': 'ч',
  '6': 'б',
  а: 'a',
  б: '6',
  в: 'ʙ',
  г: 'r',
  е: 'e ё є',
  ё: 'е e ë',
  з: '3',
  и: 'й u',
  й: 'и ŭ',
  к: 'k ĸ ᴋ',
  л: 'п ʌ',
  м: 'm ᴍ',
  н: 'ʜ',
  о: 'o 0',
  п: 'л n',
  р: 'p',
  с: 'c',
  т: 'ᴛ',
  у: 'y ў',
  х: 'x',
  ч: '4',
  ш: 'щ',
  щ: 'ш',
  ъ: 'ь',
  ь: 'ъ b',
  я: 'ᴙ',
};

function merge(...tables: Record<string, string>[]): ReadonlyMap<string, readonly string[]> {
  const out = new Map<string, string[]>();
  for (const t of tables)
    for (const [k, v] of Object.entries(t)) {
      const list = out.get(k) ?? [];
      for (const g of v.split(' ')) if (!list.includes(g)) list.push(g);
      out.set(k, list);
    }
  return out;
}

/** Lookalikes of single characters (keys of one code point). */
export const GLYPHS: ReadonlyMap<string, readonly string[]> = new Map(
  [...merge(LATIN, CYRILLIC)].filter(([k]) => [...k].length === 1),
);
/** Lookalikes of character pairs (rn → m). */
export const PAIR_GLYPHS: ReadonlyMap<string, readonly string[]> = new Map(
  [...merge(LATIN, CYRILLIC)].filter(([k]) => [...k].length === 2),
);

const LATIN_CYRILLIC: Record<string, string> = {
  a: 'а',
  b: 'ь',
  c: 'с',
  d: 'ԁ',
  e: 'е',
  g: 'ԍ',
  h: 'һ',
  i: 'і',
  j: 'ј',
  k: 'к',
  l: 'ӏ',
  m: 'м',
  o: 'о',
  p: 'р',
  q: 'ԛ',
  s: 'ѕ',
  t: 'т',
  v: 'ѵ',
  w: 'ԝ',
  x: 'х',
  y: 'у',
};
/** The other way round, plus the Russian letters whose lookalike is not a Cyrillic one's image (б → 6). */
const CYRILLIC_LATIN: Record<string, string> = {
  ...Object.fromEntries(Object.entries(LATIN_CYRILLIC).map(([latin, cyrillic]) => [cyrillic, latin])),
  б: '6',
  в: 'b',
  н: 'h',
};

/**
 * The label with every letter that has a lookalike in the other script replaced by it: «paypal» →
 * «раураӏ» (all Cyrillic), «сбербанк» → «c6ep6ahk» (all Latin). dnstwist's «cyrillic» fuzzer is the
 * Latin case when every letter has a lookalike.
 */
export function otherScript(label: string, cyrillic: boolean): string {
  const table = cyrillic ? CYRILLIC_LATIN : LATIN_CYRILLIC;
  let out = '';
  for (const c of label) out += table[c] ?? c;
  return out;
}
