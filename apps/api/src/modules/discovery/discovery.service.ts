/*
 * Discovery (#17) as the rest of the API sees it: the settings of its traffic (read at every run from
 * the configurations, group «Поиск доменов») and the candidate preview of a domain.
 */

import { parseRdapServers, splitList } from '@forpost/contract/configs';
import type { PreviewResponse } from '@forpost/contract/discovery';
import { badRequest } from '../../lib/errors';
import type { ConfigsService } from '../configs/index';
import { DiscoveryInputError, generatePermutations } from './permutations';
import type { ResolverOptions } from './resolver';

export interface DiscoverySettings {
  enabled: boolean;
  scheduleHours: number;
  resolver: ResolverOptions;
  /** RDAP is off when there are no servers and no bootstrap file. */
  rdap: { servers: Record<string, string>; bootstrapUrl: string | null; timeoutMs: number };
  ctLogs: string[];
  /** 0..1 */
  ctThreshold: number;
  ctIntervalMs: number;
}

export async function discoverySettings(configs: Pick<ConfigsService, 'get'>): Promise<DiscoverySettings> {
  return {
    enabled: (await configs.get('discovery_enabled')) === 1,
    scheduleHours: await configs.get('discovery_schedule_hours'),
    resolver: {
      servers: splitList(await configs.get('discovery_dns_servers')),
      concurrency: await configs.get('discovery_dns_concurrency'),
      timeoutMs: await configs.get('discovery_dns_timeout_ms'),
      retries: await configs.get('discovery_dns_retries'),
      ratePerSecond: await configs.get('discovery_dns_rate'),
    },
    rdap: {
      servers: parseRdapServers(await configs.get('discovery_rdap_servers')) ?? {},
      bootstrapUrl: (await configs.get('discovery_rdap_bootstrap')).trim() || null,
      timeoutMs: await configs.get('discovery_rdap_timeout_ms'),
    },
    ctLogs: splitList(await configs.get('discovery_ct_logs')),
    ctThreshold: (await configs.get('discovery_ct_threshold')) / 100,
    ctIntervalMs: (await configs.get('discovery_ct_interval_seconds')) * 1000,
  };
}

/** Every candidate of a domain (the engine's order), or a Russian 400 for input that is not a domain. */
export function previewCandidates(domain: string): PreviewResponse {
  try {
    const items = generatePermutations(domain.trim()).map((c) => ({ domain: c.domain, unicode: c.unicode, fuzzer: c.fuzzer }));
    return { total: items.length, items };
  } catch (e) {
    if (e instanceof DiscoveryInputError) throw badRequest(e.message, { domain: e.message });
    throw e;
  }
}
