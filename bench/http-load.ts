/*
 * Timed HTTP requests from a child process, as a browser is another process: the server's event
 * loop, heap and garbage collector are not shared with the client's (in one process the client's
 * work and pauses land inside every measured request). The child warms the connection and the
 * server's code paths first, then times `runs` sequential requests over one kept-alive connection.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { createHttpClient } from './http-client';

interface Job {
  base: string;
  cookie: string;
  path: string;
  runs: number;
  warmup: number;
}
type Reply = { times: number[] } | { error: string };

const CHILD = 'FORPOST_HTTP_LOAD_CHILD';

if (process.env[CHILD]) {
  process.on('message', async (m: Job) => {
    const client = createHttpClient(m.base, m.cookie);
    const times: number[] = [];
    for (let i = 0; i < m.warmup + m.runs; i++) {
      const a = performance.now();
      const r = await client.request('GET', m.path);
      if (r.status !== 200) {
        process.send?.({ error: `${m.path}: ${r.status} ${r.body.slice(0, 300)}` } satisfies Reply);
        client.close();
        return;
      }
      JSON.parse(r.body);
      if (i >= m.warmup) times.push(performance.now() - a);
    }
    client.close();
    process.send?.({ times } satisfies Reply);
  });
}

/** A child process that times GET requests on demand; `close()` ends it. */
export function startHttpLoad() {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, [CHILD]: '1' },
  });
  return {
    /** Latencies (ms) of `runs` requests to `path` after `warmup` untimed ones. */
    times: (job: Job) =>
      new Promise<number[]>((resolve, reject) => {
        child.once('message', (m: Reply) => ('error' in m ? reject(new Error(m.error)) : resolve(m.times)));
        child.send(job);
      }),
    close: () => child.kill(),
  };
}
