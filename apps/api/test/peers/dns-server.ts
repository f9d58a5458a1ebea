/*
 * A real DNS server on 127.0.0.1 (UDP, RFC 1035 wire format via the API's own dns-wire.ts) for the
 * discovery tests and bench. It answers like a recursive resolver would: CNAME chains are followed
 * inside the zone and returned together with the end's records, '*.parent' entries are wildcards,
 * unknown names are NXDOMAIN. Entries can fail (rcode), answer late (delayMs), drop or SERVFAIL
 * their first queries (retries), and every query is counted so tests assert by counts.
 */
import { createSocket } from 'node:dgram';
import { EventEmitter } from 'node:events';
import {
  type DnsRecord,
  decodeMessage,
  encodeResponse,
  normalizeName,
  RCODES,
  type RcodeName,
  RR_TYPES,
} from '../../src/modules/discovery/dns-wire';

export interface ZoneEntry {
  A?: string[];
  AAAA?: string[];
  /** "10 mx.example.com" or just a host (preference 10). */
  MX?: string[];
  NS?: string[];
  CNAME?: string;
  /** Answer every query for the name with this RCODE. */
  rcode?: RcodeName;
  /** Answer after this many ms. */
  delayMs?: number;
  /** Do not answer the first n queries for the name (any type). */
  dropFirst?: number;
  /** SERVFAIL the first n queries for the name (any type). */
  failFirst?: number;
}
/** Keys: owner names ('shop.example.ru'), or wildcards ('*.example.ru'). */
export type Zone = Record<string, ZoneEntry>;

export interface LoggedQuery {
  name: string;
  type: string;
}

const TYPE_NAMES = new Map<number, string>(Object.entries(RR_TYPES).map(([k, v]) => [v, k]));

export interface DnsServer {
  port: number;
  /** '127.0.0.1:<port>' — the form ResolverOptions.servers takes. */
  server: string;
  queries: LoggedQuery[];
  /** Queries received, optionally only for a name and/or a type ('A', 'MX', …). */
  count(name?: string, type?: string): number;
  /** Queries received and not yet answered (dropped ones leave at once). */
  readonly inFlight: number;
  readonly maxInFlight: number;
  setRecord(name: string, entry: ZoneEntry | null): void;
  /** Extra delay for every answer (to make queries overlap in concurrency tests). */
  setDelay(ms: number): void;
  resetCounts(): void;
  /** Resolves once at least n queries have been received in total. */
  waitForQueries(n: number): Promise<void>;
  close(): Promise<void>;
}

export async function startDnsServer(zone: Zone, opts: { port?: number } = {}): Promise<DnsServer> {
  const records = new Map<string, ZoneEntry>(Object.entries(zone).map(([k, v]) => [normalizeName(k), v]));
  const seen = new Map<string, number>();
  const timers = new Set<NodeJS.Timeout>();
  const events = new EventEmitter();
  const queries: LoggedQuery[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  let delay = 0;

  /** The entry for a name: exact, else the closest wildcard (RFC 4592, without empty non-terminals). */
  const lookup = (name: string): ZoneEntry | undefined => {
    const exact = records.get(name);
    if (exact) return exact;
    const labels = name.split('.');
    for (let i = 1; i < labels.length; i++) {
      const encloser = labels.slice(i).join('.');
      const w = records.get(`*.${encloser}`);
      if (w) return w;
      if (records.has(encloser)) return undefined;
    }
    return records.get('*');
  };

  const rrs = (owner: string, e: ZoneEntry, type: number): DnsRecord[] => {
    const mk = (data: string): DnsRecord => ({ name: owner, type, ttl: 60, data });
    if (type === RR_TYPES.A) return (e.A ?? []).map(mk);
    if (type === RR_TYPES.AAAA) return (e.AAAA ?? []).map(mk);
    if (type === RR_TYPES.NS) return (e.NS ?? []).map(mk);
    if (type === RR_TYPES.MX) return (e.MX ?? []).map((m) => mk(m.includes(' ') ? m : `10 ${m}`));
    if (type === RR_TYPES.CNAME) return e.CNAME ? [mk(normalizeName(e.CNAME))] : [];
    return [];
  };

  const answer = (qname: string, qtype: number): { rcode: number; answers: DnsRecord[] } | 'drop' => {
    const entry = lookup(qname);
    if (!entry) return { rcode: RCODES.NXDOMAIN, answers: [] };
    const n = (seen.get(qname) ?? 0) + 1;
    seen.set(qname, n);
    if (n <= (entry.dropFirst ?? 0)) return 'drop';
    if (n <= (entry.failFirst ?? 0)) return { rcode: RCODES.SERVFAIL, answers: [] };
    if (entry.rcode) return { rcode: RCODES[entry.rcode], answers: [] };
    const answers: DnsRecord[] = [];
    let owner = qname;
    let e: ZoneEntry | undefined = entry;
    for (let hop = 0; e && hop < 10; hop++) {
      if (!e.CNAME || qtype === RR_TYPES.CNAME) {
        answers.push(...rrs(owner, e, qtype));
        break;
      }
      answers.push(...rrs(owner, e, RR_TYPES.CNAME));
      owner = normalizeName(e.CNAME);
      e = lookup(owner);
      // A chain into a name that does not exist: NXDOMAIN with the CNAMEs (RFC 6604).
      if (!e) return { rcode: RCODES.NXDOMAIN, answers };
    }
    return { rcode: RCODES.NOERROR, answers };
  };

  const socket = createSocket('udp4');
  socket.on('message', (buf, rinfo) => {
    let m: ReturnType<typeof decodeMessage>;
    try {
      m = decodeMessage(buf);
    } catch {
      return;
    }
    const q = m.questions[0];
    if (m.response || !q) return;
    queries.push({ name: q.name, type: TYPE_NAMES.get(q.type) ?? String(q.type) });
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    events.emit('query');
    const a = answer(q.name, q.type);
    if (a === 'drop') {
      inFlight--;
      return;
    }
    const send = () => {
      inFlight--;
      socket.send(encodeResponse({ id: m.id, rcode: a.rcode, questions: [q], answers: a.answers }), rinfo.port, rinfo.address);
    };
    const wait = (lookup(q.name)?.delayMs ?? 0) + delay;
    if (!wait) return send();
    const t = setTimeout(() => {
      timers.delete(t);
      send();
    }, wait);
    timers.add(t);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = socket.address().port;

  return {
    port,
    server: `127.0.0.1:${port}`,
    queries,
    count: (name, type) => queries.filter((q) => (!name || q.name === normalizeName(name)) && (!type || q.type === type)).length,
    get inFlight() {
      return inFlight;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    setRecord(name, entry) {
      if (entry) records.set(normalizeName(name), entry);
      else records.delete(normalizeName(name));
    },
    setDelay(ms) {
      delay = ms;
    },
    resetCounts() {
      queries.length = 0;
      seen.clear();
      maxInFlight = inFlight;
    },
    waitForQueries: (n) =>
      new Promise<void>((resolve) => {
        if (queries.length >= n) return resolve();
        const on = () => {
          if (queries.length >= n) {
            events.off('query', on);
            resolve();
          }
        };
        events.on('query', on);
      }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        timers.clear();
        socket.close(() => resolve());
      }),
  };
}
