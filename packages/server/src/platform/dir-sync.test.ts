import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DirSync, fsyncDirectory } from './dir-sync.js';

/** A fake flush that finishes when the test says so, recording what it flushed and when. */
function manualFlush() {
  const calls: { dir: string; done: () => void; fail: (e: Error) => void }[] = [];
  const flush = (dir: string) =>
    new Promise<void>((done, fail) => {
      calls.push({ dir, done, fail });
    });
  return { calls, flush };
}
const tick = () => new Promise((r) => setTimeout(r, 0));

describe('DirSync', () => {
  it('flushes at once when idle, and shares one later flush among everyone asking meanwhile', async () => {
    const { calls, flush } = manualFlush();
    const sync = new DirSync(flush);
    let firstDone = false;
    const first = sync.sync('/a').then(() => (firstDone = true));
    expect(calls).toHaveLength(1);
    // Asked while the first runs: served by a second flush that starts after it.
    const waiting = [sync.sync('/a'), sync.sync('/a'), sync.sync('/a')];
    let servedEarly = false;
    void Promise.all(waiting).then(() => (servedEarly = !firstDone || calls.length < 2));
    expect(calls).toHaveLength(1);
    calls[0]!.done();
    await first;
    await tick();
    expect(calls).toHaveLength(2);
    calls[1]!.done();
    await Promise.all(waiting);
    expect(servedEarly).toBe(false);
    // Idle again: the next request flushes at once.
    const again = sync.sync('/a');
    expect(calls).toHaveLength(3);
    calls[2]!.done();
    await again;
  });

  it('keeps directories apart and passes a failure to those it served', async () => {
    const { calls, flush } = manualFlush();
    const sync = new DirSync(flush);
    const a = sync.sync('/a');
    const b = sync.sync('/b');
    expect(calls.map((c) => c.dir)).toEqual(['/a', '/b']);
    calls[0]!.fail(new Error('EIO'));
    await expect(a).rejects.toThrow('EIO');
    calls[1]!.done();
    await b;
    // After a failure the next request flushes again.
    const retry = sync.sync('/a');
    expect(calls).toHaveLength(3);
    calls[2]!.done();
    await retry;
  });

  it('flushes the parent of every directory mkdir created', async () => {
    const flushed: string[] = [];
    const sync = new DirSync(async (dir) => void flushed.push(dir));
    await sync.created('/r/dicom/b/study/series', '/r/dicom/b');
    expect(flushed.sort()).toEqual(['/r/dicom', '/r/dicom/b', '/r/dicom/b/study'].sort());
    flushed.length = 0;
    await sync.created('/r/dicom/b/study/series', undefined);
    expect(flushed).toEqual([]);
  });

  it('fsyncs a real directory', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yyp-dirsync-'));
    await expect(fsyncDirectory(dir)).resolves.toBeUndefined();
    await expect(fsyncDirectory(path.join(dir, 'missing'))).rejects.toThrow();
    fs.rmSync(dir, { recursive: true });
  });
});
