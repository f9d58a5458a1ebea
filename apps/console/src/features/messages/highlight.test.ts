import { describe, expect, it } from 'vitest';
import { decodeEntities, highlightTerms, parseHighlight, searchWords } from './highlight';

describe('parseHighlight', () => {
  it("splits on <mark> and decodes the escaper's entities", () => {
    expect(parseHighlight('Новая <mark>утечка</mark> &amp; &lt;b&gt;база&lt;/b&gt; &quot;x&quot; &#39;y&#39;')).toEqual([
      { text: 'Новая ', mark: false },
      { text: 'утечка', mark: true },
      { text: ' & <b>база</b> "x" \'y\'', mark: false },
    ]);
  });

  it('never produces markup: anything besides <mark> stays literal text', () => {
    const segs = parseHighlight('<img src=x onerror=alert(1)><mark>слово</mark><script>alert(1)</script>');
    expect(segs).toEqual([
      { text: '<img src=x onerror=alert(1)>', mark: false },
      { text: 'слово', mark: true },
      { text: '<script>alert(1)</script>', mark: false },
    ]);
  });

  it('handles adjacent and unbalanced marks', () => {
    expect(parseHighlight('<mark>а</mark><mark>б</mark> в')).toEqual([
      { text: 'аб', mark: true },
      { text: ' в', mark: false },
    ]);
    expect(parseHighlight('x <mark>y')).toEqual([
      { text: 'x ', mark: false },
      { text: 'y', mark: true },
    ]);
    expect(parseHighlight('')).toEqual([]);
  });

  it('decodes numeric entities and leaves unknown ones', () => {
    expect(decodeEntities('&#x41;&#66;&unknown;&#0;')).toBe('AB&unknown;&#0;');
  });
});

describe('highlightTerms', () => {
  it("marks word forms starting with the keyword's stem, case-insensitively", () => {
    const segs = highlightTerms('Продаю Карты и картой расплачиваюсь, картон не нужен', ['карта']);
    expect(segs.filter((s) => s.mark).map((s) => s.text)).toEqual(['Карты', 'картой', 'картон']);
  });

  it('only at word starts; several terms; nothing to mark', () => {
    expect(
      highlightTerms('слив базы данных', ['база данных'])
        .filter((s) => s.mark)
        .map((s) => s.text),
    ).toEqual(['базы', 'данных']);
    expect(highlightTerms('подбаза', ['база']).some((s) => s.mark)).toBe(false);
    expect(highlightTerms('текст', [])).toEqual([{ text: 'текст', mark: false }]);
  });

  it('search words drop exclusions and quotes', () => {
    expect(searchWords('"слив базы" -реклама сбер')).toEqual(['слив', 'базы', 'сбер']);
  });
});
