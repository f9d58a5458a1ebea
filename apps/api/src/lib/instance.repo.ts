/* SQL of the installation's check values (instance.ts), on the start's own client. */
import type pg from 'pg';

/** Records `value` under `name` unless one is recorded; true when this call recorded it. */
export async function recordCheck(client: pg.ClientBase, name: string, value: string): Promise<boolean> {
  const ins = await client.query(
    `INSERT INTO instance_checks (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING RETURNING value`,
    [name, value],
  );
  return (ins.rowCount ?? 0) > 0;
}

/** The recorded value of `name`, if any. */
export async function checkOf(client: pg.ClientBase, name: string): Promise<string | undefined> {
  const { rows } = await client.query<{ value: string }>(`SELECT value FROM instance_checks WHERE name = $1`, [name]);
  return rows[0]?.value;
}
