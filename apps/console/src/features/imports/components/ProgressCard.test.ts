/*
 * A running import whose worker died (the API says `stalled`) is shown as stalled, in Russian, in
 * place of the running progress — on the import's card and in the history — and normally again once
 * another worker has taken it over.
 */
import { IMPORT_MSG, type ImportItem } from '@forpost/contract/imports';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ImportTarget } from '../api/queries';
import { ProgressCard } from './ProgressCard';

const STALLED_TEXT = 'Обработчик не отвечает, продолжим автоматически';

const running: ImportItem = {
  id: 7,
  module: 'domains',
  company_id: 1,
  company_name: 'Альфа',
  doc_id: 3,
  file_name: 'big.csv',
  file_size: 1_000_000,
  format: 'csv',
  encoding: 'utf-8',
  delimiter: ';',
  headers: ['Домен'],
  mapping: ['domain'],
  mode: 'update',
  status: 'running',
  message: null,
  rows_total: 60_000,
  rows_read: 32_000,
  created: 32_000,
  updated: 0,
  skipped: 0,
  failed: 0,
  errors_count: 0,
  author_id: 1,
  author_name: 'Админ',
  created_at: '2026-01-01T00:00:00.000Z',
  started_at: '2026-01-01T00:00:01.000Z',
  finished_at: null,
  stalled: false,
};
const target: ImportTarget = { kind: 'module', code: 'domains' };
const card = (item: ImportItem) => renderToStaticMarkup(createElement(ProgressCard, { target, item, onNew: () => {} }));

describe('the progress of a stalled import', () => {
  it('says the worker does not answer (warning) instead of the running progress', () => {
    expect(IMPORT_MSG.stalled).toBe(STALLED_TEXT);
    const html = card({ ...running, stalled: true });
    expect(html).toContain(STALLED_TEXT);
    expect(html).toContain('data-testid="import-stalled"');
    expect(html).toContain('ant-alert-warning');
    expect(html).not.toContain('ant-progress-status-active');
    expect(html).not.toContain('Обработано');
  });

  it('shows the running progress again once taken over', () => {
    const html = card(running);
    expect(html).not.toContain(STALLED_TEXT);
    expect(html).toContain('ant-progress-status-active');
    expect(html).toMatch(/Обработано 32\u00a0000 из 60\u00a0000 строк/);
  });
});
