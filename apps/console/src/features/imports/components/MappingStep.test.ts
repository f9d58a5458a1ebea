/*
 * The sample rows' verdict beside the whole-file dry run speaks of the sample only: a clean sample must
 * not read as «Ошибок нет» for a file whose row 27 the import will reject.
 */
import { describe, expect, it } from 'vitest';
import { sampleSummary } from './MappingStep';

describe('sampleSummary', () => {
  it('names the rows it checked, never the file', () => {
    expect(sampleSummary(20, 0)).toBe('Первые 20 строк: ошибок нет');
    expect(sampleSummary(3, 0)).toBe('Первые 3 строки: ошибок нет');
    expect(sampleSummary(1, 0)).toBe('Первая строка: ошибок нет');
    for (const n of [1, 2, 5, 20]) expect(sampleSummary(n, 0)).not.toMatch(/^Ошибок нет/);
  });

  it('counts the bad rows among them', () => {
    expect(sampleSummary(20, 4)).toBe('Первые 20 строк: с ошибками 4');
    expect(sampleSummary(1, 1)).toBe('Первая строка: с ошибками 1');
  });
});
