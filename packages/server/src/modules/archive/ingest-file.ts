import fs from 'node:fs/promises';
import { DicomError, parseInstanceHeader, type ParsedInstance } from '../../dicom/parse.js';
import { zeroFilePreamble } from '../../dicom/preamble.js';
import { storeAndIndex, type IngestDeps, type IngestResult, type IngestSource } from './ingest.js';

/**
 * Instance files from this size on are ingested from disk; smaller ones are read whole and take
 * the path C-STORE and STOW-RS instances take (one write, no extra open and link).
 */
export const LARGE_INSTANCE_BYTES = 32 * 1024 * 1024;
/** The first prefix read for the header: holds the header of nearly every real instance. */
const FIRST_PREFIX_BYTES = 1024 * 1024;
/** A header (all before the pixel data, or all the index reads) longer than this is refused. */
export const MAX_HEADER_BYTES = 32 * 1024 * 1024;

async function readPrefix(file: string, n: number): Promise<Buffer> {
  const handle = await fs.open(file, 'r');
  try {
    const buf = Buffer.alloc(n);
    let at = 0;
    while (at < n) {
      const { bytesRead } = await handle.read(buf, at, n - at, at);
      if (bytesRead === 0) break;
      at += bytesRead;
    }
    return buf.subarray(0, at);
  } finally {
    await handle.close();
  }
}

/**
 * parseInstance for a file of `size` bytes on disk, reading only its header: 1 MiB first, then
 * up to MAX_HEADER_BYTES when the header goes on past it. Memory holds the prefix, never the
 * pixel data.
 */
export async function parseInstanceFile(file: string, size: number): Promise<ParsedInstance> {
  for (let n = Math.min(size, FIRST_PREFIX_BYTES); ; n = Math.min(size, n * 8, MAX_HEADER_BYTES)) {
    const p = parseInstanceHeader(await readPrefix(file, n), size);
    if (p) return p;
    if (n >= MAX_HEADER_BYTES || n >= size) {
      throw new DicomError(`no readable header within the first ${Math.round(n / 1024 / 1024)} MiB`, 'malformed');
    }
  }
}

/**
 * The ingest of an instance that is a file on disk (an upload's file or zip entry), with memory
 * flat whatever its size: the header is parsed from a prefix, the preamble zeroed in the file
 * itself, and the file moved into the blob store (or streamed, when the store is elsewhere): it
 * is gone from `file` afterwards. Everything else is the ingest's own (rows, duplicates, plan
 * checks, refusals, notifications).
 */
export async function ingestFileInstance(
  deps: IngestDeps,
  input: { bucketId: string; file: string; size: number; source: IngestSource },
): Promise<IngestResult> {
  const { bucketId, file, size, source } = input;
  const p = await parseInstanceFile(file, size);
  await zeroFilePreamble(file);
  return storeAndIndex(deps, { bucketId, p, size, source }, (key) => deps.blobs.putFile(key, file));
}
