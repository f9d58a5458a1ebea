/*
 * DNS resolution of discovery candidates over UDP against the configured resolvers only
 * (own wire client, dns-wire.ts: the exact RCODE and the CNAME chain of each answer are needed, and
 * nothing is cached between queries). Per name: A (CNAME chain followed and reported); if the name
 * exists, AAAA, MX and NS. Queries share one in-flight bound (`concurrency`) and one token bucket
 * (`ratePerSecond`); each try waits at most `timeoutMs`, timeouts and SERVFAIL are retried
 * `retries` times on the next server. Wildcard parents: docs/decisions.md «Поиск доменов: DNS».
 */
import { randomBytes, randomInt } from 'node:crypto';
import { createSocket, type Socket } from 'node:dgram';
import { setMaxListeners } from 'node:events';
import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';
import { assertAllowedAddress, GUARDED, type OutboundPolicy } from '../../lib/outbound';
import { type DnsRecord, decodeMessage, encodeQuery, normalizeName, RCODES, RR_TYPES } from './dns-wire';
import { type Clock, createSemaphore, createTokenBucket, realClock } from './rate-limit';

export interface ResolverOptions {
  servers: string[] /* '127.0.0.1:5300' or '8.8.8.8' */;
  concurrency: number;
  timeoutMs: number;
  retries: number;
  ratePerSecond: number;
  /** The SSRF guard of the resolvers' addresses (lib/outbound.ts); on by default. */
  outbound?: OutboundPolicy;
}
export type ResolutionStatus = 'registered' | 'nxdomain' | 'servfail' | 'timeout' | 'error';
/** What an `error` was: REFUSED, a send/network failure, or another RCODE/bad name. */
export type ResolutionError = 'refused' | 'network' | 'other';
/**
 * `registered`: the name exists — the A query answered NOERROR (with or without addresses: a
 * delegated name without an address is still registered) or the name is a CNAME. A registered
 * resolution with `wildcard: true` only echoes its parent's wildcard and is not a finding.
 * `cname`: the chain in order (name → cname[0] → cname[1] …); a, aaaa, mx, ns belong to its end.
 * `mx`: exchange host names by preference.
 */
export interface Resolution {
  name: string;
  status: ResolutionStatus;
  a: string[];
  aaaa: string[];
  cname: string[];
  mx: string[];
  ns: string[];
  wildcard: boolean /* answers match a wildcard parent's */;
  /** Set when `status` is `error`. */
  error?: ResolutionError;
}
export interface ResolveManySummary {
  total: number;
  /** Registered and not wildcard. */
  registered: number;
  /** servfail + timeout + error. */
  errors: number;
  wildcardParents: string[];
  perSecond: number;
}
export interface Resolver {
  resolve(name: string): Promise<Resolution>;
  /**
   * Resolves all names (deduplicated) with the configured concurrency and rate; detects wildcard
   * parents first. On abort it stops sending, calls onResult no more and rejects with the signal's
   * reason. If onResult throws, the run stops and rejects with that error.
   */
  resolveMany(
    names: Iterable<string>,
    onResult: (r: Resolution) => void | Promise<void>,
    signal?: AbortSignal,
  ): Promise<ResolveManySummary>;
  close(): void;
}

interface Server {
  address: string;
  port: number;
  family: 4 | 6;
}

/** '1.2.3.4', '1.2.3.4:5300', '::1', '[::1]:5300'. Throws (in Russian) for anything else. */
export function parseServer(s: string): Server {
  const t = s.trim();
  let address = t;
  let port = 53;
  const v6 = /^\[([^\]]+)\](?::(\d+))?$/.exec(t);
  const v4 = /^([^:]+):(\d+)$/.exec(t);
  if (v6) {
    address = v6[1] ?? '';
    if (v6[2]) port = Number(v6[2]);
  } else if (v4) {
    address = v4[1] ?? '';
    port = Number(v4[2]);
  }
  const family = isIP(address);
  if ((family !== 4 && family !== 6) || !(port >= 1 && port <= 65535))
    throw new Error(`Некорректный адрес DNS-сервера: «${s}» (нужен IP-адрес и, при необходимости, порт)`);
  return { address, port, family };
}

type QueryResult =
  | { kind: 'answer'; rcode: number; answers: DnsRecord[] }
  | { kind: 'timeout' }
  | { kind: 'error'; error: unknown };

interface Pending {
  server: Server;
  name: string;
  type: number;
  done: (m: { rcode: number; answers: DnsRecord[] }) => void;
  fail: (error: unknown) => void;
}

interface Chain {
  /** Status of the name itself. */
  status: ResolutionStatus;
  error?: ResolutionError;
  cname: string[];
  a: string[];
}

interface WildcardInfo {
  a: Set<string>;
  aaaa: Set<string>;
  /** Final target of the wildcard's CNAME chain, if it has one. */
  target: string | null;
}

const MAX_CHAIN = 8;

function empty(name: string, status: ResolutionStatus): Resolution {
  return { name, status, a: [], aaaa: [], cname: [], mx: [], ns: [], wildcard: false };
}

function toAscii(name: string): string {
  const n = normalizeName(name.trim());
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ASCII range check
  return /^[\x00-\x7f]*$/.test(n) ? n : normalizeName(domainToASCII(n));
}

/** Follows the CNAME chain from `from` inside one answer section. */
function followChain(answers: DnsRecord[], from: string): string[] {
  const chain: string[] = [];
  let cur = from;
  for (let i = 0; i < MAX_CHAIN; i++) {
    const c = answers.find((r) => r.type === RR_TYPES.CNAME && r.name === cur);
    if (!c || chain.includes(c.data) || c.data === from) break;
    chain.push(c.data);
    cur = c.data;
  }
  return chain;
}

const uniq = (xs: string[]) => [...new Set(xs)];

export function createResolver(opts: ResolverOptions, internals: { clock?: Clock } = {}): Resolver {
  if (!opts.servers.length) throw new Error('Не задан ни один DNS-сервер');
  const servers = opts.servers.map(parseServer);
  // Resolvers are address literals: checked here, before any query is sent (throws OutboundRefusedError).
  for (const s of servers) assertAllowedAddress(s.address, opts.outbound ?? GUARDED);
  const concurrency = Math.max(1, Math.floor(opts.concurrency));
  const timeoutMs = Math.max(1, opts.timeoutMs);
  const retries = Math.max(0, Math.floor(opts.retries));
  if (!(opts.ratePerSecond > 0)) throw new Error('Лимит запросов DNS в секунду должен быть больше нуля');
  const clock = internals.clock ?? realClock;
  // Burst of at most a tenth of a second's worth of queries.
  const bucket = createTokenBucket(opts.ratePerSecond, Math.max(1, Math.floor(opts.ratePerSecond / 10)), clock);
  const slots = createSemaphore(concurrency);
  const pending = new Map<number, Pending>();
  const sockets = new Map<4 | 6, Socket>();
  let closed = false;
  let nextServer = 0;

  const onMessage = (buf: Buffer, rinfo: { address: string; port: number }) => {
    let m: ReturnType<typeof decodeMessage>;
    try {
      m = decodeMessage(buf);
    } catch {
      return; // malformed: the query keeps waiting for a proper answer or its timeout
    }
    const p = pending.get(m.id);
    const q = m.questions[0];
    // Only the server asked may answer, and only the question asked (no spoofed or stray answers).
    if (!p || !m.response || p.server.address !== rinfo.address || p.server.port !== rinfo.port) return;
    if (!q || q.name !== p.name || q.type !== p.type) return;
    pending.delete(m.id);
    p.done({ rcode: m.rcode, answers: m.answers });
  };

  const socketFor = (family: 4 | 6): Socket => {
    let s = sockets.get(family);
    if (!s) {
      s = createSocket(family === 4 ? 'udp4' : 'udp6');
      s.on('message', onMessage);
      s.on('error', () => {}); // send errors are reported to the sender's callback
      s.bind(0);
      s.unref();
      sockets.set(family, s);
    }
    return s;
  };

  const freeId = () => {
    for (;;) {
      const id = randomInt(0, 0x10000);
      if (!pending.has(id)) return id;
    }
  };

  /** One try: a slot, a token, the datagram, then an answer, the timeout or abort. */
  const attempt = async (server: Server, name: string, type: number, signal?: AbortSignal): Promise<QueryResult> => {
    const release = await slots.acquire(signal);
    try {
      await bucket.take(signal);
      if (closed) return { kind: 'error', error: new Error('resolver closed') };
      const id = freeId();
      return await new Promise<QueryResult>((resolve, reject) => {
        const finish = (r: QueryResult | { abort: unknown }) => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          pending.delete(id);
          if ('abort' in r) reject(r.abort);
          else resolve(r);
        };
        const onAbort = () => finish({ abort: signal?.reason });
        const timer = setTimeout(() => finish({ kind: 'timeout' }), timeoutMs);
        signal?.addEventListener('abort', onAbort, { once: true });
        pending.set(id, {
          server,
          name,
          type,
          done: (m) => finish({ kind: 'answer', ...m }),
          fail: (error) => finish({ kind: 'error', error }),
        });
        socketFor(server.family).send(encodeQuery(id, name, type), server.port, server.address, (err) => {
          if (err) finish({ kind: 'error', error: err });
        });
      });
    } finally {
      release();
    }
  };

  /** A query with retries: timeouts, send errors and SERVFAIL are tried again on the next server. */
  const query = async (name: string, type: number, signal?: AbortSignal): Promise<QueryResult> => {
    const first = nextServer++ % servers.length;
    let last: QueryResult = { kind: 'timeout' };
    for (let i = 0; i <= retries; i++) {
      const server = servers[(first + i) % servers.length] as Server;
      last = await attempt(server, name, type, signal);
      if (last.kind === 'answer' && last.rcode !== RCODES.SERVFAIL) return last;
      if (closed) return last;
    }
    return last;
  };

  const statusOf = (r: QueryResult): ResolutionStatus => {
    if (r.kind === 'timeout') return 'timeout';
    if (r.kind === 'error') return 'error';
    if (r.rcode === RCODES.NOERROR) return 'registered';
    if (r.rcode === RCODES.NXDOMAIN) return 'nxdomain';
    if (r.rcode === RCODES.SERVFAIL) return 'servfail';
    return 'error';
  };
  const errorOf = (r: QueryResult): ResolutionError | undefined => {
    if (r.kind === 'error') return 'network';
    if (r.kind === 'answer' && statusOf(r) === 'error') return r.rcode === RCODES.REFUSED ? 'refused' : 'other';
    return undefined;
  };

  /** A of `name`, following CNAMEs across answers (re-asking for the chain's end when needed). */
  const resolveA = async (name: string, signal?: AbortSignal): Promise<Chain> => {
    const first = await query(name, RR_TYPES.A, signal);
    if (first.kind !== 'answer') return { status: statusOf(first), error: errorOf(first), cname: [], a: [] };
    const cname = followChain(first.answers, name);
    // A CNAME proves the name exists even when the chain ends in NXDOMAIN (RFC 6604).
    const status: ResolutionStatus = cname.length ? 'registered' : statusOf(first);
    if (status !== 'registered') return { status, error: errorOf(first), cname: [], a: [] };
    const addresses = (answers: DnsRecord[], owner: string) =>
      uniq(answers.filter((r) => r.type === RR_TYPES.A && r.name === owner).map((r) => r.data));
    let end = cname[cname.length - 1] ?? name;
    let a = addresses(first.answers, end);
    // The answer stopped at a CNAME it did not resolve (e.g. a target outside the server's zone): ask for the end.
    for (let hop = 0; !a.length && cname.length && hop < MAX_CHAIN; hop++) {
      const next = await query(end, RR_TYPES.A, signal);
      if (next.kind !== 'answer' || next.rcode !== RCODES.NOERROR) break;
      const more = followChain(next.answers, end).filter((n) => n !== name && !cname.includes(n));
      cname.push(...more);
      end = cname[cname.length - 1] ?? name;
      a = addresses(next.answers, end);
      if (!more.length) break;
    }
    return { status, cname, a };
  };

  /** Records of `type` owned by the name or any name of its chain. */
  const recordsOf = async (name: string, owners: Set<string>, type: number, signal?: AbortSignal): Promise<DnsRecord[]> => {
    const r = await query(name, type, signal);
    if (r.kind !== 'answer' || r.rcode !== RCODES.NOERROR) return [];
    for (const n of followChain(r.answers, name)) owners.add(n);
    return r.answers.filter((x) => x.type === type && owners.has(x.name));
  };

  const wildcards = new Map<string, Promise<WildcardInfo | null>>();
  const probe = (parent: string, signal?: AbortSignal): Promise<WildcardInfo | null> => {
    let p = wildcards.get(parent);
    if (!p) {
      p = (async () => {
        const name = `fp-${randomBytes(6).toString('hex')}.${parent}`;
        const chain = await resolveA(name, signal);
        if (chain.status !== 'registered') return null;
        const owners = new Set([name, ...chain.cname]);
        const aaaa = (await recordsOf(name, owners, RR_TYPES.AAAA, signal)).map((r) => r.data);
        if (!chain.a.length && !aaaa.length && !chain.cname.length) return null;
        return { a: new Set(chain.a), aaaa: new Set(aaaa), target: chain.cname[chain.cname.length - 1] ?? null };
      })();
      // A failed (aborted) probe is not remembered.
      p.catch(() => wildcards.delete(parent));
      wildcards.set(parent, p);
    }
    return p;
  };

  const parentOf = (name: string) => name.slice(name.indexOf('.') + 1);
  const hasParent = (name: string) => name.includes('.');

  const resolveName = async (raw: string, signal?: AbortSignal): Promise<Resolution> => {
    let name: string;
    try {
      name = toAscii(raw);
    } catch {
      return { ...empty(raw, 'error'), error: 'other' };
    }
    if (!name || name.length > 253 || name.split('.').some((l) => !l || l.length > 63))
      return { ...empty(name || raw, 'error'), error: 'other' };
    const wc = hasParent(name) ? await probe(parentOf(name), signal) : null;
    const chain = await resolveA(name, signal);
    const res: Resolution = { ...empty(name, chain.status), a: chain.a, cname: chain.cname };
    if (chain.error) res.error = chain.error;
    if (chain.status !== 'registered') return res;
    const target = chain.cname[chain.cname.length - 1] ?? null;
    const sameAs = (xs: string[], set: Set<string>) => xs.length > 0 && xs.every((x) => set.has(x));
    if (wc && ((wc.target !== null && target === wc.target) || sameAs(chain.a, wc.a))) {
      // Only the wildcard answering: no more queries for this name.
      res.wildcard = true;
      return res;
    }
    const owners = new Set([name, ...chain.cname]);
    const [aaaa, mx, ns] = await Promise.all([
      recordsOf(name, owners, RR_TYPES.AAAA, signal),
      recordsOf(name, owners, RR_TYPES.MX, signal),
      recordsOf(name, owners, RR_TYPES.NS, signal),
    ]);
    res.aaaa = uniq(aaaa.map((r) => r.data));
    res.mx = uniq(
      mx
        .map((r) => r.data.split(' '))
        .sort((x, y) => Number(x[0]) - Number(y[0]))
        .map((x) => x[1] ?? '')
        .filter(Boolean),
    );
    res.ns = uniq(ns.map((r) => r.data)).sort();
    if (wc && !chain.a.length && wc.a.size === 0 && sameAs(res.aaaa, wc.aaaa)) res.wildcard = true;
    return res;
  };

  return {
    resolve: (name) => resolveName(name),

    async resolveMany(names, onResult, signal) {
      const started = clock.now();
      const ctl = new AbortController();
      // Every query and every slot waiter listens on it: up to `concurrency` × a few at once.
      setMaxListeners(0, ctl.signal);
      const stop = () => ctl.abort(signal?.reason);
      if (signal?.aborted) throw signal.reason;
      signal?.addEventListener('abort', stop, { once: true });
      const list = [...new Set([...names].map((n) => toAsciiSafe(n)))];
      const summary: ResolveManySummary = { total: list.length, registered: 0, errors: 0, wildcardParents: [], perSecond: 0 };
      let failure: { error: unknown } | null = null;
      const pool = async <T>(items: T[], work: (item: T) => Promise<void>) => {
        let next = 0;
        const worker = async () => {
          while (!ctl.signal.aborted && next < items.length) {
            const item = items[next++] as T;
            try {
              await work(item);
            } catch (e) {
              if (!failure) failure = { error: ctl.signal.aborted ? ctl.signal.reason : e };
              ctl.abort(e);
            }
          }
        };
        await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
      };
      try {
        const parents = [...new Set(list.filter(hasParent).map(parentOf))];
        await pool(parents, async (p) => {
          if (await probe(p, ctl.signal)) summary.wildcardParents.push(p);
        });
        await pool(list, async (n) => {
          const r = await resolveName(n, ctl.signal);
          if (ctl.signal.aborted) return;
          if (r.status === 'registered' && !r.wildcard) summary.registered++;
          if (r.status === 'servfail' || r.status === 'timeout' || r.status === 'error') summary.errors++;
          await onResult(r);
        });
      } finally {
        signal?.removeEventListener('abort', stop);
      }
      if (signal?.aborted) throw signal.reason;
      if (failure) throw (failure as { error: unknown }).error;
      summary.wildcardParents.sort();
      const secs = (clock.now() - started) / 1000;
      summary.perSecond = secs > 0 ? Math.round((list.length / secs) * 10) / 10 : list.length;
      return summary;
    },

    close() {
      closed = true;
      for (const s of sockets.values()) s.close();
      sockets.clear();
      for (const p of pending.values()) p.fail(new Error('resolver closed'));
      pending.clear();
    },
  };
}

function toAsciiSafe(n: string): string {
  try {
    return toAscii(n) || n;
  } catch {
    return n;
  }
}
