/*
 * Every Unicode host in a list carries its punycode on hover (not only mixed-script ones); an ASCII
 * host gets no hover; a mixed-script one keeps its mark. The tooltip's content is rendered on hover
 * only, so the static markup shows the hover target.
 */
import type { FieldDescriptor } from '@forpost/contract/modules';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { FieldValue } from './values';

const domain = { key: 'domain', label: 'Домен', type: 'domain' } as FieldDescriptor;
const card = { key: 'card_number', label: 'Номер карты', type: 'card' } as FieldDescriptor;
const cell = (field: FieldDescriptor, value: string) =>
  renderToStaticMarkup(createElement(FieldValue, { field, value, mode: 'cell' }));

describe('DomainValue in a list cell', () => {
  it('puts a one-script Unicode host under a hover', () => {
    for (const host of ['пример.рф', 'bücher.de']) {
      const html = cell(domain, host);
      expect(html).toContain(`data-testid="idn-host">${host}</span>`);
      expect(html).not.toContain('mixed-script');
    }
  });

  it('marks a mixed-script host and hovers it too', () => {
    const html = cell(domain, 'ex\u0430mple.com');
    expect(html).toContain('data-testid="idn-host"');
    expect(html).toContain('data-testid="mixed-script"');
  });

  it('marks a host of Cyrillic letters that pass for Latin ones under .com, not a Russian name', () => {
    const html = cell(domain, '\u0430\u0440\u0440\u04cf\u0435.com'); // «аррӏе.com»
    expect(html).toContain('data-testid="latin-lookalike"');
    expect(html).not.toContain('mixed-script');
    for (const host of ['пример.рф', 'пример.com', 'ex\u0430mple.com'])
      expect(cell(domain, host)).not.toContain('latin-lookalike');
  });

  it('leaves an ASCII host, punycode included, without a hover', () => {
    for (const host of ['example.com', 'xn--e1afmkfd.xn--p1ai']) expect(cell(domain, host)).not.toContain('idn-host');
  });
});

describe('card numbers', () => {
  it('group a masked number in fours with its stars', () => {
    expect(cell(card, '4276********1234')).toContain('4276 **** **** 1234');
  });
});
