/*
 * Families of lookalike-domain permutations (issue #17): the engine is apps/api/src/modules/discovery/
 * permutations.ts. The order is the engine's fixed family order: a candidate that several families
 * produce is attributed to the first of them.
 */

export const FUZZERS = [
  'addition',
  'bitsquatting',
  'homoglyph',
  'hyphenation',
  'insertion',
  'omission',
  'repetition',
  'replacement',
  'subdomain',
  'transposition',
  'vowel-swap',
  'plural',
  'various',
  'tld-swap',
  'dictionary',
] as const;
export type Fuzzer = (typeof FUZZERS)[number];

export const FUZZER_LABELS: Record<Fuzzer, string> = {
  addition: 'Добавлен символ',
  bitsquatting: 'Ошибка в одном бите',
  homoglyph: 'Похожие символы',
  hyphenation: 'Вставлен дефис',
  insertion: 'Лишняя соседняя клавиша',
  omission: 'Пропущен символ',
  repetition: 'Повтор символа',
  replacement: 'Соседняя клавиша вместо символа',
  subdomain: 'Точка внутри имени',
  transposition: 'Переставлены соседние символы',
  'vowel-swap': 'Заменена гласная',
  plural: 'Множественное число',
  various: 'Другие варианты',
  'tld-swap': 'Другая доменная зона',
  dictionary: 'Добавлено слово',
};
