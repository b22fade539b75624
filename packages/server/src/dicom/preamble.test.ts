import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { zeroFilePreamble, zeroPreamble, zeroPreambleStream } from './preamble.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yyp-preamble-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A Part 10 file whose preamble is a DOS executable header. */
function polyglot(rest = 1000): Buffer {
  const bytes = Buffer.alloc(132 + rest, 0x5a);
  bytes.fill(0x90, 0, 128);
  bytes.write('MZ', 0, 'latin1');
  bytes.write('DICM', 128, 'latin1');
  return bytes;
}

async function through(chunks: Buffer[]): Promise<Buffer> {
  const out: Buffer[] = [];
  for await (const c of Readable.from(chunks).pipe(zeroPreambleStream())) out.push(c as Buffer);
  return Buffer.concat(out);
}

const zeroed = (bytes: Buffer) => Buffer.concat([Buffer.alloc(128), bytes.subarray(128)]);

describe('preamble zeroing', () => {
  it('zeroes the preamble of a stream however it is cut, everything else unchanged', async () => {
    const bytes = polyglot(70_000);
    for (const size of [1, 7, 131, 132, 133, 4096, bytes.length]) {
      const chunks: Buffer[] = [];
      for (let at = 0; at < bytes.length; at += size) chunks.push(Buffer.from(bytes.subarray(at, at + size)));
      expect((await through(chunks)).equals(zeroed(bytes))).toBe(true);
    }
  });

  it('passes files that are not Part 10, and short ones, unchanged', async () => {
    const notDicom = Buffer.from('MZ'.padEnd(500, 'x'));
    expect((await through([notDicom])).equals(notDicom)).toBe(true);
    expect(await through([Buffer.from('MZ')])).toEqual(Buffer.from('MZ'));
    expect(await through([])).toEqual(Buffer.alloc(0));
  });

  it('does not change the buffers it is given', async () => {
    const bytes = polyglot();
    const copy = Buffer.from(bytes);
    await through([bytes]);
    expect(bytes.equals(copy)).toBe(true);
  });

  it('zeroes a buffer in place and a file on disk with one write', async () => {
    const bytes = polyglot();
    zeroPreamble(bytes);
    expect(bytes.equals(zeroed(polyglot()))).toBe(true);
    const file = path.join(dir, 'a.dcm');
    fs.writeFileSync(file, polyglot(5000));
    await zeroFilePreamble(file);
    expect(fs.readFileSync(file).equals(zeroed(polyglot(5000)))).toBe(true);
  });
});
