import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalBlobStore, assertSafeKey } from './blobs.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'yyp-blobs-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('LocalBlobStore', () => {
  const store = new LocalBlobStore(root);

  it('writes, reads, ranges, sizes and deletes', async () => {
    await store.put('a/b/c.dcm', Buffer.from('hello world'));
    expect((await store.get('a/b/c.dcm')).toString()).toBe('hello world');
    expect(await store.size('a/b/c.dcm')).toBe(11);
    const chunks: Buffer[] = [];
    for await (const c of store.stream('a/b/c.dcm', { start: 6, end: 10 })) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('world');
    expect((await store.read('a/b/c.dcm', 6, 5)).toString()).toBe('world');
    expect((await store.read('a/b/c.dcm', 8, 10)).toString()).toBe('rld');
    await store.delete('a/b/c.dcm');
    await expect(store.read('a/b/c.dcm', 0, 1)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await store.size('a/b/c.dcm')).toBeNull();
  });

  it('streams into a blob and leaves no temporary file', async () => {
    const n = await store.putStream('s/one', Readable.from([Buffer.from('ab'), Buffer.from('cd')]));
    expect(n).toBe(4);
    expect((await store.get('s/one')).toString()).toBe('abcd');
    expect(fs.readdirSync(path.join(root, '.tmp'))).toEqual([]);
  });

  it('leaves nothing behind when a stream fails mid-way', async () => {
    const failing = new Readable({
      read() {
        this.push(Buffer.from('partial'));
        this.destroy(new Error('connection dropped'));
      },
    });
    await expect(store.putStream('s/two', failing)).rejects.toThrow(/dropped/);
    expect(await store.size('s/two')).toBeNull();
    expect(fs.readdirSync(path.join(root, '.tmp'))).toEqual([]);
  });

  it('putNew writes a new key in place, refuses an existing one and leaves it as it was', async () => {
    await store.putNew('n/e/w.dcm', Buffer.from('first'));
    expect((await store.get('n/e/w.dcm')).toString()).toBe('first');
    await expect(store.putNew('n/e/w.dcm', Buffer.from('second'))).rejects.toMatchObject({ code: 'EEXIST' });
    expect((await store.get('n/e/w.dcm')).toString()).toBe('first');
    await expect(store.putNew('../x', Buffer.from('x'))).rejects.toThrow(/unsafe/);
    expect(fs.readdirSync(path.join(root, '.tmp'))).toEqual([]);
  });

  it('sweeps leftovers of interrupted writes at start', () => {
    fs.writeFileSync(path.join(root, '.tmp', 'orphan'), 'x');
    new LocalBlobStore(root);
    expect(fs.readdirSync(path.join(root, '.tmp'))).toEqual([]);
  });

  it.each(['../etc/passwd', 'a/../../b', '/abs', 'a//b', 'a/./b', 'sp ace', 'a\\b', ''])(
    'refuses the unsafe key %j',
    (key) => {
      expect(() => assertSafeKey(key)).toThrow(/unsafe/);
    },
  );

  it('takes a file on its own filesystem by moving it: same inode, durable, the old name gone', async () => {
    const file = path.join(root, 'upload-1');
    fs.writeFileSync(file, 'instance bytes');
    const inode = fs.statSync(file).ino;
    await store.putFile('f/a/one.dcm', file);
    expect(fs.existsSync(file)).toBe(false);
    expect(fs.statSync(path.join(root, 'f/a/one.dcm')).ino).toBe(inode);
    expect((await store.get('f/a/one.dcm')).toString()).toBe('instance bytes');
  });

  it('refuses to take a file under a key that exists, changing neither', async () => {
    const file = path.join(root, 'upload-2');
    fs.writeFileSync(file, 'newer');
    await store.put('f/a/two.dcm', Buffer.from('older'));
    await expect(store.putFile('f/a/two.dcm', file)).rejects.toMatchObject({ code: 'EEXIST' });
    expect((await store.get('f/a/two.dcm')).toString()).toBe('older');
    expect(fs.readFileSync(file, 'utf8')).toBe('newer');
  });

  it('copies a file from another filesystem (tmpfs) and removes it', async () => {
    // /dev/shm is a tmpfs on Linux: a hard link from there into the store fails with EXDEV.
    const other = fs.existsSync('/dev/shm') ? fs.mkdtempSync('/dev/shm/yyp-blobs-') : fs.mkdtempSync(root + '-x');
    try {
      const file = path.join(other, 'upload-3');
      const bytes = Buffer.alloc(300_000, 7);
      fs.writeFileSync(file, bytes);
      await store.putFile('f/b/three.dcm', file);
      expect(fs.existsSync(file)).toBe(false);
      expect((await store.get('f/b/three.dcm')).equals(bytes)).toBe(true);
    } finally {
      fs.rmSync(other, { recursive: true, force: true });
    }
  });
});
