import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import yazl from 'yazl';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { isZip, ZIP_LIMITS, zipEntries, type ArchiveEntry } from './archive.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yyp-zip-'));
const saved = { ...ZIP_LIMITS };
afterEach(() => Object.assign(ZIP_LIMITS, saved));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function zipFile(files: [string, Buffer][]): Promise<string> {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.zip`);
  const z = new yazl.ZipFile();
  for (const [name, bytes] of files) {
    if (name.endsWith('/')) z.addEmptyDirectory(name);
    else z.addBuffer(bytes, name);
  }
  z.end();
  await new Promise<void>((resolve) => z.outputStream.pipe(fs.createWriteStream(file)).on('close', () => resolve()));
  return file;
}

async function all(file: string): Promise<ArchiveEntry[]> {
  const out: ArchiveEntry[] = [];
  for await (const e of zipEntries(file, 'a.zip')) out.push(e);
  return out;
}

describe('study archives', () => {
  it('recognises zips by their signature', () => {
    expect(isZip(Buffer.from('PK\x03\x04rest', 'latin1'))).toBe(true);
    expect(isZip(Buffer.from('PK\x05\x06', 'latin1'))).toBe(true);
    expect(isZip(Buffer.from('DICM', 'latin1'))).toBe(false);
    expect(isZip(Buffer.from('PK', 'latin1'))).toBe(false);
  });

  it('yields entries in order with their bytes, names cleaned of control characters', async () => {
    const file = await zipFile([
      ['a/one', Buffer.from('1')],
      ['b/t\u0007wo', Buffer.from('22')],
      ['dir/', Buffer.alloc(0)],
    ]);
    const entries = await all(file);
    expect(entries.map((e) => [e.name, 'bytes' in e ? e.bytes.toString() : e.skipped])).toEqual([
      ['a.zip/a/one', '1'],
      ['a.zip/b/two', '22'],
    ]);
  });

  it('stops at the entry count and total size limits', async () => {
    ZIP_LIMITS.entries = 2;
    const many = await zipFile([
      ['1', Buffer.from('1')],
      ['2', Buffer.from('2')],
      ['3', Buffer.from('3')],
    ]);
    expect(await all(many)).toEqual([{ name: 'a.zip', skipped: 'archiveTooLarge' }]);
    Object.assign(ZIP_LIMITS, saved, { totalBytes: 10 });
    const big = await zipFile([
      ['small', Buffer.alloc(6, 1)],
      ['more', Buffer.alloc(6, 2)],
    ]);
    const entries = await all(big);
    expect(entries[0]).toMatchObject({ name: 'a.zip/small' });
    expect(entries[1]).toEqual({ name: 'a.zip/more', skipped: 'archiveTooLarge' });
  });

  it('skips an entry over the per-entry limit without inflating it', async () => {
    ZIP_LIMITS.entryBytes = 100;
    const file = await zipFile([['huge', Buffer.alloc(1000, 3)]]);
    expect(await all(file)).toEqual([{ name: 'a.zip/huge', skipped: 'tooLarge' }]);
  });

  it('answers a damaged archive by its own name', async () => {
    const file = path.join(dir, 'broken.zip');
    fs.writeFileSync(file, Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.alloc(64, 9)]));
    expect(await all(file)).toEqual([{ name: 'a.zip', skipped: 'archiveDamaged' }]);
  });
});
