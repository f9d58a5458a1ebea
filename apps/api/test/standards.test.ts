import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHARED_STANDARDS, VENDORED_STANDARDS } from './standards';

/**
 * SHA-256 over the 140 files of ../shared/standards as published (path, NUL, bytes, NUL; paths sorted),
 * taken on 2026-11-29 — the repository's copy must be exactly that folder.
 */
const PUBLISHED = '2a3e01e2a940b9aa95b1d05ca52afe75a2d850ac8688831b2e8ed1ec27c7bce5';

function files(dir: string, base = dir): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = path.join(dir, f);
    return statSync(p).isDirectory() ? files(p, base) : [path.relative(base, p)];
  });
}
function digest(dir: string): string {
  const h = createHash('sha256');
  for (const f of files(dir).sort())
    h.update(Buffer.concat([Buffer.from(`${f}\0`), readFileSync(path.join(dir, f)), Buffer.from('\0')]));
  return h.digest('hex');
}

describe('the standards the tests validate against', () => {
  it('the copy in the repository is the published folder, unchanged (and equals ../shared/standards where that exists)', () => {
    expect(files(VENDORED_STANDARDS)).toHaveLength(140);
    expect(digest(VENDORED_STANDARDS)).toBe(PUBLISHED);
    if (existsSync(SHARED_STANDARDS)) expect(digest(SHARED_STANDARDS)).toBe(PUBLISHED);
  });
});
