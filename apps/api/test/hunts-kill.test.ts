/*
 * A hunt survives `kill -9` of its worker PROCESS (#34): a real ROLE=worker process on this file's database
 * and bucket runs a multi-range hunt; once one of its ranges has committed a batch and is still running, the
 * process gets SIGKILL. A second worker process takes the range over (jobs-kit's stalled-record sweep: no
 * heartbeat, nobody holds the range's job lock) and finishes the hunt. Then every expected login is an
 * «Аккаунты» event exactly once, every result is there once, the hunt's counters equal a clean run's over the
 * same dump, and no password of the dump is in any table or in the workers' logs.
 *
 * Before it (no worker process up yet), two runs in this process finish the last two ranges of a hunt at the
 * same instant (held at gates in the database): the hunt ends «done» exactly once, without a deadlock.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SWEEP_SECONDS } from '../src/db/jobs-kit';
import { startJobs } from '../src/jobs';
import { createDocStore } from '../src/lib/docstore';
import { ADMIN, createCompany, createUser, setupApp, type TestContext } from './helpers';
import { startS3, type TestS3 } from './s3-server';

const root = path.resolve(import.meta.dirname, '../../..');
/**
 * The kill test's bound, worker start-ups, takeover and the clean run included: ~40 s alone (the takeover waits
 * for jobs-kit's 15 s stall), but two worker start-ups on 2 cores busy with other test files take much longer —
 * finishing is a correctness bound; the takeover's own bound is asserted below.
 */
const LIMIT_MS = 150_000;
/** jobs-kit's TAKEOVER_SECONDS: a running range without heartbeat for this long (and no lock) is taken over. */
const TAKEOVER_SECONDS = 15;

// ---------------------------------------------------------------------------
// The dump: three ranges, each with its own matches (plus logins seen in two ranges), filler and junk
// ---------------------------------------------------------------------------

const RANGES = 3;
/** Distinct matching logins per range (new «Аккаунты» events: each range commits several batches). */
const PER_RANGE = 1200;
/** Filler lines per range nobody protects (the range also takes time to read, not only to write). */
const FILLER = 40_000;
const DOMAINS = ['kill-alpha.ru', 'kill-beta.com', 'kill-gamma.org'] as const;
/** Passwords of the dump: none may be stored anywhere nor logged. */
const PASSWORDS = ['K1ll-Secret-Alpha!', 'Vpn#Kill-Beta-77', 'Gamma_Kill_P4ss', 'Shared-Kill-Pw-2026'];

interface Dump {
  text: string;
  lines: number;
  unrecognized: number;
  /** company index → lower-case logins expected as its accounts */
  logins: Set<string>[];
  corporate: Set<string>[];
}

function makeDump(): Dump {
  const logins = DOMAINS.map(() => new Set<string>());
  const corporate = DOMAINS.map(() => new Set<string>());
  const out: string[] = [];
  let unrecognized = 0;
  for (let r = 0; r < RANGES; r++) {
    const part: string[] = [];
    for (let i = 0; i < PER_RANGE; i++) {
      const c = (r + i) % DOMAINS.length;
      const login = `user${r}x${i}@${i % 5 === 0 ? 'mail.' : ''}${DOMAINS[c]}`;
      logins[c]!.add(login);
      if (i % 50 === 7) {
        // a personal login on the company's VPN: a corporate URL match of that company
        const personal = `vpn.${r}.${i}@gmail.com`;
        part.push(`https://vpn.${DOMAINS[c]}:443/login:${personal}:${PASSWORDS[1]}`);
        logins[c]!.add(personal);
        corporate[c]!.add(personal);
      }
      part.push(`${i % 2 ? login.toUpperCase() : login}:${PASSWORDS[c === 0 ? 0 : c === 1 ? 1 : 2]}`);
      // the same login again in the next part of the file, another range (one result, one event)
      if (i % 100 === 3 && r > 0)
        part.push(`user${r - 1}x${i}@${i % 5 === 0 ? 'mail.' : ''}${DOMAINS[(r - 1 + i) % 3]}|${PASSWORDS[3]}`);
    }
    const filler = Array.from({ length: FILLER }, (_, i) => `someone${r}_${i}@mail.example.net:pw${i}`);
    // matches interleaved with filler: each range reads and writes all along
    const step = Math.ceil(filler.length / part.length);
    for (let i = 0; i < part.length; i++) out.push(part[i]!, ...filler.slice(i * step, (i + 1) * step));
    out.push(...filler.slice(part.length * step));
    out.push('@@@ not a credential ###');
    unrecognized++;
  }
  return { text: `${out.join('\n')}\n`, lines: out.length, unrecognized, logins, corporate };
}

// ---------------------------------------------------------------------------
// Worker processes
// ---------------------------------------------------------------------------

interface Proc {
  name: string;
  child: ChildProcess;
  out: string;
  exited: boolean;
  exit: Promise<number | null>;
}
const procs: Proc[] = [];
const tempDirs: string[] = [];

/** `npm start` with ROLE=worker on another machine: its own DATA_DIR; this file's database, bucket and SECRET. */
function startWorker(name: string): Proc {
  const dataDir = mkdtempSync(path.join(tmpdir(), `forpost-${name}-`));
  tempDirs.push(dataDir);
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      ROLE: 'worker',
      DATA_DIR: dataDir,
      DATABASE_URL: ctx.url,
      SECRET: ctx.config.secret,
      PUBLIC_URL: ctx.config.publicUrl,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'info',
      CONSOLE_DIST: path.join(dataDir, 'no-console'),
      MAX_EVENT_LOOP_DELAY_MS: '0',
      DB_POOL_MAX_WAITING: '0',
      ...s3.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const p: Proc = {
    name,
    child,
    out: '',
    exited: false,
    exit: new Promise((r) =>
      child.once('exit', (code) => {
        p.exited = true;
        r(code);
      }),
    ),
  };
  const keep = (d: Buffer) => {
    p.out += String(d);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  procs.push(p);
  return p;
}

/** Polls `probe` until it returns something other than undefined (an event to await, not a sleep). */
async function until<T>(what: string, probe: () => Promise<T | undefined>, ms: number, every = 25): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timeout (${ms} ms): ${what}`);
    await new Promise((r) => setTimeout(r, every));
  }
}

const started = (p: Proc, ms: number) =>
  until(
    `${p.name} starts`,
    async () => {
      if (p.out.includes('Форпост: обработчик задач запущен')) return true;
      if (p.exited) throw new Error(`${p.name} exited:\n${p.out.slice(-3000)}`);
      return undefined;
    },
    ms,
  );

// ---------------------------------------------------------------------------
// This file's database, bucket and the API side (creates hunts, sends their jobs; runs none)
// ---------------------------------------------------------------------------

let ctx: TestContext;
let s3: TestS3;
let boss: PgBoss;
let leakKilled: number;
let leakClean: number;
const companies: number[] = [];
const dump = makeDump();

const sql = async <T>(text: string, values: unknown[] = []) => (await ctx.database.pool.query(text, values)).rows as T[];
const hunts = () => ctx.app.services.hunts.service;

beforeAll(async () => {
  s3 = await startS3();
  ctx = await setupApp(s3.env);
  await createUser(ctx, { email: ADMIN.email });
  for (const [i, d] of DOMAINS.entries()) {
    const c = (await createCompany(ctx, `Компания ${i + 1}`)).id;
    companies.push(c);
    await sql(`INSERT INTO discovery_assets (company_id, kind, value, unicode) VALUES ($1, 'domain', $2, $2)`, [c, d]);
  }
  [leakKilled, leakClean] = (
    await sql<{ id: number }>(`INSERT INTO leaks (name) VALUES ('Комбо kill -9'), ('Комбо чистый прогон') RETURNING id`)
  ).map((r) => r.id) as [number, number];
  // the API's side of the queue: `create` sends the range jobs, no worker here
  boss = await startJobs(ctx.url, { warn() {} }, false);
  await ctx.app.services.hunts.attach(boss, { work: false });
}, 60_000);

afterAll(async () => {
  for (const p of procs) if (!p.exited) p.child.kill('SIGKILL');
  await Promise.all(procs.map((p) => p.exit));
  await boss?.stop({ graceful: false, wait: true, timeout: 5000 }).catch(() => undefined);
  await s3?.close().catch(() => undefined);
  for (const d of tempDirs) rmSync(d, { recursive: true, force: true });
});

async function put(content: string): Promise<string> {
  return (await createDocStore(ctx.config).put(Readable.from([Buffer.from(content)]))).key;
}

interface Counters {
  status: string;
  bytes: number;
  lines: number;
  unrecognized: number;
  ranges: number;
  ranges_done: number;
  companies: { company_id: number; found: number; corporate: number }[];
}
async function counters(id: number): Promise<Counters> {
  const h = await hunts().item(id);
  return {
    status: h.status,
    bytes: h.progress.bytes,
    lines: h.progress.lines,
    unrecognized: h.progress.unrecognized,
    ranges: h.progress.ranges,
    ranges_done: h.progress.ranges_done,
    companies: h.companies.map((c) => ({ company_id: c.company_id, found: c.found, corporate: c.corporate_urls })),
  };
}
const finished = (id: number, ms: number) =>
  until(
    `hunt ${id} finishes`,
    async () => {
      const h = await hunts().hunt(id);
      return h && (h.status === 'done' || h.status === 'failed') ? h : undefined;
    },
    ms,
    100,
  );

describe('two workers finish the last two ranges of a hunt at the same instant', () => {
  it('the hunt ends «done» once: not stuck in «running», no deadlock between the two finishers', async () => {
    const [c] = await sql<{ id: number }>(`INSERT INTO companies (name) VALUES ('Гонка') RETURNING id`);
    await sql(
      `INSERT INTO discovery_assets (company_id, kind, value, unicode) VALUES ($1, 'domain', 'race-kill.net', 'race-kill.net')`,
      [c!.id],
    );
    const half = (tag: string) =>
      Array.from({ length: 40_000 }, (_, i) =>
        i % 1000 === 0 ? `${tag}${i}@race-kill.net:${PASSWORDS[0]}` : `f${tag}${i}@mail.example.net:x`,
      );
    const text = `${[...half('a'), ...half('b')].join('\n')}\n`;
    const size = Buffer.byteLength(text);
    const { id, rangeIds } = await hunts().create({
      leakId: leakKilled,
      docKey: await put(text),
      fileName: 'race.txt',
      createdBy: null,
      rangeBytes: Math.ceil(size / 2),
    });
    expect(rangeIds).toHaveLength(2);
    // run here, by two concurrent runs (no worker process is up yet): their queued jobs go
    await sql(`DELETE FROM pgboss.job WHERE name = 'hunt-range' AND data->>'id' = ANY($1::text[])`, [rangeIds.map(String)]);
    // Two gates this test holds (statement triggers taking a shared advisory lock) make the two ranges' last
    // transactions overlap as two workers finishing at the same instant do: the first holds each after it has
    // marked its range done (its results written), the second after it has run the hunt's finishing check.
    const [MARKED, CHECKED] = [0x7e57, 0x7e58];
    await sql(`CREATE FUNCTION hunt_gate_marked() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF EXISTS (SELECT 1 FROM n WHERE status = 'done') THEN PERFORM pg_advisory_xact_lock_shared(${MARKED}); END IF;
        RETURN NULL;
      END $$`);
    await sql(`CREATE TRIGGER hunt_gate_marked AFTER UPDATE ON hunt_ranges REFERENCING NEW TABLE AS n
      FOR EACH STATEMENT EXECUTE FUNCTION hunt_gate_marked()`);
    await sql(`CREATE FUNCTION hunt_gate_checked() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF current_query() ILIKE '%status = ''done''%NOT EXISTS%' THEN PERFORM pg_advisory_xact_lock_shared(${CHECKED}); END IF;
        RETURN NULL;
      END $$`);
    await sql('CREATE TRIGGER hunt_gate_checked AFTER UPDATE ON hunts FOR EACH STATEMENT EXECUTE FUNCTION hunt_gate_checked()');
    const gate = await ctx.database.pool.connect();
    try {
      await gate.query('SELECT pg_advisory_lock($1), pg_advisory_lock($2)', [MARKED, CHECKED]);
      let failed: unknown;
      const runs = Promise.all(rangeIds.map((r) => hunts().runRange(r)));
      runs.catch((e) => {
        failed = e;
      });
      const waiting = async (q: string) => {
        if (failed) throw failed;
        const [w] = await sql<{ n: number }>(q);
        return w && w.n >= 2 ? true : undefined;
      };
      await until(
        'both ranges marked done',
        () =>
          waiting(`SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND objid = ${MARKED} AND NOT granted
                      AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`),
        20_000,
      );
      await gate.query('SELECT pg_advisory_unlock($1)', [MARKED]);
      // both waiting again: at the second gate, or one for the other's lock of the hunt
      await until(
        'both ranges past their finishing check (or waiting for the other)',
        () =>
          waiting(
            `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
          ),
        20_000,
      );
      await gate.query('SELECT pg_advisory_unlock($1)', [CHECKED]);
      expect(await runs).toEqual([true, true]);
    } finally {
      await gate.query('SELECT pg_advisory_unlock_all()');
      gate.release();
      await sql('DROP TRIGGER hunt_gate_marked ON hunt_ranges');
      await sql('DROP TRIGGER hunt_gate_checked ON hunts');
      await sql('DROP FUNCTION hunt_gate_marked(), hunt_gate_checked()');
    }
    const ranges = await sql<{ status: string }>(`SELECT status FROM hunt_ranges WHERE hunt_id = $1`, [id]);
    expect(ranges.map((r) => r.status)).toEqual(['done', 'done']);
    expect((await hunts().hunt(id))?.status).toBe('done');
    expect((await hunts().item(id)).companies).toEqual([expect.objectContaining({ company_id: c!.id, found: 80, new: 80 })]);
  }, 30_000);
});

describe('kill -9 of the worker process mid-range', () => {
  it(
    'a second worker process takes the range over: every login once, the counters of a clean run, no password stored',
    async () => {
      const t0 = Date.now();
      /** What is left of the test's 60 s (each wait below fails with its own message, not the test's timeout). */
      const left = () => Math.max(1000, t0 + LIMIT_MS - 2000 - Date.now());
      const key = await put(dump.text);
      const size = Buffer.byteLength(dump.text);
      const worker1 = startWorker('hunt-worker-1');
      await started(worker1, left());
      const tUp = Date.now();
      const { id, rangeIds } = await hunts().create({
        leakId: leakKilled,
        docKey: key,
        fileName: 'kill.txt',
        createdBy: null,
        rangeBytes: Math.ceil(size / RANGES),
      });
      expect(rangeIds).toHaveLength(RANGES);

      // The event: a range has committed its first batch (its counters are in SQL) and is still running.
      const victim = await until(
        'a range commits its first batch',
        async () => {
          const [r] = await sql<{ id: number; lines: number }>(
            `SELECT id, lines::int AS lines FROM hunt_ranges WHERE hunt_id = $1 AND status = 'running' AND lines > 0 ORDER BY id LIMIT 1`,
            [id],
          );
          if (worker1.exited) throw new Error(`worker 1 exited:\n${worker1.out.slice(-3000)}`);
          return r;
        },
        left(),
        10,
      );
      worker1.child.kill('SIGKILL');
      await worker1.exit;
      const killedAt = Date.now();
      const worker2 = startWorker('hunt-worker-2');

      // The kill landed mid-range: the range is still running, some of its results committed, not all.
      const [cut] = await sql<{ status: string; results: number; heartbeat: number }>(
        `SELECT r.status, (SELECT count(*)::int FROM hunt_results WHERE hunt_id = $1) AS results,
                extract(epoch FROM r.heartbeat_at)::float8 * 1000 AS heartbeat FROM hunt_ranges r WHERE r.id = $2`,
        [id, victim.id],
      );
      expect(cut?.status, 'the range finished before the kill').toBe('running');
      const expected = dump.logins.reduce((n, s) => n + s.size, 0);
      expect(cut?.results).toBeGreaterThan(0);
      expect(cut?.results).toBeLessThan(expected);
      const before = await hunts().item(id);
      expect(before.status).toBe('running');

      await started(worker2, left());
      const upAt = Date.now();
      // taken over: another session holds the range's job lock, or it is already done
      await until(
        'worker 2 takes the range over',
        async () => {
          const [r] = await sql<{ attempts: number }>(`SELECT attempts FROM hunt_ranges WHERE id = $1`, [victim.id]);
          return r && r.attempts >= 2 ? true : undefined;
        },
        left(),
        100,
      );
      const takenAt = Date.now();
      // Queued by the sweep (pg-boss alone would retry the dead worker's job only when it expires, hours later),
      // once: within a sweep period (plus slack for a busy machine) of the range going stale with a worker up.
      // (The worker runs it when free: it may be busy with the ranges nobody had started.)
      const takeovers = await sql<{ at: number }>(
        `SELECT extract(epoch FROM created_on)::float8 * 1000 AS at FROM pgboss.job
          WHERE name = 'hunt-range' AND data->>'id' = $1::text AND data->>'takeover' = 'true'`,
        [victim.id],
      );
      expect(takeovers).toHaveLength(1);
      const staleAt = Math.max(cut!.heartbeat + TAKEOVER_SECONDS * 1000, upAt);
      expect(takeovers[0]!.at - staleAt).toBeLessThan((SWEEP_SECONDS + 5) * 1000);
      const h = await finished(id, left());
      const doneAt = Date.now();
      expect(h.status, h.error ?? '').toBe('done');

      // Every expected login is an «Аккаунты» event of its company exactly once; nothing else is.
      for (const [i, c] of companies.entries()) {
        const rows = await sql<{ login: string; n: number }>(
          `SELECT lower(data->>'login') AS login, count(*)::int AS n FROM events WHERE module = 'accounts' AND company_id = $1
          GROUP BY 1 ORDER BY 1`,
          [c],
        );
        expect(
          rows.filter((r) => r.n !== 1),
          `company ${i + 1}: logins with more than one event`,
        ).toEqual([]);
        expect(rows.map((r) => r.login)).toEqual([...dump.logins[i]!].sort());
      }
      const [res] = await sql<{ n: number; d: number }>(
        `SELECT count(*)::int AS n, count(DISTINCT (company_id, login))::int AS d FROM hunt_results WHERE hunt_id = $1`,
        [id],
      );
      expect(res).toEqual({ n: expected, d: expected });
      // the killed range was run twice, the others once; no other process holds a lock of this hunt
      const att = await sql<{ id: number; attempts: number; status: string }>(
        `SELECT id, attempts, status FROM hunt_ranges WHERE hunt_id = $1 ORDER BY id`,
        [id],
      );
      expect(att.every((r) => r.status === 'done')).toBe(true);
      expect(att.find((r) => r.id === victim.id)?.attempts).toBe(2);

      // The same dump run cleanly (worker 2, nobody killed) gives the same counters; its accounts are all known.
      const clean = await hunts().create({
        leakId: leakClean,
        docKey: key,
        fileName: 'clean.txt',
        createdBy: null,
        rangeBytes: Math.ceil(size / RANGES),
      });
      expect((await finished(clean.id, left())).status).toBe('done');
      const killed = await counters(id);
      const reference = await counters(clean.id);
      expect(killed).toEqual(reference);
      expect(killed).toMatchObject({
        status: 'done',
        bytes: size,
        lines: dump.lines,
        unrecognized: dump.unrecognized,
        ranges: RANGES,
        ranges_done: RANGES,
      });
      expect(killed.companies).toEqual(
        companies.map((c, i) => ({ company_id: c, found: dump.logins[i]!.size, corporate: dump.corporate[i]!.size })),
      );
      // new accounts: all of them in the killed run (found first there), none in the clean one
      expect((await hunts().item(id)).companies.map((c) => c.new)).toEqual(dump.logins.map((s) => s.size));
      expect((await hunts().item(clean.id)).companies.map((c) => c.new)).toEqual(dump.logins.map(() => 0));
      // each account carries both leaks, once each
      const [links] = await sql<{ events: number; bad: number }>(
        `SELECT count(*)::int AS events, count(*) FILTER (WHERE l.leaks <> ARRAY[$1, $2]::int[])::int AS bad
         FROM events e CROSS JOIN LATERAL (SELECT array_agg(leak_id ORDER BY leak_id) AS leaks FROM account_leaks WHERE event_id = e.id) l
        WHERE e.module = 'accounts' AND e.company_id = ANY($3::int[])`,
        [leakKilled, leakClean, companies],
      );
      expect(links).toEqual({ events: expected, bad: 0 });

      // No password of the dump in any table (pg-boss's included) nor in either worker's log.
      const tables = await sql<{ s: string; t: string }>(
        `SELECT table_schema AS s, table_name AS t FROM information_schema.tables
        WHERE table_schema IN ('public', 'pgboss') AND table_type = 'BASE TABLE'`,
      );
      const found: string[] = [];
      for (const { s, t } of tables) {
        const rows = await sql<{ x: string }>(
          `SELECT x::text AS x FROM "${s}"."${t}" x WHERE ${PASSWORDS.map((_, i) => `strpos(x::text, $${i + 1}) > 0`).join(' OR ')}`,
          PASSWORDS,
        );
        for (const r of rows) found.push(`${s}.${t}: ${r.x.slice(0, 200)}`);
      }
      expect(found).toEqual([]);
      expect(worker2.out).toContain('hunt range done');
      for (const p of PASSWORDS) for (const w of [worker1, worker2]) expect(w.out.includes(p), `${w.name}: ${p}`).toBe(false);

      console.info(
        [
          `hunt kill -9: ${dump.lines} lines, ${(size / 1e6).toFixed(1)} MB, ${RANGES} ranges, ${expected} accounts`,
          `  worker 1 up ${((tUp - t0) / 1000).toFixed(1)} s; killed ${((killedAt - tUp) / 1000).toFixed(1)} s after the hunt started (range ${victim.id}: ${victim.lines} lines committed)`,
          `  worker 2 up ${((upAt - killedAt) / 1000).toFixed(1)} s, takeover queued ${((takeovers[0]!.at - killedAt) / 1000).toFixed(1)} s, range taken over ${((takenAt - killedAt) / 1000).toFixed(1)} s, hunt done ${((doneAt - killedAt) / 1000).toFixed(1)} s after the kill`,
          `  whole test ${((Date.now() - t0) / 1000).toFixed(1)} s`,
        ].join('\n'),
      );
    },
    LIMIT_MS,
  );
});
