/* What the discovery suites share: a setting written through the API, and waiting for a run to end. */
import { expect } from 'vitest';
import type { Client } from './helpers';

/** Sets a configuration key through the API (created the first time, changed after). */
export async function setConfig(admin: Client, key: string, value: string | number): Promise<void> {
  const r = await admin.post('/configs', { key, value });
  if (r.statusCode === 409) {
    const p = await admin.patch(`/configs/${key}`, { value });
    expect(p.statusCode, p.body).toBe(200);
  } else expect(r.statusCode, r.body).toBe(201);
}

/** The run once it has ended, polled by its state (at most `ms`). */
export async function runEnded(c: Client, id: number, ms = 60_000) {
  const until = Date.now() + ms;
  for (;;) {
    const r = await c.get(`/discovery/runs/${id}`);
    expect(r.statusCode, r.body).toBe(200);
    const run = r.json();
    if (!['queued', 'running'].includes(run.status)) return run;
    if (Date.now() > until) throw new Error(`run ${id} still ${run.status} after ${ms} ms`);
    await new Promise((res) => setTimeout(res, 50));
  }
}
