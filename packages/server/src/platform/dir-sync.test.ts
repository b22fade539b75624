import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DirSync, OpenDirectories } from './dir-sync.js';

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
});

describe('OpenDirectories', () => {
  const openFds = () => fs.readdirSync('/proc/self/fd').length;

  it('keeps one descriptor per directory, at most max, and closes the least recently used', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'yyp-opendirs-'));
    const dirs = ['a', 'b', 'c'].map((d) => path.join(root, d));
    for (const d of dirs) fs.mkdirSync(d);
    const before = openFds();
    const open = new OpenDirectories(2);
    await open.fsync(dirs[0]!);
    await open.fsync(dirs[0]!);
    expect(open.size).toBe(1);
    expect(openFds()).toBe(before + 1);
    await Promise.all([open.fsync(dirs[1]!), open.fsync(dirs[1]!)]);
    expect(open.size).toBe(2);
    expect(openFds()).toBe(before + 2);
    await open.fsync(dirs[0]!); // a is now the most recently used: c evicts b
    await open.fsync(dirs[2]!);
    expect(open.size).toBe(2);
    await new Promise((r) => setTimeout(r, 20)); // the evicted descriptor's close
    expect(openFds()).toBe(before + 2);
    open.close();
    await new Promise((r) => setTimeout(r, 20));
    expect(openFds()).toBe(before);
    fs.rmSync(root, { recursive: true });
  });

  it('fails for a missing directory and keeps nothing for it', async () => {
    const open = new OpenDirectories();
    await expect(open.fsync(path.join(os.tmpdir(), 'yyp-no-such-dir-' + Date.now()))).rejects.toMatchObject({
      code: 'ENOENT',
    });
    expect(open.size).toBe(0);
  });
});
