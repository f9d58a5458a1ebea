/*
 * An RDAP server on 127.0.0.1 (node:http) for the discovery tests: GET [<base path>]/domain/<ascii-name> answers
 * the recorded JSON for the name (application/rdap+json), an RDAP error object with 404 for unknown
 * names; an answer can be late, have another status, or redirect. Other paths can serve files (the RFC 9224
 * bootstrap `dns.json`, see rdapBootstrapFile). Every request is logged.
 */
import { EventEmitter } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export type RdapAnswer =
  | { body: unknown; status?: number; delayMs?: number }
  | { redirect: string /* absolute URL or a path */; status?: number };

export interface RdapServer {
  url: string;
  /** Paths requested, in order. */
  requests: string[];
  /** Resolves once at least n requests have been received in total. */
  waitForRequests(n: number): Promise<void>;
  close(): Promise<void>;
}

export async function startRdapServer(
  records: Record<string, RdapAnswer>,
  /** Paths other than /domain/… and what they answer (e.g. '/rdap/dns.json' → a bootstrap file). */
  files: Record<string, RdapAnswer> = {},
): Promise<RdapServer> {
  const requests: string[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const events = new EventEmitter();
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    requests.push(path);
    events.emit('request');
    const file = files[path];
    if (file) {
      if ('redirect' in file) {
        res.writeHead(file.status ?? 302, { location: file.redirect });
        return res.end();
      }
      res.writeHead(file.status ?? 200, { 'content-type': 'application/json' });
      return res.end(typeof file.body === 'string' ? file.body : JSON.stringify(file.body));
    }
    // Any base path: /domain/x or, as registries publish their base URLs, /com/v1/domain/x.
    const m = /\/domain\/([^/?]+)$/.exec(path);
    const name = m ? decodeURIComponent(m[1] ?? '').toLowerCase() : '';
    const answer = records[name];
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/rdap+json' });
      res.end(JSON.stringify(body));
    };
    if (!answer) {
      return json(404, {
        rdapConformance: ['rdap_level_0'],
        errorCode: 404,
        title: 'Not Found',
        description: [`The domain ${name} was not found`],
      });
    }
    if ('redirect' in answer) {
      res.writeHead(answer.status ?? 302, { location: answer.redirect });
      return res.end();
    }
    if (!answer.delayMs) return json(answer.status ?? 200, answer.body);
    const t = setTimeout(() => {
      timers.delete(t);
      json(answer.status ?? 200, answer.body);
    }, answer.delayMs);
    timers.add(t);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    waitForRequests: (n) =>
      new Promise<void>((resolve) => {
        if (requests.length >= n) return resolve();
        const on = () => {
          if (requests.length < n) return;
          events.off('request', on);
          resolve();
        };
        events.on('request', on);
      }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A .com answer in the shape Verisign's RDAP service gives (fields trimmed, values invented). */
export function recordedComDomain(ldhName: string): unknown {
  return {
    objectClassName: 'domain',
    handle: '2907512834_DOMAIN_COM-VRSN',
    ldhName: ldhName.toUpperCase(),
    links: [
      {
        value: `https://rdap.verisign.com/com/v1/domain/${ldhName.toUpperCase()}`,
        rel: 'self',
        href: `https://rdap.verisign.com/com/v1/domain/${ldhName.toUpperCase()}`,
        type: 'application/rdap+json',
      },
    ],
    status: ['client transfer prohibited', 'server hold'],
    entities: [
      {
        objectClassName: 'entity',
        handle: '1606',
        roles: ['registrar'],
        publicIds: [{ type: 'IANA Registrar ID', identifier: '1606' }],
        vcardArray: [
          'vcard',
          [
            ['version', {}, 'text', '4.0'],
            ['fn', {}, 'text', 'Registrar of Domain Names REG.RU LLC'],
          ],
        ],
        entities: [
          {
            objectClassName: 'entity',
            roles: ['abuse'],
            vcardArray: [
              'vcard',
              [
                ['version', {}, 'text', '4.0'],
                ['fn', {}, 'text', ''],
                ['tel', { type: 'voice' }, 'uri', 'tel:+7.4955801111'],
                ['email', {}, 'text', 'abuse@reg.ru'],
              ],
            ],
          },
        ],
      },
    ],
    events: [
      { eventAction: 'registration', eventDate: '2026-10-02T09:14:51Z' },
      { eventAction: 'expiration', eventDate: '2027-10-02T09:14:51Z' },
      { eventAction: 'last changed', eventDate: '2026-10-03T11:00:02Z' },
      { eventAction: 'last update of RDAP database', eventDate: '2026-11-24T20:01:33Z' },
    ],
    secureDNS: { delegationSigned: false },
    nameservers: [
      { objectClassName: 'nameserver', ldhName: 'NS1.REG.RU' },
      { objectClassName: 'nameserver', ldhName: 'NS2.REG.RU' },
    ],
    rdapConformance: ['rdap_level_0', 'icann_rdap_technical_implementation_guide_0', 'icann_rdap_response_profile_0'],
    notices: [{ title: 'Terms of Use', description: ['Service subject to Terms of Use.'] }],
  };
}

/** An RFC 9224 bootstrap file (the shape of IANA's https://data.iana.org/rdap/dns.json) for the given services. */
export function rdapBootstrapFile(services: [zones: string[], urls: string[]][]): unknown {
  return {
    version: '1.0',
    publication: '2026-11-24T18:00:01Z',
    description: 'RDAP bootstrap file for Domain Name System registrations',
    services,
  };
}
