/*
 * The import's write path: the statistics refresh a big load runs (ANALYZE of the dedup key only),
 * and one set of write rules — the same change made by an import and by the API leaves the same
 * history, fingerprint, search vector and data.
 */
import type { ImportUploadResponse } from '@forpost/contract/imports';
import { getModule } from '@forpost/contract/modules';
import { beforeAll, describe, expect, it } from 'vitest';
import { eventTarget } from '../src/modules/imports/event-target';
import { leaksCatalogueTarget } from '../src/modules/imports/leaks-target';
import { createTargetsRepo } from '../src/modules/imports/targets.repo';
import { ADMIN, Client, createCompany, createUser, setupApp, type TestContext } from './helpers';
import { attachJobs, upload } from './imports-kit';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await setupApp();
});

describe('import write path', () => {
  it('the statistics refresh of each target runs and covers the dedup key', async () => {
    const events = eventTarget(getModule('domains'), {} as Parameters<typeof eventTarget>[1]);
    expect(events.analyze).toMatch(/company_id.*module.*fingerprint/);
    for (const t of [events, leaksCatalogueTarget(createTargetsRepo(ctx.database.db))]) await ctx.database.pool.query(t.analyze);
    const stats = await ctx.database.pool.query(
      "SELECT attname FROM pg_stats WHERE tablename = 'events' AND attname IN ('company_id', 'module', 'fingerprint', 'search')",
    );
    // An empty table has no rows to sample; what matters is that the statement is valid and analyses only these columns.
    expect(stats.rows.every((r: { attname: string }) => r.attname !== 'search')).toBe(true);
  });
});

describe('one write path for the API and the import', () => {
  it('the same change leaves the same history rows, fingerprint, search vector and data', async () => {
    await createUser(ctx, { email: ADMIN.email });
    const admin = new Client(ctx);
    await admin.login(ADMIN.email, ADMIN.password);
    await attachJobs(ctx, false); // the test runs the job itself
    const viaApi = (await createCompany(ctx, 'Через API')).id;
    const viaImport = (await createCompany(ctx, 'Через импорт')).id;
    const base = '/modules/domains/events';
    const ref = async (list: string, nth: number) => {
      const items = (await admin.get(`${base}/${list}`)).json().items as { id: number; name: string }[];
      const x = items[nth];
      if (!x) throw new Error(`no ${list}[${nth}]`);
      return x;
    };
    const [status, priority, decision] = [await ref('statuses', 1), await ref('priorities', 2), await ref('decisions', 0)];
    const tagOf = async (name: string) =>
      (await admin.post('/tags', { name, color: '#00AA00' })).json() as { id: number; name: string };
    const [kept, added] = [await tagOf('Было'), await tagOf('Добавлено')];

    const created: number[] = [];
    for (const company_id of [viaApi, viaImport]) {
      const r = await admin.post(`${base}`, {
        company_id,
        domain: 'Одна-Правка.рф',
        registrar: 'Старый регистратор',
        hosting: 'AS1',
        tags: [kept.id],
      });
      expect(r.statusCode, r.body).toBe(201);
      created.push(r.json().id as number);
    }
    const [apiId, importId] = created as [number, number];

    // The API: one PATCH.
    const patch = await admin.patch(`${base}/${apiId}`, {
      status_id: status.id,
      priority_id: priority.id,
      decision_id: decision.id,
      registrar: 'Новый регистратор',
      ip: '10.1.2.3',
      tags_add: [added.id],
      detected_at: '2026-03-01T09:30:00.000Z',
    });
    expect(patch.statusCode, patch.body).toBe(200);

    // The import: the same change as a row of a file (an existing event is found by its fingerprint).
    const csv =
      'Домен;Статус;Приоритет;Решение;Регистратор;IP-адрес;Теги;Дата обнаружения\n' +
      `одна-правка.рф;${status.name};${priority.name};${decision.name};Новый регистратор;10.1.2.3;${added.name};2026-03-01T12:30:00+03:00\n`;
    const up = await upload(ctx, admin, `${base}/imports`, { name: 'правка.csv', content: csv });
    expect(up.statusCode, up.body).toBe(201);
    const u = up.json() as ImportUploadResponse;
    const mapping = ['domain', 'status_id', 'priority_id', 'decision_id', 'registrar', 'ip', 'tags', 'detected_at'];
    const st = await admin.post(`${base}/imports/${u.id}/start`, { mapping, mode: 'update', company_id: viaImport });
    expect(st.statusCode, st.body).toBe(202);
    await ctx.app.services.transfer.imports.run(u.id);
    const done = (await admin.get(`${base}/imports/${u.id}`)).json();
    expect(done).toMatchObject({ status: 'done', created: 0, updated: 1, failed: 0 });

    const stored = async (id: number) =>
      (
        await ctx.database.pool.query(
          `SELECT title, status_id, priority_id, decision_id, source, ml_state, whitelist_kind, fingerprint, tags, data,
                  search::text AS search, detected_at
             FROM events WHERE id = $1`,
          [id],
        )
      ).rows[0];
    const history = async (id: number) =>
      (
        await ctx.database.pool.query(
          `SELECT action, field, before, after, actor_user_id, actor_key_id FROM event_history WHERE event_id = $1 ORDER BY id`,
          [id],
        )
      ).rows;

    const [a, b] = [await stored(apiId), await stored(importId)];
    expect(b).toEqual(a);
    expect(a.data).toMatchObject({ registrar: 'Новый регистратор', ip: '10.1.2.3' });
    expect(a.search).toContain('новый');
    const [ha, hb] = [await history(apiId), await history(importId)];
    expect(hb).toEqual(ha);
    expect(ha.map((h: { field: string | null }) => h.field)).toEqual([
      null,
      'status_id',
      'priority_id',
      'decision_id',
      'detected_at',
      'tags',
      'ip',
      'registrar',
    ]);
    expect(ha.at(-3)).toMatchObject({ before: [kept.id], after: [kept.id, added.id].sort((x, y) => x - y) });
  });
});
