/*
 * The STIX bundle writer of «Мои экспорты» (#33): objects go out in bounded chunks and the writer waits
 * for a stream that asks it to (backpressure), so a 1 000 000-event export holds one chunk, not a page.
 */
import { describe, expect, it } from 'vitest';
import { stixBundleWriter } from '../src/modules/exports/writers';

const obj = (i: number) => ({ type: 'domain-name', id: `domain-name--${i}`, value: `d${i}.example`, pad: 'ж'.repeat(200) });

describe('STIX bundle writer', () => {
  it('waits for a reader once a chunk is out and nobody reads; the file is one JSON bundle', async () => {
    const w = stixBundleWriter('bundle--x');
    let i = 0;
    let pending: Promise<void> | undefined;
    const settled = async (p: Promise<void>) => {
      let done = false;
      void p.then(() => {
        done = true;
      });
      await new Promise((r) => setImmediate(r));
      return done;
    };
    // Nobody reads: the writer must stop at about its stream's buffer (1 MB) plus one chunk, not take everything.
    while (i < 100_000 && !pending) {
      const p = w.write(obj(i++));
      if (p && !(await settled(p))) pending = p;
    }
    expect(pending).toBeDefined();
    expect(i).toBeLessThan(20_000);
    expect(await settled(pending as Promise<void>)).toBe(false);
    expect(w.output.readableLength).toBeLessThan(3 * 1024 * 1024);
    const parts: Buffer[] = [];
    w.output.on('data', (c: Buffer) => parts.push(c));
    await pending;
    for (let n = i + 5000; i < n; i++) await w.write(obj(i));
    await w.end();
    await new Promise((r) => w.output.on('end', r));
    const bundle = JSON.parse(Buffer.concat(parts).toString('utf8')) as { type: string; objects: { id: string }[] };
    expect(bundle.type).toBe('bundle');
    expect(bundle.objects).toHaveLength(i);
    expect(bundle.objects.at(-1)?.id).toBe(`domain-name--${i - 1}`);
  });
});
