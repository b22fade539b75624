import fs from 'node:fs/promises';
import { pipeline, Transform, type Readable, type TransformCallback } from 'node:stream';
import type { BlobStore } from '../platform/blobs.js';

/**
 * The 128-byte preamble of a Part 10 file (PS3.10 7.1), before "DICM". PS3.10 leaves its content
 * to the application; kept as sent it could make the file an executable or another format at once
 * (CVE-2019-11687, "DICOM polyglots"). The ingest zeroes it in every stored instance, and every
 * route that serves stored files zeroes it again on the way out, for files stored before that.
 */
export const PREAMBLE = 128;
const MAGIC_END = PREAMBLE + 4;

/** The bytes start like a Part 10 file: a 128-byte preamble, then "DICM". */
export function isPart10(head: Uint8Array): boolean {
  return (
    head.length >= MAGIC_END && head[128] === 0x44 && head[129] === 0x49 && head[130] === 0x43 && head[131] === 0x4d
  );
}

/** Sets the preamble of Part 10 bytes to zeros, in place. */
export function zeroPreamble(bytes: Uint8Array): void {
  bytes.fill(0, 0, Math.min(PREAMBLE, bytes.length));
}

/** Sets the preamble of a Part 10 file on disk to zeros (one small write when it is not already). */
export async function zeroFilePreamble(file: string): Promise<void> {
  const handle = await fs.open(file, 'r+');
  try {
    const head = Buffer.alloc(PREAMBLE);
    const { bytesRead } = await handle.read(head, 0, PREAMBLE, 0);
    if (head.subarray(0, bytesRead).some((b) => b !== 0)) await handle.write(Buffer.alloc(bytesRead), 0, bytesRead, 0);
  } finally {
    await handle.close();
  }
}

/**
 * A stream of a stored file with its preamble zeroed when it is a Part 10 file (128 bytes then
 * "DICM"): the first 132 bytes are held until they are all there, everything after passes as it
 * comes. Anything else passes unchanged.
 */
export function zeroPreambleStream(): Transform {
  let head: Buffer | null = Buffer.alloc(0);
  const release = (stream: Transform) => {
    if (!head) return;
    // `head` is a copy (Buffer.concat), never the store's own buffer: zeroed in place.
    if (isPart10(head)) head.fill(0, 0, PREAMBLE);
    stream.push(head);
    head = null;
  };
  return new Transform({
    transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback) {
      if (!head) return done(null, chunk);
      head = Buffer.concat([head, chunk]);
      if (head.length >= MAGIC_END) release(this);
      done();
    },
    flush(done: TransformCallback) {
      release(this);
      done();
    },
  });
}

/**
 * A stored instance file as every route serves it (WADO-RS, study packages): streamed from the
 * blob store with its preamble zeroed. A read error of the store ends the stream with that error.
 */
export function servedInstance(blobs: BlobStore, key: string): Readable {
  return pipeline(blobs.stream(key), zeroPreambleStream(), () => undefined);
}
