import { describe, expect, it } from 'vitest';
import { titleOf } from './probe';

const page = (title: string) => Buffer.from(`<html><head><title>${title}</title></head></html>`);
const title = (t: string) => titleOf(page(t), 'text/html; charset=utf-8');

describe('titleOf', () => {
  it('decodes every HTML entity, with or without the semicolon where HTML allows it', () => {
    expect(title('Каталог&hellip; &copy; 2025 &laquo;Ромашка&raquo;&trade; &euro; &rarr;')).toBe(
      'Каталог… © 2025 «Ромашка»™ € →',
    );
    expect(title('AT&T &amp AT&amp;T &copy 2024 &#8212; &#x2014;')).toBe('AT&T & AT&T © 2024 — —');
    expect(title('Tom&nbsp;&amp;\n  Jerry')).toBe('Tom & Jerry');
  });

  it('turns numeric references that are not characters into U+FFFD instead of failing the probe', () => {
    expect(title('a &#99999999; b &#0; c &#xD800; d')).toBe('a \ufffd b \ufffd c \ufffd d');
    expect(title('&#150;&#128;')).toBe('–€'); // windows-1252 numbers, as browsers read them
  });
});
