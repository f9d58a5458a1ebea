import { DrizzleQueryError } from 'drizzle-orm/errors';
import { describe, expect, it } from 'vitest';
import { errInfo } from '../src/lib/logger';

describe('errInfo: what a log line says about an error', () => {
  it("drops a failed query's parameters and keeps the database's reason", () => {
    const cause = Object.assign(new Error('deadlock detected'), { code: '40P01' });
    const e = new DrizzleQueryError('UPDATE telegram_accounts SET session = $1 WHERE id = $2', ['1BQANOTEWSECRET', 7], cause);
    const info = errInfo(e);
    const line = JSON.stringify(info);
    expect(line).not.toContain('1BQANOTEWSECRET');
    expect(info.message).toBe('Failed query: UPDATE telegram_accounts SET session = $1 WHERE id = $2');
    expect(info.cause).toEqual({ message: 'deadlock detected', code: '40P01' });
  });

  it('keeps a plain error whole, with its code, and accepts what is not an Error', () => {
    expect(errInfo(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toEqual({
      message: 'connect ECONNREFUSED',
      code: 'ECONNREFUSED',
    });
    expect(errInfo('строка')).toEqual({ message: 'строка' });
  });
});
