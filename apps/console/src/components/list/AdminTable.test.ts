import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { type AdminColumn, AdminTable } from './AdminTable';

// The console has no DOM test setup (no jsdom / testing-library): AdminTable is rendered to HTML on
// the server side, which is enough to see which filter controls and column headers it draws.
interface Row {
  id: number;
  name: string;
  owner: number;
}
interface Search {
  q?: string;
  owner?: number;
  from?: string;
  to?: string;
  page?: number;
}

const query = {
  isError: false,
  isFetching: false,
  data: { items: [{ id: 1, name: 'Альфа', owner: 7 }], total: 1 },
  error: null,
  refetch: () => {},
};

function render(columns: AdminColumn<Row, Search>[], search: Search = {}) {
  return renderToStaticMarkup(
    createElement(AdminTable<Row, Search>, {
      query,
      columns,
      search,
      onSearch: () => {},
      empty: () => 'Пусто',
      filtersTestId: 'filters',
    }),
  );
}
const headers = (html: string) => [...html.matchAll(/<th[^>]*>(.*?)<\/th>/g)].map((m) => (m[1] ?? '').replace(/<[^>]+>/g, ''));

describe('AdminTable', () => {
  it('draws the filter a column declares, in the filter bar above the table', () => {
    const html = render(
      [{ title: 'Название', dataIndex: 'name', filter: { kind: 'text', key: 'q', placeholder: 'Поиск по названию' } }],
      {
        q: 'аль',
      },
    );
    expect(html).toContain('data-testid="filters"');
    expect(html).toMatch(/<input[^>]*aria-label="Поиск по названию"/);
    expect(html.indexOf('data-testid="filters"')).toBeLessThan(html.indexOf('<table'));
    expect(headers(html)).toContain('Название');
  });

  it('hideInTable: no column, but its filter stays in the bar', () => {
    const html = render([
      { title: 'Название', dataIndex: 'name' },
      {
        title: 'Автор',
        dataIndex: 'owner',
        hideInTable: true,
        filter: { kind: 'number', key: 'owner', placeholder: 'ID автора', min: 1 },
      },
    ]);
    expect(headers(html)).toContain('Название');
    expect(headers(html)).not.toContain('Автор');
    expect(html).toMatch(/<input[^>]*aria-label="ID автора"/);
  });

  it('date, plain text and autocomplete filters draw their controls with their accessible names', () => {
    const html = render(
      [
        {
          title: 'Название',
          dataIndex: 'name',
          filter: {
            kind: 'autocomplete',
            key: 'q',
            placeholder: 'Начало кода',
            label: 'Код',
            options: [{ value: 'user.' }],
            testId: 'ac',
          },
        },
        { key: 'o', hideInTable: true, filter: { kind: 'text', plain: true, key: 'q', placeholder: 'ID объекта' } },
        {
          key: 'd',
          hideInTable: true,
          filter: { kind: 'date', from: 'from', to: 'to', label: 'Период', placeholder: ['С', 'По'] },
        },
      ],
      { from: '2026-01-02' },
    );
    expect(html).toContain('data-testid="ac"');
    expect(html).toMatch(/aria-label="Код"/);
    expect(html).toMatch(/<input[^>]*aria-label="ID объекта"/);
    expect(html).toContain('02.01.2026');
    expect(html).not.toContain('Search'); // the plain input has no search button
  });
});
