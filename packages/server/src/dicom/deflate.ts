/**
 * Deflated Explicit VR Little Endian (PS3.5 A.5): accepted by inflating the data set once, on the
 * way in, into Explicit VR Little Endian; the archive stores and serves that (the parser itself
 * still refuses a deflated file, parse.ts). Inflating is bounded: a data set that would grow past
 * MAX_INFLATED_BYTES is refused as malformed rather than filling memory (a few MB of deflate can
 * ask for gigabytes), and it runs off the event loop (zlib's thread pool).
 */
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { EXPLICIT_VR_LE } from './dataset-writer.js';
import { DicomError } from './parse.js';
import { part10Dataset, toPart10 } from './part10.js';

export const DEFLATED_EXPLICIT_LE = '1.2.840.10008.1.2.1.99';
/** The largest data set a deflated one may inflate to. */
export const MAX_INFLATED_BYTES = 256 * 1024 * 1024;

const inflateRaw = promisify(zlib.inflateRaw);

/** A deflated data set inflated (its bytes, explicit VR little endian); DicomError when corrupt or too large. */
export async function inflateDataset(deflated: Uint8Array): Promise<Buffer> {
  try {
    return await inflateRaw(deflated, { maxOutputLength: MAX_INFLATED_BYTES });
  } catch (err) {
    const tooLarge = (err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE';
    throw new DicomError(
      tooLarge
        ? `the deflated data set inflates to more than ${MAX_INFLATED_BYTES / 1024 / 1024} MiB`
        : 'the deflated data set is corrupt',
      'malformed',
    );
  }
}

/**
 * A Part 10 file as the archive keeps it: a deflated one rewritten in Explicit VR Little Endian
 * (its File Meta Information yyp's own, as for C-STORE), any other returned as it is.
 */
export async function inflatedPart10(file: Uint8Array): Promise<Uint8Array> {
  let meta;
  try {
    meta = part10Dataset(Buffer.from(file.buffer, file.byteOffset, file.byteLength));
  } catch {
    return file; // not Part 10: the parser says why
  }
  if (meta.transferSyntaxUid !== DEFLATED_EXPLICIT_LE) return file;
  return toPart10(await inflateDataset(meta.dataset), {
    sopClassUid: meta.sopClassUid,
    sopInstanceUid: meta.sopInstanceUid,
    transferSyntaxUid: EXPLICIT_VR_LE,
  });
}
