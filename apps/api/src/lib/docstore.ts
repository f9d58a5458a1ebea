/*
 * Where document bytes live. Keys are opaque, random and sharded (`ab/cd/<32 hex>`): the user's
 * file name never reaches the disk. Local disk now; an S3-compatible store can implement the same
 * interface later.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface DocStore {
  /** Stores the stream; returns its key and size. If the stream fails, nothing is kept. */
  put(stream: Readable): Promise<{ key: string; size: number }>;
  /** The stored bytes; rejects with code ENOENT when the key is unknown. */
  get(key: string): Promise<Readable>;
  /** Removes the bytes; a missing key is not an error. */
  delete(key: string): Promise<void>;
}

const KEY = /^[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{32}$/;

function notFoundError(): NodeJS.ErrnoException {
  const e = new Error('document not found') as NodeJS.ErrnoException;
  e.code = 'ENOENT';
  return e;
}

/** Local disk under `root` (DATA_DIR/files). Writes go to a temporary file first, then are renamed. */
export function createLocalDocStore(root: string): DocStore {
  const fileOf = (key: string) => {
    if (!KEY.test(key)) throw notFoundError();
    return path.join(root, ...key.split('/'));
  };
  return {
    async put(stream) {
      const id = randomBytes(16).toString('hex');
      const key = `${id.slice(0, 2)}/${id.slice(2, 4)}/${id}`;
      const file = fileOf(key);
      await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
      const tmp = `${file}.part`;
      try {
        await pipeline(stream, createWriteStream(tmp, { flags: 'wx', mode: 0o600 }));
        await rename(tmp, file);
      } catch (e) {
        await rm(tmp, { force: true });
        throw e;
      }
      const { size } = await stat(file);
      return { key, size };
    },
    async get(key) {
      const file = fileOf(key);
      await stat(file);
      return createReadStream(file);
    },
    async delete(key) {
      try {
        await unlink(fileOf(key));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      }
    },
  };
}
