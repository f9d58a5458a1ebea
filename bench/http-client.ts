/*
 * The benchmarks' HTTP client: node:http with one kept-alive connection, as a browser tab holds one.
 * Global `fetch` (undici) costs 0.3–0.5 ms p50 and 1.4–3.2 ms p95 of its own per request on this
 * machine against a Fastify route returning a constant (node:http: 0.08–0.2 ms / 0.25–1.0 ms; the
 * analytics benchmark prints both for GET /health); with it, a sub-millisecond endpoint would be
 * measured as the client's cost.
 */
import http from 'node:http';

export interface HttpReply {
  status: number;
  body: string;
  headers: http.IncomingHttpHeaders;
}

export function createHttpClient(base: string, session = '') {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const u = new URL(base);
  let cookie = session;
  const request = (method: string, path: string, body?: unknown) =>
    new Promise<HttpReply>((resolve, reject) => {
      const data = body === undefined ? undefined : JSON.stringify(body);
      const req = http.request(
        {
          host: u.hostname,
          port: u.port,
          path,
          method,
          agent,
          headers: {
            ...(cookie ? { cookie } : {}),
            ...(data ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) } : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), headers: res.headers }),
          );
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(data);
    });
  return {
    request,
    /** GET a JSON answer (parsed, as a console would); throws on a non-200 status. */
    async json<T>(path: string): Promise<T> {
      const r = await request('GET', path);
      if (r.status !== 200) throw new Error(`${path}: ${r.status} ${r.body.slice(0, 300)}`);
      return JSON.parse(r.body) as T;
    },
    /** Signs in; later requests carry the session cookies. */
    async login(email: string, password: string): Promise<void> {
      const r = await request('POST', '/api/v1/auth/login', { email, password });
      if (r.status !== 200) throw new Error(`вход не удался: ${r.status} ${r.body.slice(0, 300)}`);
      const set = r.headers['set-cookie'] ?? [];
      cookie = set.map((c) => c.split(';')[0]).join('; ');
    },
    /** The session cookies (to hand to another client). */
    cookie: () => cookie,
    close: () => agent.destroy(),
  };
}
