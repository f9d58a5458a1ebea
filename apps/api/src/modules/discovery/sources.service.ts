/*
 * The sources of discovery as seen before a run (GET /discovery/sources): which of DNS, RDAP and CT are
 * configured and, asked for (`probe=1`), whether they answer — one DNS query of a known name to each
 * resolver, the RDAP bootstrap file — within a short timeout. A run made with a source missing or down
 * finds nothing, and «0 зарегистрировано» must not read as «no lookalikes». Messages name no addresses
 * (a configured address may carry credentials).
 */
import { DISCOVERY_MSG, type SourceStatus, type SourcesQuery, type SourcesResponse } from '@forpost/contract/discovery';
import { can } from '@forpost/contract/permissions';
import type { Caller } from '../../lib/caller';
import { notFound } from '../../lib/errors';
import type { OutboundPolicy } from '../../lib/outbound';
import type { ConfigsService } from '../configs/index';
import type { AssetsRepo } from './assets.repo';
import { discoverySettings } from './discovery.service';
import { createRdapBootstrapCache } from './rdap';
import { createResolver } from './resolver';

/** A probe waits at most this long for each source. */
export const PROBE_TIMEOUT_MS = 2_000;
/** The name each resolver is asked about: any answer (NOERROR or NXDOMAIN) means the resolver works. */
const PROBE_NAME = 'ru';

/** Whether one resolver answers a query (any RCODE but SERVFAIL), within the probe's timeout. */
async function resolverAnswers(server: string, timeoutMs: number, outbound: OutboundPolicy): Promise<boolean> {
  let resolver: ReturnType<typeof createResolver> | undefined;
  try {
    resolver = createResolver({ servers: [server], concurrency: 4, timeoutMs, retries: 0, ratePerSecond: 100, outbound });
    const r = await resolver.resolve(PROBE_NAME);
    return r.status === 'registered' || r.status === 'nxdomain' || (r.status === 'error' && r.error === 'other');
  } catch {
    return false;
  } finally {
    resolver?.close();
  }
}

export function createSourcesService(deps: {
  configs: Pick<ConfigsService, 'get'>;
  assets: AssetsRepo;
  outbound: OutboundPolicy;
}) {
  return {
    async check({ auth: { principal: p } }: Caller, q: SourcesQuery): Promise<SourcesResponse> {
      const companyId = q.company_id !== undefined && q.company_id !== -1 ? q.company_id : undefined;
      if (companyId !== undefined && !can(p, 'discovery.read', companyId)) throw notFound(DISCOVERY_MSG.companyNotFound);
      const s = await discoverySettings(deps.configs);
      const timeoutMs = Math.min(PROBE_TIMEOUT_MS, Math.max(200, s.resolver.timeoutMs));
      const probe = q.probe === 1;

      const dns = async (): Promise<SourceStatus> => {
        const n = s.resolver.servers.length;
        if (!n) return { source: 'dns', state: 'missing', message: DISCOVERY_MSG.sourceDnsMissing };
        if (!probe) return { source: 'dns', state: 'ok', message: `Задано DNS-серверов: ${n}` };
        const ok = await Promise.all(s.resolver.servers.map((srv) => resolverAnswers(srv, timeoutMs, deps.outbound)));
        const down = ok.filter((x) => !x).length;
        if (!down) return { source: 'dns', state: 'ok', message: `Отвечают все DNS-серверы (${n})` };
        return {
          source: 'dns',
          state: 'unreachable',
          message:
            down === n
              ? DISCOVERY_MSG.sourceDnsDown
              : `Не отвечают ${down} из ${n} DNS-серверов — проверка будет медленнее, часть имён может остаться непроверенной`,
        };
      };

      const rdap = async (): Promise<SourceStatus> => {
        const servers = Object.keys(s.rdap.servers).length;
        if (!servers && !s.rdap.bootstrapUrl)
          return { source: 'rdap', state: 'missing', message: DISCOVERY_MSG.sourceRdapMissing };
        if (!probe || !s.rdap.bootstrapUrl)
          return {
            source: 'rdap',
            state: 'ok',
            message: s.rdap.bootstrapUrl ? 'Задан файл bootstrap RDAP' : `Задано RDAP-серверов: ${servers}`,
          };
        // A fresh cache: the probe reads the file now, not what the runs kept.
        const file = await createRdapBootstrapCache({ outbound: deps.outbound }).get(s.rdap.bootstrapUrl, timeoutMs);
        if (file) return { source: 'rdap', state: 'ok', message: 'Файл bootstrap RDAP доступен' };
        return {
          source: 'rdap',
          state: 'unreachable',
          message: servers ? DISCOVERY_MSG.sourceRdapBootstrapDownPartial : DISCOVERY_MSG.sourceRdapBootstrapDown,
        };
      };

      const ct = (): SourceStatus =>
        s.ctLogs.length
          ? { source: 'ct', state: 'ok', message: `Задано журналов сертификатов: ${s.ctLogs.length}` }
          : { source: 'ct', state: 'missing', message: DISCOVERY_MSG.sourceCtMissing };

      const [d, r] = await Promise.all([dns(), rdap()]);
      let company: SourcesResponse['company'] = null;
      if (companyId !== undefined) {
        const enabled = await deps.assets.enabled(companyId);
        company = {
          id: companyId,
          domains: enabled.filter((a) => a.kind === 'domain').length,
          words: enabled.filter((a) => a.kind === 'word').length,
        };
      }
      return { enabled: s.enabled, sources: [d, r, ct()], company };
    },
  };
}
export type SourcesService = ReturnType<typeof createSourcesService>;
