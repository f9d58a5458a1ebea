import { unicodeToPunycode } from '@forpost/contract/helpers';
import { describe, expect, it } from 'vitest';
import { translit } from '../../lib/translit';
import { domainParts, levenshtein, phishingScore, skeleton } from './phishing';
import { sentimentOf } from './sentiment';

const sber = { brands: ['ПАО Сбербанк'], domains: ['sberbank.ru', 'sber.ru'] };

describe('built-in sentiment', () => {
  it('reads Russian and English publications', () => {
    expect(sentimentOf('Клиенты банка пожаловались на сбой в приложении').connotation).toBe('Negative');
    expect(sentimentOf('Утечка данных клиентов: мошенники похитили миллионы').connotation).toBe('Negative');
    expect(sentimentOf('Банк получил награду и показал рекордный рост прибыли').connotation).toBe('Positive');
    expect(sentimentOf('Bank reports record profit growth and wins award').connotation).toBe('Positive');
    expect(sentimentOf('Massive data breach: hackers stole customer records').connotation).toBe('Negative');
    expect(sentimentOf('Банк открыл новое отделение на улице Ленина').connotation).toBe('Neutral');
    expect(sentimentOf('').connotation).toBe('Undefined');
  });
  it('flips a word after a negation', () => {
    expect(sentimentOf('Сбоев не было, клиенты довольны').connotation).toBe('Positive');
    expect(sentimentOf('Обновление не улучшило работу').connotation).toBe('Negative');
  });
  it('does not take a collection (сбор) for an outage (сбой)', () => {
    expect(sentimentOf('Сбор средств на благотворительность').connotation).toBe('Neutral');
  });
});

describe('phishing score', () => {
  it('normalises hosts', () => {
    expect(domainParts('https://www.Sber-Login.com.ru/path').registrable).toBe('sber-login.com.ru');
    expect(domainParts(unicodeToPunycode('сбербанк-онлайн.рф')).host).toBe('сбербанк-онлайн.рф');
    expect(translit('сбербанк')).toBe('sberbank');
    expect(skeleton('sberbаnk')).toBe('sberbank'); // Cyrillic а
    expect(skeleton('rnail')).toBe('mail');
    expect(levenshtein('sberbank', 'sbrebank')).toBe(2);
  });
  it('rates look-alikes of the brand by risk', () => {
    const login = phishingScore('sberbank-login.xyz', sber);
    expect(login.priority).toBe('critical');
    expect(login.keywords).toContain('login');
    expect(login.riskyZone).toBe(true);
    expect(phishingScore('сбербанк-оплата.рф', sber).priority).toBe('critical');
    expect(phishingScore(unicodeToPunycode('сбербанк.рф'), sber).score).toBeGreaterThan(0.5); // сбербанк.рф in punycode
    const typo = phishingScore('sbrebank.ru', sber);
    expect(['high', 'medium']).toContain(typo.priority);
    expect(typo.similarity).toBeGreaterThanOrEqual(0.75);
    const homoglyph = phishingScore('sberbаnk.com', sber); // Cyrillic а
    expect(homoglyph.homoglyphs).toBe(true);
    expect(['critical', 'high']).toContain(homoglyph.priority);
    expect(phishingScore('s6erbank-bonus.online', sber).priority).toBe('critical');
  });
  it('takes the source’s similarity into account and says so; says when there is nothing to compare with (#30.11)', () => {
    // «Схожесть 96» from the source beside «Нет сходства… угроза 20 %» contradicted itself.
    const none = { brands: [], domains: [] };
    const bare = phishingScore('vtb-bonus.online', none);
    expect(bare.reasons[0]).toBe('У компании не заданы бренды и домены: сравнить домен не с чем');
    const withSource = phishingScore('vtb-bonus.online', none, 96);
    expect(withSource.score).toBeGreaterThan(bare.score);
    expect(['critical', 'high']).toContain(withSource.priority);
    expect(withSource.reasons).toContain('Схожесть по данным источника: 96% — учтена в оценке вместо своей');
    const unrelated = phishingScore('example-shop.ru', sber, 10);
    expect(unrelated.reasons[0]).toBe('Сравнение с брендами и доменами компании сходства не нашло');
    expect(unrelated.priority).toBe('low');
    // Its own closeness higher than the source's: its own counts, and the reason says so.
    const own = phishingScore('sberbank-login.xyz', sber, 40);
    expect(own.score).toBe(phishingScore('sberbank-login.xyz', sber).score);
    expect(own.reasons).toContain('Схожесть по данным источника: 40% — своя оценка не ниже, учтена она');
  });
  it('leaves unrelated and own domains low', () => {
    expect(phishingScore('example-shop.ru', sber).priority).toBe('low');
    const own = phishingScore('online.sberbank.ru', sber);
    expect(own.ownDomain).toBe(true);
    expect(own.score).toBe(0);
  });
});
