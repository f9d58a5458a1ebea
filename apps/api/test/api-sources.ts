/* The API's source files as text, for the tests that check what the code can write (audit codes, history fields). */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
  );

/** The text of every .ts file under apps/api/src. */
export const apiSources = (): string[] => files(path.resolve(import.meta.dirname, '../src')).map((f) => readFileSync(f, 'utf8'));
