import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import yazl from 'yazl';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { isZip, ZIP_LIMITS, zipEntries } from './archive.js';
import {
  badCrcZip,
  central,
  craftZip,
  finish,
  layout,
  member,
  nestedHeaderZip,
  sharedMemberZip,
} from './testdata/zip-craft.js';

/** Child process: deflates argv[2] bytes of a repeated pseudo-random block into argv[1], prints the CRC-32. */
const BIG_ENTRY = `
const fs = require('node:fs'), zlib = require('node:zlib');
const [out, total] = [process.argv[1], Number(process.argv[2])];
const block = Buffer.alloc(16384);
for (let i = 0; i < block.length; i++) block[i] = (i * 2654435761) >>> 24;
const mib = Buffer.concat(Array.from({ length: 64 }, () => block));
const deflate = zlib.createDeflateRaw({ level: 6 });
deflate.pipe(fs.createWriteStream(out)).on('close', () => console.log(String(crc)));
let crc = 0, n = 0;
(function more() {
  while (n < total / mib.length) {
    crc = zlib.crc32(mib, crc);
    n++;
    if (!deflate.write(mib)) return deflate.once('drain', more);
  }
  deflate.end();
})();
`;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yyp-zip-'));
const saved = { ...ZIP_LIMITS };
afterEach(() => Object.assign(ZIP_LIMITS, saved));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function save(bytes: Buffer): string {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.zip`);
  fs.writeFileSync(file, bytes);
  return file;
}

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

/** Each entry as [name, its bytes read from the temporary file while it is current, or the skip reason]. */
async function all(file: string): Promise<[string, string][]> {
  const out: [string, string][] = [];
  for await (const e of zipEntries(file, 'a.zip')) {
    out.push([e.name, 'skipped' in e ? e.skipped : fs.readFileSync(e.path, 'latin1')]);
  }
  return out;
}

/** Files the reader left next to the archive. */
const leftovers = (file: string) =>
  fs.readdirSync(dir).filter((f) => f.startsWith(path.basename(file)) && f !== path.basename(file));

describe('study archives', () => {
  it('recognises zips by their signature', () => {
    expect(isZip(Buffer.from('PK\x03\x04rest', 'latin1'))).toBe(true);
    expect(isZip(Buffer.from('PK\x05\x06', 'latin1'))).toBe(true);
    expect(isZip(Buffer.from('DICM', 'latin1'))).toBe(false);
    expect(isZip(Buffer.from('PK', 'latin1'))).toBe(false);
  });

  it('yields entries in order in temporary files, names cleaned of control characters, and removes each file', async () => {
    const file = await zipFile([
      ['a/one', Buffer.from('1')],
      ['b/t\u0007wo', Buffer.from('22')],
      ['dir/', Buffer.alloc(0)],
    ]);
    const seen: string[] = [];
    const entries: [string, string][] = [];
    for await (const e of zipEntries(file, 'a.zip')) {
      if ('skipped' in e) throw new Error(e.skipped);
      seen.push(e.path);
      entries.push([e.name, fs.readFileSync(e.path, 'latin1')]);
    }
    expect(entries).toEqual([
      ['a.zip/a/one', '1'],
      ['a.zip/b/two', '22'],
    ]);
    for (const p of seen) expect(fs.existsSync(p)).toBe(false);
    // A caller that stops early leaves nothing behind either.
    for await (const e of zipEntries(file, 'a.zip')) if (!('skipped' in e)) break;
    expect(leftovers(file)).toEqual([]);
  });

  it('stops at the entry count and total size limits', async () => {
    ZIP_LIMITS.entries = 2;
    const many = await zipFile([
      ['1', Buffer.from('1')],
      ['2', Buffer.from('2')],
      ['3', Buffer.from('3')],
    ]);
    expect(await all(many)).toEqual([['a.zip', 'archiveTooLarge']]);
    Object.assign(ZIP_LIMITS, saved, { totalBytes: 10 });
    const big = await zipFile([
      ['small', Buffer.alloc(6, 0x31)],
      ['more', Buffer.alloc(6, 0x32)],
    ]);
    expect(await all(big)).toEqual([
      ['a.zip/small', '111111'],
      ['a.zip/more', 'archiveTooLarge'],
    ]);
  });

  it('skips an entry over the per-entry limit without inflating it', async () => {
    ZIP_LIMITS.entryBytes = 100;
    const file = await zipFile([['huge', Buffer.alloc(1000, 3)]]);
    expect(await all(file)).toEqual([['a.zip/huge', 'tooLarge']]);
  });

  it('answers a damaged archive by its own name', async () => {
    const file = save(Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.alloc(64, 9)]));
    expect(await all(file)).toEqual([['a.zip', 'archiveDamaged']]);
  });
});

describe('archives cannot amplify (issue 19 §2)', () => {
  it('refuses the whole archive, before inflating anything, when central entries share one member', async () => {
    // 2,000 names for one 8 MiB member: 16 GiB to a reader that trusts the directory.
    const file = save(sharedMemberZip(2000));
    // Every inflated chunk passes the entry counter's checksum: none may have come.
    const inflated = vi.spyOn(zlib, 'crc32');
    expect(await all(file)).toEqual([['a.zip', 'zipBomb']]);
    expect(inflated).not.toHaveBeenCalled();
    inflated.mockRestore();
    expect(leftovers(file)).toEqual([]);
    // Two entries are enough.
    expect(await all(save(sharedMemberZip(2, 1024)))).toEqual([['a.zip', 'zipBomb']]);
  });

  it('refuses the whole archive when a local header lies inside another entry', async () => {
    expect(await all(save(nestedHeaderZip()))).toEqual([['a.zip', 'zipBomb']]);
  });

  it('keeps well-formed members apart, whatever their order in the directory', async () => {
    const a = member('a', Buffer.from('first'));
    const b = member('b', Buffer.from('second'), 0);
    const { body, offsets } = layout([a, b]);
    const reversed = finish(body, [central(b, offsets[1]!), central(a, offsets[0]!)]);
    expect(await all(save(reversed))).toEqual([
      ['a.zip/b', 'second'],
      ['a.zip/a', 'first'],
    ]);
  });

  it('refuses an entry whose CRC-32 does not match and leaves no file of it', async () => {
    const good = member('good.txt', Buffer.from('kept'));
    const file = save(badCrcZip('bad.dcm', Buffer.alloc(300_000, 5)));
    expect(await all(file)).toEqual([['a.zip/bad.dcm', 'archiveDamaged']]);
    expect(leftovers(file)).toEqual([]);
    // The other entries of the archive are not affected.
    const bad = member('bad.txt', Buffer.from('changed'));
    bad.crc = zlib.crc32(Buffer.from('original'));
    expect(await all(save(craftZip([bad, good])))).toEqual([
      ['a.zip/bad.txt', 'archiveDamaged'],
      ['a.zip/good.txt', 'kept'],
    ]);
  });

  it('cuts an entry off as soon as it inflates past its declared size, and counts those bytes in the budget', async () => {
    const liar = member('liar.bin', Buffer.alloc(4 * 1024 * 1024, 1));
    liar.size = 1000; // declares 1000 bytes, inflates 4 MiB
    const next = member('next.txt', Buffer.from('0123456789'));
    const file = save(craftZip([liar, next]));
    expect(await all(file)).toEqual([
      ['a.zip/liar.bin', 'zipBomb'],
      ['a.zip/next.txt', '0123456789'],
    ]);
    expect(leftovers(file)).toEqual([]);
    // The budget counts what was really inflated (more than the liar's 1000 declared bytes).
    ZIP_LIMITS.totalBytes = 1000 + 10;
    expect(await all(file)).toEqual([
      ['a.zip/liar.bin', 'zipBomb'],
      ['a.zip/next.txt', 'archiveTooLarge'],
    ]);
  });

  it('refuses an entry that inflates to fewer bytes than it declares', async () => {
    const short = member('short.bin', Buffer.alloc(1000, 1));
    short.size = 2000;
    expect(await all(save(craftZip([short])))).toEqual([['a.zip/short.bin', 'archiveDamaged']]);
  });

  it('streams a large entry through a file: memory stays flat', async () => {
    // 320 MiB of a repeated 16 KiB pseudo-random block (about 100:1, under the ratio limit),
    // deflated by a child process so that this one's memory is not disturbed.
    const size = 320 * 1024 * 1024;
    const deflated = path.join(dir, 'big.deflate');
    const crc = Number(
      execFileSync(process.execPath, ['-e', BIG_ENTRY, deflated, String(size)], { encoding: 'utf8' }).trim(),
    );
    const data = fs.readFileSync(deflated);
    const file = save(craftZip([{ name: 'big.bin', data, method: 8, crc, size }]));

    const before = process.memoryUsage().rss;
    const maxBefore = process.resourceUsage().maxRSS * 1024;
    let sampled = before;
    const sample = setInterval(() => (sampled = Math.max(sampled, process.memoryUsage().rss)), 5);
    const sizes: number[] = [];
    try {
      for await (const e of zipEntries(file, 'a.zip')) {
        if ('skipped' in e) throw new Error(e.skipped);
        sizes.push(fs.statSync(e.path).size);
      }
    } finally {
      clearInterval(sample);
    }
    // The process's peak catches what sampling cannot see (a synchronous spike).
    const maxAfter = process.resourceUsage().maxRSS * 1024;
    const peak = Math.max(sampled, process.memoryUsage().rss, maxAfter > maxBefore ? maxAfter : 0);
    expect(sizes).toEqual([size]);
    expect(peak - before).toBeLessThan(64 * 1024 * 1024);
  }, 30_000);
});
