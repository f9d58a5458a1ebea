import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The repository root, found by walking up from this module to the folder holding apps/api/drizzle:
 * the same answer whether the code runs from apps/api/src (tsx, tests) or bundled into apps/api/dist.
 */
function findRepoRoot(from: string = import.meta.dirname): string {
  for (let dir = path.resolve(from); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'apps/api/drizzle'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`Не найден корень репозитория (apps/api/drizzle) выше ${from}`);
  }
}

export const REPO_ROOT = findRepoRoot();
