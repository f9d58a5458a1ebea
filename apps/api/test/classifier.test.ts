import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ML_MAX_ATTEMPTS, ML_MSG, type MlInfo } from '@forpost/contract/classifier';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClassifierService, startClassifierWorker } from '../src/modules/classifier/index';
import { eventRow, insertEvent, refId } from './analytics.fixtures';
import { ADMIN, type Client, createCompany, createUser, setupApp, signedIn, type TestContext } from './helpers';

let ctx: TestContext;
let admin: Client;
let A: { id: number };
let B: { id: number };
/** Settings changed by the system (no user), as a seed or an operator script would. */
const system = { actor: { userId: null } };

/** A stub of the external classifier: the test decides each answer. */
let mode: 'ok' | 'garbage' | 'hang' | 'http500' | 'notjson' = 'ok';
const received: { event: { id: number; module: string }; company: { name: string } }[] = [];
let stub: Server;
let stubUrl = '';

beforeAll(async () => {
  ctx = await setupApp({ OUTBOUND_ALLOW_PRIVATE: '1' }); // the stub classifier listens on 127.0.0.1
  await createUser(ctx, { email: ADMIN.email, role: 'SUPER_ADMIN' });
  A = await createCompany(ctx, 'ПАО Сбербанк');
  B = await createCompany(ctx, 'Бета');
  await ctx.database.db.execute(sql`UPDATE companies SET contact_email = 'security@sberbank.ru' WHERE id = ${A.id}`);
  admin = await signedIn(ctx, 'sa@forpost.test', 'SUPER_ADMIN');
  stub = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push(JSON.parse(body));
      if (mode === 'hang') return; // never answers
      if (mode === 'http500') return res.writeHead(500).end('oops');
      res.writeHead(200, { 'content-type': 'application/json' });
      if (mode === 'notjson') return res.end('<html>');
      if (mode === 'garbage') return res.end(JSON.stringify({ connotation: 'Ужасно', score: 7 }));
      res.end(JSON.stringify({ connotation: 'Positive', score: 0.9, priority: 'medium', labels: ['stub'] }));
    });
  });
  await new Promise<void>((r) => stub.listen(0, '127.0.0.1', () => r()));
  stubUrl = `http://127.0.0.1:${(stub.address() as AddressInfo).port}/classify`;
});
afterAll(async () => {
  stub.closeAllConnections();
  await new Promise((r) => stub.close(r));
});

const ml = async (module: string, id: number) => {
  const r = await admin.get(`/modules/${module}/events/${id}/ml`);
  expect(r.statusCode, r.body).toBe(200);
  return r.json() as MlInfo;
};
const history = async (id: number) =>
  (
    await ctx.database.db.execute(
      sql`SELECT field, before, after, actor_user_id FROM event_history WHERE event_id = ${id} ORDER BY id`,
    )
  ).rows as {
    field: string;
    before: unknown;
    after: unknown;
    actor_user_id: number | null;
  }[];

describe('built-in classifier', () => {
  it('queues new events and marks them Done with sentiment and phishing priority', async () => {
    const media = await insertEvent(ctx, {
      companyId: A.id,
      module: 'media',
      data: { headline: 'Клиенты банка пожаловались на сбой и утечку данных', url: 'https://example.ru/1' },
    });
    const phishing = await insertEvent(ctx, { companyId: A.id, module: 'domains', data: { domain: 'sberbank-login.xyz' } });
    const own = await insertEvent(ctx, { companyId: A.id, module: 'domains', data: { domain: 'online.sberbank.ru' } });
    const keep = await insertEvent(ctx, {
      companyId: A.id,
      module: 'domains',
      priority: 'low',
      data: { domain: 'sber-bonus.online' },
    });
    const other = await insertEvent(ctx, { companyId: A.id, module: 'firms', data: {} });
    const explicit = await insertEvent(ctx, { companyId: A.id, module: 'media', mlState: 'Done', data: {} });
    for (const id of [media, phishing, own, keep, other]) expect((await eventRow(ctx, id))?.ml_state).toBe('InQueueToML');
    expect((await eventRow(ctx, explicit))?.ml_state).toBe('Done');

    const r = await ctx.app.services.classifier.runOnce();
    expect(r).toEqual({ processed: 5, done: 5, failed: 0 });

    const m = await eventRow(ctx, media);
    expect(m?.ml_state).toBe('Done');
    expect(m?.data.connotation).toBe('Negative');
    const mi = await ml('media', media);
    expect(mi).toMatchObject({ ml_state: 'Done', attempts: 1, classifier: 'builtin', last_error: null });
    expect(mi.result?.connotation).toBe('Negative');
    expect((await history(media)).find((h) => h.field === 'connotation')).toMatchObject({
      before: null,
      after: 'Negative',
      actor_user_id: null,
    });

    const p = await eventRow(ctx, phishing);
    expect(p?.priority_id).toBe(await refId(ctx, 'priority', 'domains', 'critical'));
    const pi = await ml('domains', phishing);
    expect(pi.result?.score).toBeGreaterThanOrEqual(0.8);
    expect(pi.result?.reasons?.join(' ')).toMatch(/сбербанк/i);

    expect((await ml('domains', own)).result?.reasons).toContain('Домен принадлежит компании');
    // An analyst's priority is never overridden.
    expect((await eventRow(ctx, keep))?.priority_id).toBe(await refId(ctx, 'priority', 'domains', 'low'));
    expect((await ml('firms', other)).result?.reasons).toEqual([ML_MSG.noClassifier]);
    expect((await ctx.app.services.classifier.runOnce()).processed).toBe(0);
  });

  it('the worker leaves the queue alone while an import is writing, and drains it right after', async () => {
    const ev = await insertEvent(ctx, { companyId: A.id, module: 'media', data: { headline: 'Обычная новость' } });
    const [imp] = (
      await ctx.database.db.execute(sql`
        INSERT INTO imports (module, company_id, file_name, file_size, format, headers, mapping, status, heartbeat_at)
        VALUES ('media', ${A.id}, 'x.csv', 1, 'csv', '[]', '[]', 'running', now()) RETURNING id`)
    ).rows as { id: number }[];
    const svc = ctx.app.services.classifier;
    expect(await svc.importRunning()).toBe(true);
    const worker = startClassifierWorker({ classifier: svc, log: { warn() {} }, intervalMs: 50 });
    try {
      await new Promise((r) => setTimeout(r, 400));
      expect((await eventRow(ctx, ev))?.ml_state).toBe('InQueueToML');
      // An import whose heartbeat stopped (a crashed worker) does not hold the queue.
      await ctx.database.db.execute(sql`UPDATE imports SET heartbeat_at = now() - interval '5 minutes' WHERE id = ${imp?.id}`);
      expect(await svc.importRunning()).toBe(false);
      await ctx.database.db.execute(sql`UPDATE imports SET status = 'done', heartbeat_at = now() WHERE id = ${imp?.id}`);
      for (let i = 0; i < 100 && (await eventRow(ctx, ev))?.ml_state !== 'Done'; i++) await new Promise((r) => setTimeout(r, 50));
      expect((await eventRow(ctx, ev))?.ml_state).toBe('Done');
    } finally {
      await worker.stop();
    }
  });

  it('re-queue: an analyst sends an event back; viewers and other companies cannot', async () => {
    const id = await insertEvent(ctx, { companyId: A.id, module: 'media', data: { headline: 'Нейтральная новость' } });
    await ctx.app.services.classifier.runOnce();
    expect((await ml('media', id)).ml_state).toBe('Done');
    const r = await admin.post(`/modules/media/events/${id}/ml/requeue`);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ ml_state: 'InQueueToML', attempts: 0, last_error: null });
    const h = (await history(id)).find((x) => x.field === 'ml_state');
    expect(h).toMatchObject({ before: 'Done', after: 'InQueueToML' });
    expect(h?.actor_user_id).not.toBeNull();

    const viewer = await signedIn(ctx, 'viewer@forpost.test', 'VIEWER');
    expect((await viewer.post(`/modules/media/events/${id}/ml/requeue`)).statusCode).toBe(403);
    expect((await viewer.get(`/modules/media/events/${id}/ml`)).statusCode).toBe(200);
    const outsider = await signedIn(ctx, 'b-analyst@forpost.test', 'COMPANY_USER', [{ id: B.id, role: 'COMPANY_ANALYST' }]);
    expect((await outsider.post(`/modules/media/events/${id}/ml/requeue`)).statusCode).toBe(404);
    expect((await outsider.get(`/modules/media/events/${id}/ml`)).statusCode).toBe(404);
    expect((await admin.get(`/modules/domains/events/${id}/ml`)).statusCode).toBe(404); // wrong module
    await ctx.app.services.classifier.runOnce();
    expect((await ml('media', id)).ml_state).toBe('Done');
  });
});

describe('external classifier', () => {
  let t = Date.now();
  const svc = () =>
    createClassifierService({
      db: ctx.database.db,
      configs: ctx.app.services.configs,
      log: { warn() {} },
      timeoutMs: 500,
      outbound: { allowPrivate: true },
      now: () => new Date(t),
    });

  beforeAll(async () => {
    await ctx.app.services.configs.update(system, 'classifier_url', stubUrl);
    await ctx.app.services.configs.update(system, 'classifier_modules', 'media');
  });
  afterAll(async () => {
    await ctx.app.services.configs.remove(system, 'classifier_url');
    await ctx.app.services.configs.remove(system, 'classifier_modules');
  });

  it('replaces the built-in one for the modules it names', async () => {
    mode = 'ok';
    received.length = 0;
    const media = await insertEvent(ctx, { companyId: A.id, module: 'media', data: { headline: 'Сбой и утечка' } });
    const domain = await insertEvent(ctx, { companyId: A.id, module: 'domains', data: { domain: 'example-shop.ru' } });
    await svc().runOnce();
    expect(received.map((x) => x.event.id)).toEqual([media]); // domains stay with the built-in one
    expect(received[0]?.company.name).toBe('ПАО Сбербанк');
    const mi = await ml('media', media);
    expect(mi).toMatchObject({ ml_state: 'Done', classifier: 'external' });
    expect(mi.result).toMatchObject({ connotation: 'Positive', score: 0.9, priority: 'medium' });
    expect((await eventRow(ctx, media))?.data.connotation).toBe('Positive');
    expect((await ml('domains', domain)).classifier).toBe('builtin');
  });

  it('a timeout, an HTTP error or garbage marks the event Failed with the reason, then retries with backoff', async () => {
    const cases: [typeof mode, RegExp][] = [
      ['hang', new RegExp(ML_MSG.timeout)],
      ['http500', /HTTP 500/],
      ['garbage', /неверного формата/],
      ['notjson', /неверного формата/],
    ];
    for (const [m, reason] of cases) {
      mode = m;
      const id = await insertEvent(ctx, { companyId: A.id, module: 'media', data: { headline: `случай ${m}` } });
      const r = await svc().runOnce();
      expect(r).toMatchObject({ processed: 1, failed: 1 });
      const info = await ml('media', id);
      expect(info.ml_state).toBe('Failed');
      expect(info.last_error).toMatch(reason);
      expect(info.attempts).toBe(1);
      expect(new Date(info.next_attempt_at ?? 0).getTime()).toBeGreaterThan(t);
    }
    const summary = await admin.get('/classifier/summary');
    expect(summary.json()).toMatchObject({ failed: 4, queued: 0, sent: 0, failed_final: 0 });

    // Not due yet: nothing happens. A minute later the failed ones are retried; the service is fine now.
    mode = 'ok';
    expect((await svc().runOnce()).processed).toBe(0);
    t += 61_000;
    const retry = await svc().runOnce();
    expect(retry).toMatchObject({ processed: 4, done: 4 });
    expect((await admin.get('/classifier/summary')).json()).toMatchObject({ failed: 0 });
  });

  it('gives up after the last attempt; an analyst can still re-queue', async () => {
    mode = 'http500';
    const id = await insertEvent(ctx, { companyId: A.id, module: 'media', data: { headline: 'всегда ошибка' } });
    for (let i = 1; i <= ML_MAX_ATTEMPTS; i++) {
      t += 3_600_000;
      await svc().runOnce();
      expect((await ml('media', id)).attempts).toBe(i);
    }
    const info = await ml('media', id);
    expect(info).toMatchObject({ ml_state: 'Failed', next_attempt_at: null });
    t += 3_600_000;
    expect((await svc().runOnce()).processed).toBe(0);
    expect((await admin.get('/classifier/summary')).json()).toMatchObject({ failed: 1, failed_final: 1 });

    mode = 'ok';
    const r = await admin.post('/classifier/requeue-failed', { company_id: A.id });
    expect(r.json()).toEqual({ count: 1 });
    await svc().runOnce();
    expect((await ml('media', id)).ml_state).toBe('Done');
  });

  it('the event is not overwritten when it was re-queued while in flight', async () => {
    mode = 'ok';
    const id = await insertEvent(ctx, { companyId: A.id, module: 'media', data: { headline: 'гонка' } });
    const s = svc();
    // Claim (SentToML), then an analyst re-queues before the result is recorded.
    const claimed = await ctx.database.db.execute(sql`UPDATE events SET ml_state = 'SentToML' WHERE id = ${id} RETURNING id`);
    expect(claimed.rows).toHaveLength(1);
    await admin.post(`/modules/media/events/${id}/ml/requeue`);
    expect((await eventRow(ctx, id))?.ml_state).toBe('InQueueToML');
    await s.runOnce();
    expect((await eventRow(ctx, id))?.ml_state).toBe('Done');
  });
});
