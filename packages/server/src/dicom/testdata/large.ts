/**
 * A large multi-frame instance written straight to a file: the header, then uncompressed pixel
 * data of zeros streamed in 1 MiB chunks, so making a file of hundreds of MB holds none of it in
 * memory. Its preamble is a DOS executable header, as a hostile sender's would be.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { newUid } from './uid.js';
import { DatasetBuilder, EXPLICIT_VR_LE, encodePart10, header, tag } from './writer.js';

/** Multi-frame Grayscale Word Secondary Capture Image Storage. */
const MULTIFRAME_WORD_SC = '1.2.840.10008.5.1.4.1.1.7.3';
const CHUNK = 1024 * 1024;

export interface LargeInstance {
  sopInstanceUid: string;
  studyInstanceUid: string;
  seriesInstanceUid: string;
  /** bytes in the file */
  size: number;
  /** SHA-256 of the file as it must be stored: preamble zeroed, every other byte as written */
  storedSha256: string;
}

export async function writeLargeInstance(
  file: string,
  opts: { frames: number; rows?: number; columns?: number; patientId?: string },
): Promise<LargeInstance> {
  const rows = opts.rows ?? 512;
  const columns = opts.columns ?? 512;
  const ids = { sopInstanceUid: newUid(), studyInstanceUid: newUid(), seriesInstanceUid: newUid() };
  const dataset = new DatasetBuilder()
    .text(tag(0x0008, 0x0016), 'UI', MULTIFRAME_WORD_SC)
    .text(tag(0x0008, 0x0018), 'UI', ids.sopInstanceUid)
    .text(tag(0x0008, 0x0060), 'CS', 'OT')
    .text(tag(0x0010, 0x0010), 'PN', 'LARGE^CLIP')
    .text(tag(0x0010, 0x0020), 'LO', opts.patientId ?? 'LARGE-1')
    .text(tag(0x0020, 0x000d), 'UI', ids.studyInstanceUid)
    .text(tag(0x0020, 0x000e), 'UI', ids.seriesInstanceUid)
    .integerString(tag(0x0020, 0x0013), 1)
    .uint16(tag(0x0028, 0x0002), 1)
    .text(tag(0x0028, 0x0004), 'CS', 'MONOCHROME2')
    .integerString(tag(0x0028, 0x0008), opts.frames)
    .uint16(tag(0x0028, 0x0010), rows)
    .uint16(tag(0x0028, 0x0011), columns)
    .uint16(tag(0x0028, 0x0100), 16)
    .uint16(tag(0x0028, 0x0101), 12)
    .uint16(tag(0x0028, 0x0102), 11)
    .uint16(tag(0x0028, 0x0103), 0);
  const pixels = rows * columns * 2 * opts.frames;
  const head = Buffer.concat([
    encodePart10({
      sopClassUid: MULTIFRAME_WORD_SC,
      sopInstanceUid: ids.sopInstanceUid,
      transferSyntax: EXPLICIT_VR_LE,
      dataset,
    }),
    header(tag(0x7fe0, 0x0010), 'OW', pixels, true),
  ]);
  const stored = crypto.createHash('sha256').update(head);
  head.fill(0x90, 0, 128);
  head.write('MZ', 0, 'latin1');
  const out = fs.createWriteStream(file);
  const zeros = Buffer.alloc(CHUNK);
  const write = (b: Buffer) =>
    new Promise<void>((resolve, reject) => {
      if (out.write(b)) resolve();
      else out.once('drain', resolve).once('error', reject);
    });
  await write(head);
  for (let left = pixels; left > 0; left -= CHUNK) {
    const chunk = left >= CHUNK ? zeros : zeros.subarray(0, left);
    stored.update(chunk);
    await write(chunk);
  }
  await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
  return { ...ids, size: head.length + pixels, storedSha256: stored.digest('hex') };
}
