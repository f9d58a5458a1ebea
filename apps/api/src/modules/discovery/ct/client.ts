/*
 * RFC 6962 v1 client of one Certificate Transparency log: get-sth and get-entries. Entries are parsed
 * here (parse.ts); an entry that does not parse is skipped and counted, never failing its batch. Any
 * transport problem (timeout, refused connection, non-2xx, a body that is not the RFC's JSON) is a
 * CtLogError with a Russian message.
 */
import { createOutboundFetch, GUARDED, type OutboundPolicy } from '../../../lib/outbound';
import { type CtEntry, parseLeaf } from './parse';

export type { CtEntry } from './parse';

/**
 * Parsed entries of one get-entries answer. `fetched` is how many entries the log returned (parsed or
 * not): the next index to read is start + fetched. `parseErrors` of them were skipped.
 */
export type CtEntries = CtEntry[] & { fetched: number; parseErrors: number };

export interface CtClient {
  getSth(signal?: AbortSignal): Promise<{ treeSize: number; timestamp: number }>;
  /** Parsed entries [start..end]; the server may return fewer than asked (follow its limit). */
  getEntries(start: number, end: number, signal?: AbortSignal): Promise<CtEntries>;
}

export class CtLogError extends Error {}

const isCount = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;

/** `outbound`: the SSRF guard of every request, redirects included (lib/outbound.ts); on by default. */
export function createCtClient(opts: { url: string; timeoutMs: number; outbound?: OutboundPolicy }): CtClient {
  const base = opts.url.replace(/\/+$/, '');
  const fetch = createOutboundFetch(opts.outbound ?? GUARDED);
  const get = async (path: string, stop?: AbortSignal): Promise<unknown> => {
    let res: Response;
    const timeout = AbortSignal.timeout(opts.timeoutMs);
    try {
      res = await fetch(`${base}/ct/v1/${path}`, { signal: stop ? AbortSignal.any([timeout, stop]) : timeout });
    } catch (e) {
      if (stop?.aborted) throw new CtLogError(`Чтение журнала CT ${base} остановлено`);
      if (timeout.aborted) throw new CtLogError(`Журнал CT ${base} не ответил за ${opts.timeoutMs} мс`);
      throw new CtLogError(`Журнал CT ${base} недоступен: ${(e as Error).message}`);
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw new CtLogError(`Журнал CT ${base} ответил ошибкой ${res.status} на ${path.split('?')[0]}`);
    }
    try {
      return await res.json();
    } catch {
      throw new CtLogError(`Журнал CT ${base} вернул не JSON на ${path.split('?')[0]}`);
    }
  };

  return {
    async getSth(signal) {
      const body = (await get('get-sth', signal)) as { tree_size?: unknown; timestamp?: unknown } | null;
      if (!isCount(body?.tree_size) || !isCount(body?.timestamp))
        throw new CtLogError(`Журнал CT ${base} вернул неверный get-sth`);
      return { treeSize: body.tree_size, timestamp: body.timestamp };
    },

    async getEntries(start, end, signal) {
      if (!isCount(start) || !isCount(end) || end < start) throw new CtLogError(`Неверный диапазон записей CT: ${start}..${end}`);
      const body = (await get(`get-entries?start=${start}&end=${end}`, signal)) as { entries?: unknown } | null;
      if (!Array.isArray(body?.entries)) throw new CtLogError(`Журнал CT ${base} вернул неверный get-entries`);
      // A log answers at most its own page size; more than asked would be a broken log: take what was asked.
      const raw = body.entries.slice(0, end - start + 1) as { leaf_input?: unknown }[];
      const entries: CtEntry[] = [];
      let parseErrors = 0;
      raw.forEach((e, i) => {
        try {
          if (typeof e?.leaf_input !== 'string') throw new Error('нет leaf_input');
          entries.push(parseLeaf(start + i, Buffer.from(e.leaf_input, 'base64')));
        } catch {
          parseErrors++;
        }
      });
      return Object.assign(entries, { fetched: raw.length, parseErrors });
    },
  };
}
