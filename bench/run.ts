/*
 * `npm run bench`: runs every bench/*.bench.ts in turn (each prints its own figures; none asserts).
 * `npm run bench -- list` runs only the benchmarks whose file name contains "list".
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';

const dir = import.meta.dirname;
const only = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts') && (!only.length || only.some((o) => f.includes(o))))
  .sort();
let failed = 0;
for (const f of files) {
  process.stdout.write(`\n### ${f}\n`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(dir, f)], { stdio: 'inherit', env: process.env });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
