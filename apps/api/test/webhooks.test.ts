/*
 * Webhooks (#33 part 3) against a local HTTP receiver that verifies with the unmodified
 * `standardwebhooks` package: 10 000 deliveries from a bulk-written outbox verify; the receiver
 * down (503) for a while then up loses none and accepts no webhook-id twice; a captured request
 * replayed later is rejected by the verifier (old timestamp); during a rotation both secrets verify;
 * 410 turns the endpoint off; a redirect is not followed; the SSRF guard refuses loopback; event
 * changes reach the outbox in their own transaction; the delivery log and «send again».
 */
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { rowsOf } from '../src/db/sql';
import { createAudit } from '../src/lib/audit';
import { GUARDED } from '../src/lib/outbound';
import { createEventsRepo } from '../src/modules/events/index';
import { createIntegrations, emitOutbox, type Integrations, type OutboxItem } from '../src/modules/outbox/index';
import { Client, createCompany, setupApp, signedIn, type TestContext } from './helpers';
import { attachJobs, upload } from './imports-kit';

interface Received {
  path: string;
  id: string;
  body: string;
  headers: Record<string, string>;
}

/** A receiver: `mode` says what it answers; every request is kept; `verify` with the current secrets. */
function receiver() {
  const got: Received[] = [];
  const accepted = new Map<string, number>();
  const state = {
    mode: 'ok' as 'ok' | 'down' | 'gone' | 'redirect',
    downs: 0,
    downForMs: 0,
    badSig: 0,
  };
  let secrets: string[] = [];
  let wake: (() => void) | null = null;
  let want = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = {
        'webhook-id': String(req.headers['webhook-id']),
        'webhook-timestamp': String(req.headers['webhook-timestamp']),
        'webhook-signature': String(req.headers['webhook-signature']),
      };
      got.push({ path: req.url ?? '', id: headers['webhook-id'], body, headers });
      if (state.mode === 'down') {
        state.downs++;
        // Down for `downForMs` from the first refused request (the outage the scenario describes).
        if (state.downs === 1)
          setTimeout(() => {
            state.mode = 'ok';
          }, state.downForMs);
        res.writeHead(503, { 'retry-after': '0' }).end('busy');
        return;
      }
      if (state.mode === 'gone') return void res.writeHead(410).end('gone');
      if (state.mode === 'redirect') return void res.writeHead(302, { location: `http://127.0.0.1:${port()}/elsewhere` }).end();
      const ok = secrets.some((s) => {
        try {
          new Webhook(s).verify(body, headers);
          return true;
        } catch {
          return false;
        }
      });
      if (!ok) {
        state.badSig++;
        return void res.writeHead(400).end('bad signature');
      }
      accepted.set(headers['webhook-id'], (accepted.get(headers['webhook-id']) ?? 0) + 1);
      res.writeHead(204).end();
      if (wake && accepted.size >= want) {
        wake();
        wake = null;
      }
    });
  });
  const port = () => (server.address() as AddressInfo).port;
  return {
    server,
    got,
    accepted,
    state,
    port,
    url: (p = '/hook') => `http://127.0.0.1:${port()}${p}`,
    setSecrets(s: string[]) {
      secrets = s;
    },
    /** Resolves when `n` distinct ids were accepted. */
    until(n: number) {
      want = n;
      return accepted.size >= n ? Promise.resolve() : new Promise<void>((r) => (wake = r));
    },
  };
}

let ctx: TestContext;
let admin: Client;
let A: number;
let rx: ReturnType<typeof receiver>;
let integrations: Integrations;
/** A short retry schedule (the real one is the spec's: 5 s, 5 min, …). */
const SCHEDULE = [0, 50, 100, 200, 400, 800, 1600];

const items = (n: number, companyId: number, tag: string): OutboxItem[] =>
  Array.from({ length: n }, (_, i) => ({
    companyId,
    type: 'event.created',
    module: 'domains',
    priorityLevel: (i % 4) + 1,
    payload: { event_id: i, title: `${tag} ${i}: «Сбербанк» | a=b \\ c\nd` },
  }));

async function emit(list: OutboxItem[]) {
  return ctx.database.db.transaction((tx) => emitOutbox(tx, list));
}

async function createEndpoint(url: string, extra: Record<string, unknown> = {}) {
  const r = await admin.post('/integrations/webhooks', { company_id: A, name: 'SOAR', url, ...extra });
  expect(r.statusCode, r.body).toBe(201);
  return r.json() as { target: { id: number }; secret: string };
}

const deliveryStates = (targetId: number) =>
  rowsOf<{ state: string; n: number }>(
    ctx.database.db,
    sql`SELECT state, count(*)::int AS n FROM integration_deliveries WHERE target_id = ${targetId} GROUP BY state`,
  ).then((r) => Object.fromEntries(r.map((x) => [x.state, x.n])) as Record<string, number>);

beforeAll(async () => {
  ctx = await setupApp({ OUTBOUND_ALLOW_PRIVATE: '1' });
  admin = await signedIn(ctx, 'hooks@forpost.test', 'SUPER_ADMIN');
  A = (await createCompany(ctx, 'Веб-хуки А')).id;
  await attachJobs(ctx, false); // the import test runs its job itself
  rx = receiver();
  rx.server.listen(0, '127.0.0.1');
  await once(rx.server, 'listening');
  integrations = createIntegrations({
    db: ctx.database.db,
    audit: createAudit({ db: ctx.database.db }),
    secret: ctx.config.secret,
    outbound: { allowPrivate: true },
    log: { warn() {} },
    version: 'test',
    options: { scheduleMs: SCHEDULE, concurrency: 32 },
  });
});
afterAll(async () => {
  await integrations.stop();
  rx.server.closeAllConnections();
  rx.server.close();
});

describe('webhooks: Standard Webhooks delivery', () => {
  let endpoint: { target: { id: number }; secret: string };

  it('an endpoint is created with a whsec_ secret shown once', async () => {
    endpoint = await createEndpoint(rx.url());
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    rx.setSecrets([endpoint.secret]);
    const list = (await admin.get(`/integrations?company_id=${A}`)).json().items as Record<string, unknown>[];
    expect(list).toHaveLength(1);
    expect(JSON.stringify(list)).not.toContain('whsec_');
  });

  it('10 000 deliveries from a bulk-written outbox all verify with the standardwebhooks package', async () => {
    const t0 = performance.now();
    expect(await emit(items(10_000, A, 'bulk'))).toBe(10_000);
    const emitted = performance.now() - t0;
    const stats = await integrations.drain();
    const ms = performance.now() - t0;
    expect(stats.delivered).toBe(10_000);
    expect(rx.state.badSig).toBe(0);
    expect(rx.accepted.size).toBe(10_000);
    expect([...rx.accepted.values()].every((n) => n === 1)).toBe(true);
    expect(await deliveryStates(endpoint.target.id)).toEqual({ delivered: 10_000 });
    console.log(`webhooks: 10 000 emitted in ${Math.round(emitted)} ms, delivered and verified in ${Math.round(ms)} ms`);
  });

  it('the receiver down (503) for a while, then up: 0 lost, 0 duplicates by webhook-id, the target backs off', async () => {
    const before = new Set(rx.accepted.keys());
    const requestsBefore = rx.got.length;
    rx.state.mode = 'down';
    rx.state.downs = 0;
    rx.state.downForMs = 600;
    await emit(items(500, A, 'outage'));
    const done = rx.until(before.size + 500);
    integrations.attach({ work: true, intervalMs: 20 });
    await done;
    await integrations.stop();
    const fresh = [...rx.accepted.entries()].filter(([id]) => !before.has(id));
    expect(fresh).toHaveLength(500);
    expect(fresh.every(([, n]) => n === 1)).toBe(true);
    // Backing off: the outage cost one wave of requests per step of the schedule (at most the
    // concurrency each), not every pending delivery at every step (≥ 500 × the steps within 600 ms).
    expect(rx.state.downs).toBeGreaterThan(0);
    expect(rx.state.downs).toBeLessThan(32 * 6);
    expect(rx.got.length - requestsBefore).toBe(500 + rx.state.downs);
    expect(await deliveryStates(endpoint.target.id)).toEqual({ delivered: 10_500 });
  });

  it('a captured request replayed later is rejected by the verifier (old timestamp)', () => {
    const captured = rx.got.at(-1) as Received;
    const wh = new Webhook(endpoint.secret);
    expect(() => wh.verify(captured.body, captured.headers)).not.toThrow();
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 10 * 60_000);
      expect(() => wh.verify(captured.body, captured.headers)).toThrow(/too old/i);
    } finally {
      vi.useRealTimers();
    }
  });

  it('rotation: during the grace period both secrets verify; after it only the new one', async () => {
    const r = await admin.post(`/integrations/${endpoint.target.id}/rotate`, { grace_hours: 24 });
    expect(r.statusCode, r.body).toBe(200);
    const fresh = r.json().secret as string;
    expect(fresh).not.toBe(endpoint.secret);
    expect(r.json().target.previous_until).not.toBeNull();
    rx.setSecrets([fresh]);
    await emit(items(1, A, 'rotation'));
    await integrations.drain();
    const last = rx.got.at(-1) as Received;
    expect(last.headers['webhook-signature']?.split(' ')).toHaveLength(2);
    expect(() => new Webhook(endpoint.secret).verify(last.body, last.headers)).not.toThrow();
    expect(() => new Webhook(fresh).verify(last.body, last.headers)).not.toThrow();

    const r2 = await admin.post(`/integrations/${endpoint.target.id}/rotate`, { grace_hours: 0 });
    const newest = r2.json().secret as string;
    rx.setSecrets([newest]);
    await emit(items(1, A, 'rotation2'));
    await integrations.drain();
    const after = rx.got.at(-1) as Received;
    expect(after.headers['webhook-signature']?.split(' ')).toHaveLength(1);
    expect(() => new Webhook(newest).verify(after.body, after.headers)).not.toThrow();
    expect(() => new Webhook(fresh).verify(after.body, after.headers)).toThrow();
    endpoint.secret = newest;
  });

  it('the delivery log shows request, response code and timing; «send again» delivers the same webhook-id once more', async () => {
    const log = await admin.get(`/integrations/${endpoint.target.id}/deliveries?limit=5`);
    expect(log.statusCode, log.body).toBe(200);
    const d = log.json().items[0];
    expect(d).toMatchObject({ state: 'delivered', last_status: 204, type: 'event.created', type_label: 'Новое событие' });
    expect(d.request).toContain(`webhook-id: ${d.message_id}`);
    expect(typeof d.last_ms).toBe('number');
    const n = rx.accepted.get(d.message_id) as number;
    expect((await admin.post(`/integrations/${endpoint.target.id}/deliveries/${d.id}/resend`)).statusCode).toBe(204);
    await integrations.drain();
    expect(rx.accepted.get(d.message_id)).toBe(n + 1);
  });

  it('event changes reach the outbox in their transaction: created, status changed', async () => {
    const r = await admin.post('/modules/domains/events', { company_id: A, domain: 'sberbank-vhod.ru' });
    expect(r.statusCode, r.body).toBe(201);
    const ev = r.json() as { id: number; status_id: number };
    const other = (
      await rowsOf<{ id: number }>(
        ctx.database.db,
        sql`SELECT id FROM event_statuses WHERE module = 'domains' AND id <> ${ev.status_id} LIMIT 1`,
      )
    )[0] as { id: number };
    expect((await admin.patch(`/modules/domains/events/${ev.id}`, { status_id: other.id })).statusCode).toBe(200);
    const start = rx.got.length;
    await integrations.drain();
    const bodies = rx.got.slice(start).map((g) => JSON.parse(g.body) as { type: string; data: Record<string, unknown> });
    expect(bodies.map((b) => b.type)).toEqual(['event.created', 'event.status_changed']);
    expect(bodies[0]?.data).toMatchObject({ event_id: ev.id, company_id: A, company: 'Веб-хуки А', module: 'domains' });
    expect(bodies[1]?.data.change).toMatchObject({ field: 'status_id', before: ev.status_id, after: other.id });
    // A refused change writes nothing (the message is in the change's transaction).
    const n = (await rowsOf<{ n: number }>(ctx.database.db, sql`SELECT count(*)::int AS n FROM outbox_messages`))[0]?.n;
    expect((await admin.patch(`/modules/domains/events/${ev.id}`, { status_id: 987654 })).statusCode).toBeGreaterThanOrEqual(400);
    expect((await rowsOf<{ n: number }>(ctx.database.db, sql`SELECT count(*)::int AS n FROM outbox_messages`))[0]?.n).toBe(n);
  });

  it('an SLA breach is a message of its own (the breach pass writes it in its transaction)', async () => {
    const r = await admin.post('/modules/domains/events', { company_id: A, domain: 'sla-breach-vhod.ru' });
    const id = (r.json() as { id: number }).id;
    await ctx.database.db.execute(
      sql`UPDATE events SET created_at = now() - interval '60 days', sla_due_at = now() - interval '1 hour' WHERE id = ${id}`,
    );
    expect(await ctx.app.services.sla.notifyBreaches()).toBeGreaterThanOrEqual(1);
    const start = rx.got.length;
    await integrations.drain();
    const types = rx.got
      .slice(start)
      .map((g) => JSON.parse(g.body) as { type: string; data: { event_id: number; text?: string } });
    const breach = types.find((b) => b.type === 'event.sla_breached' && b.data.event_id === id);
    expect(breach?.data.text).toBeTruthy();
  });

  it('an import: its events and «Импорт завершён» (written when the import is marked done)', async () => {
    const base = '/modules/domains/events';
    const up = await upload(ctx, admin, `${base}/imports`, {
      name: 'домены.csv',
      content: 'Домен\nimport-one-vhod.ru\nimport-two-vhod.ru\n',
    });
    expect(up.statusCode, up.body).toBe(201);
    const id = (up.json() as { id: number }).id;
    const st = await admin.post(`${base}/imports/${id}/start`, { mapping: ['domain'], mode: 'skip', company_id: A });
    expect(st.statusCode, st.body).toBe(202);
    await ctx.app.services.transfer.imports.run(id);
    const start = rx.got.length;
    await integrations.drain();
    const got = rx.got.slice(start).map((g) => JSON.parse(g.body) as { type: string; data: Record<string, unknown> });
    expect(got.filter((b) => b.type === 'event.created')).toHaveLength(2);
    expect(got.find((b) => b.type === 'import.finished')?.data).toMatchObject({
      import_id: id,
      company_id: A,
      created: 2,
      module: 'domains',
    });
  });

  it('a watch transition, as the watch worker writes it into the event history, is a message', async () => {
    const ev = (await admin.post('/modules/domains/events', { company_id: A, domain: 'watch-mx-vhod.ru' })).json() as {
      id: number;
    };
    const events = createEventsRepo(ctx.database.db);
    await ctx.database.db.transaction((tx) =>
      events.insertHistory(
        [
          {
            eventId: ev.id,
            actorUserId: null,
            actorKeyId: null,
            action: 'action',
            field: 'watch',
            after: { kind: 'mx_appeared', comment: 'Появилась почта (MX): mx.evil.ru' },
          },
        ],
        tx,
      ),
    );
    const start = rx.got.length;
    await integrations.drain();
    const got = rx.got.slice(start).map((g) => JSON.parse(g.body) as { type: string; data: Record<string, unknown> });
    expect(got.find((b) => b.type === 'watch.transition')?.data).toMatchObject({
      event_id: ev.id,
      change: { field: 'watch', kind: 'mx_appeared', comment: 'Появилась почта (MX): mx.evil.ru' },
    });
  });

  it('a takedown step, as the takedown service writes it into the event history, is a message', async () => {
    const ev = (await admin.post('/modules/domains/events', { company_id: A, domain: 'takedown-step-vhod.ru' })).json() as {
      id: number;
    };
    const events = createEventsRepo(ctx.database.db);
    await ctx.database.db.transaction((tx) =>
      events.insertHistory(
        [
          {
            eventId: ev.id,
            actorUserId: null,
            actorKeyId: null,
            action: 'action',
            field: 'takedown',
            after: { request_id: 41, state: 'sent', comment: 'FP-TD-000041: отправлен' },
          },
        ],
        tx,
      ),
    );
    const start = rx.got.length;
    await integrations.drain();
    const got = rx.got.slice(start).map((g) => JSON.parse(g.body) as { type: string; data: Record<string, unknown> });
    expect(got.find((b) => b.type === 'takedown.state_changed')?.data).toMatchObject({
      event_id: ev.id,
      change: { field: 'takedown', request_id: 41, state: 'sent', comment: 'FP-TD-000041: отправлен' },
    });
  });

  it('410 Gone turns the endpoint off; a 302 is not followed', async () => {
    await admin.patch(`/integrations/${endpoint.target.id}`, { enabled: false });
    const gone = await createEndpoint(rx.url('/gone'));
    rx.setSecrets([gone.secret]);
    rx.state.mode = 'gone';
    await emit(items(3, A, 'gone'));
    await integrations.drain();
    const t = (await admin.get(`/integrations/${gone.target.id}`)).json();
    expect(t).toMatchObject({ enabled: false, disabled_reason: 'Получатель ответил 410 Gone: доставка выключена' });
    // Disabled targets get nothing new.
    await emit(items(2, A, 'after-gone'));
    expect((await deliveryStates(gone.target.id)).pending ?? 0).toBe(0);
    await admin.patch(`/integrations/${gone.target.id}`, { enabled: false });

    const moved = await createEndpoint(rx.url('/moved'));
    rx.state.mode = 'redirect';
    const requests = rx.got.length;
    await emit(items(1, A, 'moved'));
    await integrations.drain();
    const sent = rx.got.slice(requests);
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.every((g) => g.path === '/moved' && g.body.includes('moved'))).toBe(true);
    const log = (await admin.get(`/integrations/${moved.target.id}/deliveries`)).json().items[0];
    expect(log).toMatchObject({ state: 'pending', last_status: 302 });
    await admin.patch(`/integrations/${moved.target.id}`, { enabled: false });
    rx.state.mode = 'ok';
  });

  it('old sent messages are pruned; a message still pending stays', async () => {
    const [{ n: before } = { n: 0 }] = await rowsOf<{ n: number }>(
      ctx.database.db,
      sql`SELECT count(*)::int AS n FROM outbox_messages`,
    );
    const [pending] = await rowsOf<{ message_id: number }>(
      ctx.database.db,
      sql`SELECT message_id::int FROM integration_deliveries WHERE state = 'pending' LIMIT 1`,
    );
    expect(pending).toBeDefined();
    await ctx.database.db.execute(sql`UPDATE outbox_messages SET created_at = now() - interval '40 days'`);
    const pruned = await integrations.repo.prune(30, 100_000);
    expect(pruned).toBeGreaterThan(10_000);
    const left = await rowsOf<{ id: number }>(ctx.database.db, sql`SELECT id::int FROM outbox_messages`);
    expect(left.map((x) => x.id)).toContain(pending?.message_id);
    expect(left.length).toBe(before - pruned);
  });

  it('API keys are treated like users: a write key of every module manages its company’s endpoints; read or module-limited keys do not', async () => {
    const key = async (roles: { module: string; access: 'read' | 'write' }[]) =>
      `Bearer ${((await admin.post('/apikeys', { name: `k${roles.length}${roles[0]?.module}`, company_id: A, roles })).json() as { secret: string }).secret}`;
    const anon = new Client(ctx);
    const full = { authorization: await key([{ module: '*', access: 'write' }]) };
    const list = await anon.get('/integrations', full);
    expect(list.statusCode, list.body).toBe(200);
    expect((list.json().items as { company_id: number | null }[]).every((t) => t.company_id === A)).toBe(true);
    const made = await anon.post(
      '/integrations/webhooks',
      { company_id: A, name: 'Через ключ', url: 'https://hooks.example.com/k' },
      full,
    );
    expect(made.statusCode, made.body).toBe(201);
    // The instance's own outputs are staff's: a key is refused.
    expect(
      (await anon.post('/integrations/syslog', { company_id: null, name: 'x', host: 'siem.example.com', port: 514 }, full))
        .statusCode,
    ).toBe(403);
    const read = { authorization: await key([{ module: '*', access: 'read' }]) };
    expect((await anon.get('/integrations', read)).statusCode).toBe(403);
    const limited = { authorization: await key([{ module: 'domains', access: 'write' }]) };
    expect((await anon.get('/integrations', limited)).statusCode).toBe(403);
    await admin.del(`/integrations/${made.json().target.id}`);
  });

  it('the SSRF guard: a loopback URL is refused when saved and when connecting', async () => {
    const guarded = createIntegrations({
      db: ctx.database.db,
      audit: createAudit({ db: ctx.database.db }),
      secret: ctx.config.secret,
      outbound: GUARDED,
      log: { warn() {} },
      version: 'test',
      options: { scheduleMs: SCHEDULE },
    });
    const e = await createEndpoint(rx.url('/guarded'));
    const requests = rx.got.length;
    await emit(items(1, A, 'guarded'));
    await guarded.drain();
    expect(rx.got.length).toBe(requests);
    const log = (await admin.get(`/integrations/${e.target.id}/deliveries`)).json().items[0];
    expect(log.last_error).toContain('во внутренней сети');
    await admin.del(`/integrations/${e.target.id}`);
  });
});
