/*
 * Where the published standards the tests validate against live (STIX 2.1 and XARF v4 JSON Schemas, the
 * Standard Webhooks specification): the project's shared folder `../shared/standards` next to the
 * repository when it is there, else the unchanged copy in `apps/api/test/standards/` (a clean clone
 * elsewhere still runs every test). `standards.test.ts` checks the copy is byte for byte the shared one.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

const repo = path.resolve(import.meta.dirname, '../../..');
export const SHARED_STANDARDS = path.resolve(repo, '../shared/standards');
export const VENDORED_STANDARDS = path.join(import.meta.dirname, 'standards');

/** The standards folder: FORPOST_STANDARDS_DIR, the shared folder, or the copy in the repository. */
export function standardsDir(): string {
  const env = process.env.FORPOST_STANDARDS_DIR;
  if (env) return env;
  return existsSync(SHARED_STANDARDS) ? SHARED_STANDARDS : VENDORED_STANDARDS;
}
