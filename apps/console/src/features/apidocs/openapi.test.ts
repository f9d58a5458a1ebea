import { describe, expect, it } from 'vitest';
import { groupOperations, matches, type OpenApiDocument, permissionOf, resolveRefs, tagTitle, typeLabel } from './openapi';

const doc: OpenApiDocument = {
  openapi: '3.1.0',
  info: { title: 'API', version: '1' },
  paths: {
    '/api/v1/users': {
      get: { operationId: 'listUsers', summary: 'Пользователи', tags: ['users'] },
      post: { operationId: 'createUser', tags: ['users'], 'x-permission': 'users.manage' },
    },
    '/api/v1/auth/login': { post: { operationId: 'authLogin', tags: ['auth'] } },
    '/api/v1/zzz': { get: { operationId: 'mystery', tags: ['zzz'] } },
    '/api/v1/none': { get: { operationId: 'untagged' } },
  },
  components: { schemas: { Error: { type: 'object', properties: { message: { type: 'string' } } } } },
};

describe('OpenAPI helpers of /api-docs', () => {
  it('groups operations by tag: known areas first in their order with Russian titles, unknown tags as is', () => {
    const groups = groupOperations(doc);
    expect(groups.map((g) => [g.tag, g.title])).toEqual([
      ['auth', 'Вход и сессии'],
      ['users', 'Пользователи'],
      ['other', 'Прочее'],
      ['zzz', 'zzz'],
    ]);
    expect(groups[1]?.operations.map((o) => o.method)).toEqual(['get', 'post']);
    expect(tagTitle('apikeys')).toBe('API-ключи');
  });

  it('finds operations by path, summary or operationId, case-insensitively', () => {
    const [users] = groupOperations(doc).filter((g) => g.tag === 'users');
    const list = users?.operations ?? [];
    expect(list.filter((o) => matches(o, 'CREATEUSER')).map((o) => o.op.operationId)).toEqual(['createUser']);
    expect(list.filter((o) => matches(o, 'пользов')).map((o) => o.op.operationId)).toEqual(['listUsers']);
    expect(list.filter((o) => matches(o, '  ')).length).toBe(2);
  });

  it('reads the declared permission when the document has one', () => {
    expect(permissionOf({ 'x-permission': 'users.manage' })).toBe('users.manage');
    expect(permissionOf({})).toBeNull();
  });

  it('inlines $refs, survives cycles and drops the safe-integer bounds', () => {
    expect(resolveRefs({ $ref: '#/components/schemas/Error' }, doc)).toEqual({
      type: 'object',
      properties: { message: { type: 'string' } },
    });
    const cyclic = {
      ...doc,
      components: { schemas: { A: { type: 'object', properties: { a: { $ref: '#/components/schemas/A' } } } } },
    };
    expect(resolveRefs({ $ref: '#/components/schemas/A' }, cyclic)).toEqual({
      type: 'object',
      properties: { a: { $ref: '#/components/schemas/A' } },
    });
    expect(resolveRefs({ type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 }, doc)).toEqual({
      type: 'integer',
    });
    expect(resolveRefs({ type: 'integer', minimum: 1, maximum: 500 }, doc)).toEqual({
      type: 'integer',
      minimum: 1,
      maximum: 500,
    });
  });

  it('labels schema types briefly', () => {
    expect(typeLabel({ type: 'array', items: { type: 'string' } })).toBe('string[]');
    expect(typeLabel({ type: 'string', enum: ['a', 'b'] })).toBe('a | b');
    expect(typeLabel({ type: 'string', format: 'date-time' })).toBe('string (date-time)');
    expect(typeLabel({ anyOf: [{ type: 'string' }, { type: 'null' }] })).toBe('string | null');
    expect(typeLabel(undefined)).toBe('—');
  });
});
