/*
 * Syslog/CEF (#33 part 4) against a real rsyslog (Debian's package; scripts/test.mjs installs it when
 * missing): started by the test on a loopback port with its own configuration (imtcp, octet-counted
 * frames, a template writing the raw message to a file), 10 000 outbox messages sent through an
 * instance-wide output, 10 000 lines read back, each parsed (RFC 5424 header, CEF header and
 * extensions) to the same fields — values with `|`, `=`, `\`, newlines and Cyrillic included.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { generateKeyPairSync, X509Certificate } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { AsnParser } from '@peculiar/asn1-schema';
import { SubjectPublicKeyInfo } from '@peculiar/asn1-x509';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAudit } from '../src/lib/audit';
import { cefSeverity, escapeExtension, escapeHeader, formatCef, parseCef } from '../src/modules/outbox/cef';
import { createIntegrations, emitOutbox, type Integrations, type OutboxItem } from '../src/modules/outbox/index';
import { type Client, createCompany, eventually, setupApp, signedIn, type TestContext } from './helpers';
import { createTestCa, issueCertificate } from './peers/certs';

const RSYSLOGD = '/usr/sbin/rsyslogd';
const N = 10_000;

let ctx: TestContext;
let admin: Client;
let dir: string;
let port: number;
let rsyslog: ChildProcess;
let integrations: Integrations;

async function freePort(): Promise<number> {
  const s = net.createServer().listen(0, '127.0.0.1');
  await new Promise((r) => s.once('listening', r));
  const p = (s.address() as AddressInfo).port;
  await new Promise((r) => s.close(r));
  return p;
}

const canConnect = () =>
  new Promise<boolean>((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });

const out = () => path.join(dir, 'out.log');
const lines = () => (existsSync(out()) ? readFileSync(out(), 'utf8').split('\n').filter(Boolean) : []);

/** Tricky values: every character CEF escapes, in the header's neighbourhood and in extensions. */
const tricky = (i: number) => `Вход «Сбер|банк» ${i} a=b c\\d\nвторая строка\r\nтретья = | \\= конец`;

beforeAll(async () => {
  if (!existsSync(RSYSLOGD))
    throw new Error(`Нужен rsyslog (${RSYSLOGD}): apt-get install -y rsyslog (scripts/test.mjs ставит его сам)`);
  dir = mkdtempSync(path.join(tmpdir(), 'forpost-rsyslog-'));
  port = await freePort();
  writeFileSync(
    path.join(dir, 'rsyslog.conf'),
    `global(workDirectory="${dir}" maxMessageSize="64k")
module(load="imtcp")
template(name="raw" type="string" string="%rawmsg%\\n")
ruleset(name="forpost") { action(type="omfile" file="${out()}" template="raw") }
input(type="imtcp" address="127.0.0.1" port="${port}" ruleset="forpost")
`,
  );
  rsyslog = spawn(RSYSLOGD, ['-n', '-f', path.join(dir, 'rsyslog.conf'), '-i', path.join(dir, 'rsyslog.pid')], {
    stdio: 'ignore',
  });
  expect(await eventually(canConnect, Boolean, 10_000)).toBe(true);

  ctx = await setupApp({ OUTBOUND_ALLOW_PRIVATE: '1' });
  admin = await signedIn(ctx, 'siem@forpost.test', 'SUPER_ADMIN');
  integrations = createIntegrations({
    db: ctx.database.db,
    audit: createAudit({ db: ctx.database.db }),
    secret: ctx.config.secret,
    outbound: { allowPrivate: true },
    log: { warn() {} },
    version: '1.2.3',
    options: { batch: 2000 },
  });
});
afterAll(async () => {
  rsyslog?.kill('SIGTERM');
  if (rsyslog) await new Promise((r) => rsyslog.once('exit', r));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('CEF escaping', () => {
  it('escapes the header (| and \\) and extensions (=, \\, newlines) and parses back', () => {
    expect(escapeHeader('a|b\\c')).toBe('a\\|b\\\\c');
    expect(escapeExtension('a=b\\c\nd\re|f')).toBe('a\\=b\\\\c\\nd\\re|f');
    const rec = {
      version: '1|0',
      signature: 'event.created',
      name: 'Новое | событие \\ x',
      severity: 8,
      extensions: [
        ['msg', tricky(1)],
        ['cs1', ' пробелы по краям '],
        ['cs2', 'x=1 y=2'],
      ] as [string, string][],
    };
    const p = parseCef(formatCef(rec));
    expect(p).toMatchObject({ vendor: 'Forpost', product: 'Forpost', ...rec });
    expect(cefSeverity(4)).toBe(10);
    expect(cefSeverity(null)).toBe(3);
  });
});

describe('syslog/CEF to a real rsyslog', () => {
  it(`${N} events sent over TCP with octet counting: ${N} lines received, each parsed back to the same fields`, async () => {
    const A = (await createCompany(ctx, 'ООО «Ромашка | Лютик» = \\ тест')).id;
    const B = (await createCompany(ctx, 'Банк Б')).id;
    const r = await admin.post('/integrations/syslog', { company_id: null, name: 'SIEM', host: '127.0.0.1', port, tls: false });
    expect(r.statusCode, r.body).toBe(201);
    expect(r.json().target).toMatchObject({ kind: 'syslog', company_id: null, port });

    const items: OutboxItem[] = Array.from({ length: N }, (_, i) => ({
      companyId: i % 2 ? A : B,
      type: i % 3 ? 'event.created' : 'event.status_changed',
      module: 'domains',
      priorityLevel: (i % 4) + 1,
      payload: {
        event_id: i + 1,
        module: 'domains',
        title: tricky(i),
        company: i % 2 ? 'ООО «Ромашка | Лютик» = \\ тест' : 'Банк Б',
        status: { code: 'new', name: 'Новое' },
        priority: { code: 'high', name: `Приоритет ${(i % 4) + 1}` },
      },
    }));
    const t0 = performance.now();
    await ctx.database.db.transaction((tx) => emitOutbox(tx, items));
    const stats = await integrations.drain();
    expect(stats.delivered).toBe(N);
    const got = await eventually(
      async () => lines(),
      (l) => l.length >= N,
      20_000,
    );
    const ms = Math.round(performance.now() - t0);
    expect(got).toHaveLength(N);

    const seen = new Set<number>();
    for (const line of got) {
      const m = /^<(\d+)>1 (\S+) (\S+) forpost (\d+) (\S+) - (CEF:0\|.*)$/.exec(line);
      expect(m, line).not.toBeNull();
      const [, pri, at, , , msgId, cef] = m as RegExpExecArray;
      const p = parseCef(cef as string);
      const ext = Object.fromEntries(p.extensions);
      const i = Number(ext.cn1) - 1;
      const src = items[i] as OutboxItem;
      seen.add(i);
      expect(msgId).toBe(src.type);
      expect(Number.isNaN(Date.parse(at as string))).toBe(false);
      expect(Number(pri) >> 3).toBe(16);
      expect(p).toMatchObject({
        vendor: 'Forpost',
        product: 'Forpost',
        version: '1.2.3',
        signature: src.type,
        name: src.type === 'event.created' ? 'Новое событие' : 'Изменён статус события',
        severity: cefSeverity(src.priorityLevel),
      });
      expect(ext).toMatchObject({
        msg: tricky(i),
        cat: 'domains',
        cs1: src.payload.company,
        cs1Label: 'Компания',
        cs2: 'Новое',
        cs3: `Приоритет ${(i % 4) + 1}`,
        cn1Label: 'Событие',
      });
      expect(ext.externalId).toMatch(/^msg_\d+$/);
    }
    expect(seen.size).toBe(N);
    console.log(`syslog/CEF: ${N} sent, ${got.length} lines received and parsed in ${ms} ms`);
  });

  it('syslog unreachable: the deliveries wait and are sent when it is back (none lost)', async () => {
    const r = await admin.get('/integrations');
    const id = (r.json().items as { id: number; kind: string }[]).find((t) => t.kind === 'syslog')?.id as number;
    const dead = await freePort();
    expect((await admin.patch(`/integrations/${id}`, { port: dead })).statusCode).toBe(200);
    const C = (await createCompany(ctx, 'Компания В')).id;
    await ctx.database.db.transaction((tx) =>
      emitOutbox(tx, [
        {
          companyId: C,
          type: 'event.created',
          module: 'domains',
          priorityLevel: 4,
          payload: { event_id: 777_777, title: 'после сбоя' },
        },
      ]),
    );
    const first = await integrations.drain();
    expect(first).toMatchObject({ delivered: 0, retried: 1 });
    const log = (await admin.get(`/integrations/${id}/deliveries?state=pending`)).json().items[0];
    expect(log.last_error).toBeTruthy();
    // Back: the output points at rsyslog again, «send again» makes it due now.
    await admin.patch(`/integrations/${id}`, { port, enabled: true });
    expect((await admin.post(`/integrations/${id}/deliveries/${log.id}/resend`)).statusCode).toBe(204);
    expect(await integrations.drain()).toMatchObject({ delivered: 1 });
    const got = await eventually(
      async () => lines(),
      (l) => l.length >= N + 1,
      10_000,
    );
    expect(got.at(-1)).toContain('msg=после сбоя');
  });
});

describe('syslog over TLS', () => {
  it('frames arrive over TLS to a server whose certificate verifies; an untrusted certificate is refused', async () => {
    const ca = createTestCa({ cn: 'Forpost SIEM CA', o: 'Forpost' });
    const leaf = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const host = 'siem.forpost.test';
    const cert = issueCertificate(
      { ...ca, leafSpki: AsnParser.parse(leaf.publicKey.export({ type: 'spki', format: 'der' }), SubjectPublicKeyInfo) },
      { sans: [host], cn: host, notAfter: new Date('2036-01-01T00:00:00Z') },
    );
    const frames: string[] = [];
    let buf = Buffer.alloc(0);
    const server = tls.createServer(
      { cert: new X509Certificate(cert.der).toString(), key: leaf.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string },
      (s) => {
        s.on('data', (c: Buffer) => {
          buf = Buffer.concat([buf, c]);
          for (;;) {
            const sp = buf.indexOf(0x20);
            if (sp < 0) break;
            const len = Number(buf.subarray(0, sp).toString());
            if (buf.length < sp + 1 + len) break;
            frames.push(buf.subarray(sp + 1, sp + 1 + len).toString('utf8'));
            buf = buf.subarray(sp + 1 + len);
          }
        });
        s.on('error', () => {});
      },
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const tlsPort = (server.address() as AddressInfo).port;
    const outbound = { allowPrivate: true, resolve: async () => ['127.0.0.1'] };
    const make = (syslogCa?: string) =>
      createIntegrations({
        db: ctx.database.db,
        audit: createAudit({ db: ctx.database.db }),
        secret: ctx.config.secret,
        outbound,
        log: { warn() {} },
        version: '1.2.3',
        options: { syslogCa },
      });
    try {
      const D = (await createCompany(ctx, 'TLS-компания')).id;
      const r = await admin.post('/integrations/syslog', { company_id: D, name: 'SIEM TLS', host, port: tlsPort, tls: true });
      expect(r.statusCode, r.body).toBe(201);
      const id = r.json().target.id as number;
      // Only this output: the instance-wide one of the tests above is off.
      for (const t of (await admin.get('/integrations')).json().items as { id: number }[])
        if (t.id !== id) await admin.patch(`/integrations/${t.id}`, { enabled: false });
      const msg = (i: number): OutboxItem => ({
        companyId: D,
        type: 'event.created',
        module: 'domains',
        priorityLevel: 3,
        payload: { event_id: i, title: tricky(i) },
      });
      await ctx.database.db.transaction((tx) =>
        emitOutbox(
          tx,
          Array.from({ length: 100 }, (_, i) => msg(i + 1)),
        ),
      );

      // Not trusted (the system roots only): refused, nothing sent, the reason in the log.
      expect(await make().drain()).toMatchObject({ delivered: 0, retried: 100 });
      expect(frames).toHaveLength(0);
      const log = (await admin.get(`/integrations/${id}/deliveries?limit=1`)).json().items[0];
      expect(log.last_error).toMatch(/certificate|сертификат/i);

      // Trusted: delivered over TLS.
      await admin.patch(`/integrations/${id}`, { enabled: true });
      await ctx.database.db.execute(sql`UPDATE integration_deliveries SET next_at = now() WHERE target_id = ${id}`);
      expect(await make(new X509Certificate(ca.der).toString()).drain()).toMatchObject({ delivered: 100 });
      await eventually(
        async () => frames.length,
        (n) => n >= 100,
        10_000,
      );
      expect(frames).toHaveLength(100);
      const p = parseCef(/ - (CEF:0\|.*)$/.exec(frames[0] as string)?.[1] as string);
      expect(Object.fromEntries(p.extensions).msg).toBe(tricky(Number(Object.fromEntries(p.extensions).cn1)));
    } finally {
      server.close();
    }
  });
});
