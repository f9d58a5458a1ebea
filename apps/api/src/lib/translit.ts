/*
 * Russian → Latin transliteration as Russian speakers write it in domain names and logins (х → h,
 * щ → sch: «hleb», «borsch», «homecredit»), not the passport standard (kh, shch): the phishing score
 * compares domains written this way, and the benchmark data imitates them. Other characters are kept.
 */
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

/** Lower case, Cyrillic letters transliterated, everything else as is. */
export const translit = (s: string) => [...s.toLowerCase()].map((c) => TRANSLIT[c] ?? c).join('');
