/*
 * STIX 2.1 mapping of every module's events (issue #33), declared next to the field kinds: the field
 * kinds (kinds.ts) say which STIX observable a field's value can be; this table says, per module, what
 * one event becomes — its main object (an SDO stable per event), which observables it names, whether
 * it is a detection (an `indicator` with a STIX pattern, `based-on` the observable) and the module's
 * composite observables (`user-account`, `network-traffic`). The API builds the objects from it
 * (apps/api/src/modules/stix/); a module missing here does not compile (Record<ModuleCode, …>).
 */
import type { ModuleCode } from './sections';

/** The SDO that stands for one event. */
export type StixEventSdo = 'incident' | 'report' | 'note';

export interface StixModuleMap {
  /** The event's own object: `incident` (something happened to the company), `report` (a leak, an article), `note` (a request, a finding). */
  sdo: StixEventSdo;
  /** `report_types` of a report SDO (STIX open vocabulary `report-type-ov`). */
  reportTypes?: readonly string[];
  /**
   * Fields whose values become observables (their field kind names the STIX type; the value's form picks
   * among several — a host is a domain or an IP). The first is the event's primary observable.
   */
  observables: readonly string[];
  /** The event is a detection of hostile infrastructure: an `indicator` on the primary observable. */
  indicator?: { types: readonly string[] };
  /** A domain field whose `resolves_to_refs` get the IP of this field (domain-name → ipv4-addr/ipv6-addr). */
  resolves?: { domain: string; ip: string };
  /** A `user-account` from these fields (login, e-mail as the login when there is no login). */
  account?: { login?: string; email?: string; type?: string };
  /** A `network-traffic` between these fields (`dst` host/IP, `dst_port`, protocol `enum` or fixed). */
  traffic?: {
    src?: string;
    dst: string;
    dstPort?: string;
    /** The field with the protocol (lower-case IANA name), or `tcp` when absent. */
    protocol?: string;
    start?: string;
    end?: string;
  };
}

export const STIX_MODULES: Record<ModuleCode, StixModuleMap> = {
  domains: {
    sdo: 'incident',
    observables: ['domain', 'url', 'ip'],
    indicator: { types: ['malicious-activity', 'attribution'] },
    resolves: { domain: 'domain', ip: 'ip' },
  },
  brand: { sdo: 'incident', observables: ['url'], indicator: { types: ['malicious-activity'] } },
  management: { sdo: 'incident', observables: ['url'], indicator: { types: ['malicious-activity'] } },
  databases: {
    sdo: 'incident',
    observables: ['host', 'url'],
    traffic: { dst: 'host', dstPort: 'port' },
  },
  services: {
    sdo: 'incident',
    observables: ['host'],
    traffic: { dst: 'host', dstPort: 'port', protocol: 'protocol' },
  },
  acquiring: { sdo: 'incident', observables: ['source_url'] },
  employees: { sdo: 'incident', observables: ['email', 'url'], account: { email: 'email' } },
  firms: { sdo: 'incident', observables: [] },
  accounts: { sdo: 'incident', observables: ['email'], account: { login: 'login', email: 'email' } },
  leaks: { sdo: 'report', reportTypes: ['threat-report'], observables: ['source_url'] },
  repositories: { sdo: 'note', observables: ['repo_url'] },
  media: { sdo: 'report', reportTypes: ['threat-report'], observables: ['url'] },
  merchant: { sdo: 'incident', observables: ['site_url'], indicator: { types: ['malicious-activity'] } },
  endpoints: {
    sdo: 'incident',
    observables: ['url', 'ip'],
    indicator: { types: ['malicious-activity'] },
  },
  consulting: { sdo: 'note', observables: ['contact_email'] },
  networkattacks: {
    sdo: 'incident',
    observables: ['source_ip', 'target'],
    indicator: { types: ['malicious-activity'] },
    traffic: {
      src: 'source_ip',
      dst: 'target',
      dstPort: 'target_port',
      protocol: 'protocol',
      start: 'attack_started_at',
      end: 'attack_ended_at',
    },
  },
};
