/*
 * Built-in sentiment of a publication (media): a Russian/English lexicon of word stems with simple
 * negation ("не", "not", "no" flip the next sentiment word). No network, no model files.
 */
import type { Connotation } from '@forpost/contract/modules';

/** Stems (prefix match on the word, ё → е). Short or ambiguous words are whole-word only (WORDS_*). */
const NEGATIVE_STEMS = [
  // ru
  'сбо',
  'утечк',
  'утек',
  'утёк',
  'мошенн',
  'взлом',
  'краж',
  'похищ',
  'украл',
  'штраф',
  'банкрот',
  'скандал',
  'жалоб',
  'пожалов',
  'недовол',
  'проблем',
  'ошибк',
  'авари',
  'отказ',
  'критик',
  'обвин',
  'арест',
  'уголовн',
  'претенз',
  'убыт',
  'паден',
  'упал',
  'снижен',
  'сократ',
  'увольн',
  'уволи',
  'санкци',
  'блокир',
  'заблокир',
  'недоступ',
  'атак',
  'хакер',
  'вымогат',
  'обман',
  'фишинг',
  'поддел',
  'фальшив',
  'угроз',
  'опасн',
  'риск',
  'уязвим',
  'нарушен',
  'наруши',
  'провал',
  'кризис',
  'дефолт',
  'долг',
  'просроч',
  'расследов',
  'обыск',
  'задержан',
  'мошеннич',
  'слит',
  'слив',
  'компромет',
  'негатив',
  'плох',
  'худш',
  'ужас',
  'возмущ',
  'протест',
  'иск',
  'судебн',
  'разоблач',
  'катастроф',
  'потер',
  // en
  'breach',
  'leak',
  'hack',
  'fraud',
  'scam',
  'outage',
  'lawsuit',
  'loss',
  'crash',
  'failur',
  'fail',
  'complain',
  'scandal',
  'bankrupt',
  'vulnerab',
  'attack',
  'stolen',
  'steal',
  'theft',
  'fine',
  'penalt',
  'sanction',
  'decline',
  'drop',
  'layoff',
  'investigat',
  'arrest',
  'phish',
  'fake',
  'threat',
  'risk',
  'crisis',
  'default',
  'negative',
  'bad',
  'worst',
  'poor',
  'angry',
  'protest',
  'disrupt',
  'down',
];
const POSITIVE_STEMS = [
  // ru
  'рост',
  'вырос',
  'увелич',
  'прибыл',
  'успех',
  'успешн',
  'наград',
  'лидер',
  'рекорд',
  'улучш',
  'довол',
  'запуст',
  'запуск',
  'партнерств',
  'инновац',
  'надежн',
  'одобр',
  'побед',
  'выгодн',
  'качествен',
  'благодар',
  'позитив',
  'хорош',
  'лучш',
  'отличн',
  'удобн',
  'безопасн',
  'защищ',
  'развит',
  'расшир',
  'премия',
  'признан',
  'довери',
  'стабильн',
  'укреп',
  'поддерж',
  'помог',
  'бесплатн',
  // en
  'growth',
  'grow',
  'record',
  'award',
  'success',
  'profit',
  'improv',
  'launch',
  'partnership',
  'innovat',
  'reliab',
  'win',
  'gain',
  'positive',
  'good',
  'best',
  'great',
  'excellent',
  'secure',
  'trust',
  'stable',
  'strong',
  'expand',
  'upgrade',
  'praise',
];
/** Words that count only as a whole word (their stems would match unrelated words). */
const NEGATIVE_WORDS = new Set(['суд', 'иск', 'иски', 'исков', 'вор', 'воры', 'ддос', 'ddos', 'fine', 'fined', 'down']);
const COPULAS = new Set(['было', 'был', 'была', 'были', 'будет', 'будут', 'выявлено', 'обнаружено', 'found', 'detected']);
const NEGATIONS = new Set(['не', 'нет', 'без', 'ни', 'not', 'no', 'never', "don't", "isn't", "wasn't", 'without']);
/** Stems that are too generic unless they start the word exactly (checked as prefixes anyway). */
const SHORT_STEM_MIN = 4;

const norm = (s: string) => s.toLowerCase().replace(/ё/g, 'е');
const negStems = NEGATIVE_STEMS.map(norm).filter((s) => s.length >= SHORT_STEM_MIN || s === 'сбо');
const posStems = POSITIVE_STEMS.map(norm).filter((s) => s.length >= SHORT_STEM_MIN);

function polarity(word: string): -1 | 0 | 1 {
  if (NEGATIVE_WORDS.has(word)) return -1;
  if (word.length < 3) return 0;
  // 'сбо' only as 'сбой', 'сбоя', 'сбои' … (not 'сбор')
  if (word.startsWith('сбо') && /^сбо[йяие]/.test(word)) return -1;
  for (const s of negStems) if (s !== 'сбо' && word.startsWith(s)) return -1;
  for (const s of posStems) if (word.startsWith(s)) return 1;
  return 0;
}

export interface SentimentResult {
  connotation: Connotation;
  /** Positive minus negative hits, normalised to -1..1. */
  score: number;
  positive: string[];
  negative: string[];
}

/** Positive, Negative or Neutral (Undefined when there is no text at all). */
export function sentimentOf(text: string): SentimentResult {
  const words = norm(text).match(/[\p{L}\p{N}']+/gu) ?? [];
  if (!words.length) return { connotation: 'Undefined', score: 0, positive: [], negative: [] };
  const positive: string[] = [];
  const negative: string[] = [];
  let negate = 0;
  /** The last sentiment word and how many words ago it was ("сбоев не было", "проблем нет"). */
  let last: { list: string[]; word: string; ago: number } | null = null;
  for (let i = 0; i < words.length; i++) {
    const w = words[i] as string;
    if (NEGATIONS.has(w)) {
      const next = words[i + 1] ?? '';
      const postfix =
        w === 'нет' || (w === 'не' && COPULAS.has(next)) || (w === 'no' && next === '') || (w === 'not' && COPULAS.has(next));
      if (postfix && last && last.ago <= 2) {
        // flip the preceding word: "сбоев не было" is good news
        last.list.splice(last.list.lastIndexOf(last.word), 1);
        (last.list === negative ? positive : negative).push(last.word);
        last = null;
        if (COPULAS.has(next)) i++;
        continue;
      }
      negate = 2; // flips a sentiment word within the next two words
      continue;
    }
    let p = polarity(w);
    if (p !== 0 && negate > 0) p = p === 1 ? -1 : 1;
    if (last) last.ago++;
    if (p === 1) {
      positive.push(w);
      last = { list: positive, word: w, ago: 0 };
    } else if (p === -1) {
      negative.push(w);
      last = { list: negative, word: w, ago: 0 };
    }
    if (negate > 0) negate--;
  }
  const hits = positive.length + negative.length;
  const score = hits ? (positive.length - negative.length) / hits : 0;
  const connotation: Connotation = hits === 0 || Math.abs(score) < 0.2 ? 'Neutral' : score > 0 ? 'Positive' : 'Negative';
  return { connotation, score, positive, negative };
}
