import fs from 'node:fs';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import yauzl from 'yauzl';

/**
 * Study archives (a zip of a CD/DVD export or a folder) in uploads. An archive cannot amplify:
 * - entries whose data ranges overlap or share bytes (several central-directory entries naming one
 *   member, a local header inside another entry's data) refuse the whole archive before anything
 *   is inflated;
 * - declared sizes are checked before an entry is opened, and the bytes actually inflated are
 *   counted as they come: an entry that inflates past its declared size, the per-entry limit or
 *   the ratio limit is cut off at once, and the archive's budget counts real bytes, not declared;
 * - each entry streams to a temporary file (memory stays bounded whatever its size) whose CRC-32
 *   must match the archive's before it is handed on; a mismatch removes the file, so nothing of
 *   the entry is stored.
 * Nothing is written by entry name, so hostile names cannot reach the disk.
 */
export const ZIP_LIMITS = {
  entries: 50_000,
  /** one entry inflated (a large multi-frame instance fits) */
  entryBytes: 1024 * 1024 * 1024,
  /** the whole archive inflated */
  totalBytes: 16 * 1024 * 1024 * 1024,
  /** inflated/compressed ratio above which an entry larger than 1 MiB is taken for a bomb */
  ratio: 1000,
};

/** An entry to ingest (its bytes in a temporary file, removed when the next entry is asked for), or one skipped. */
export type ArchiveEntry = { name: string; path: string; size: number } | { name: string; skipped: ArchiveSkip };
export type ArchiveSkip = 'archiveDamaged' | 'archiveTooLarge' | 'tooLarge' | 'zipBomb' | 'nestedArchive' | 'encrypted';

const ZIP_MAGIC = [Buffer.from('PK\x03\x04', 'latin1'), Buffer.from('PK\x05\x06', 'latin1')];
const SMALL = 1024 * 1024;

export function isZip(head: Uint8Array): boolean {
  return ZIP_MAGIC.some((m) => head.length >= 4 && Buffer.from(head.subarray(0, 4)).equals(m));
}

/** Files a CD export or an OS adds that are not images: passed over without a report line. */
function ignorable(name: string): boolean {
  const base = name.split('/').pop() ?? name;
  return name.startsWith('__MACOSX/') || base.startsWith('._') || base === '.DS_Store' || /^DICOMDIR$/i.test(base);
}

function cleanName(name: string): string {
  return (
    [...name]
      .filter((ch) => ch.charCodeAt(0) >= 0x20 && ch.charCodeAt(0) !== 0x7f)
      .join('')
      .slice(0, 255) || '(unnamed)'
  );
}

function open(file: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.open(
      // Sizes are checked here, on the bytes actually inflated (yauzl would only say "damaged").
      file,
      { lazyEntries: true, autoClose: false, validateEntrySizes: false, strictFileNames: false },
      (err, zip) => (err || !zip ? reject(err ?? new Error('zip')) : resolve(zip)),
    ),
  );
}

async function centralDirectory(zip: yauzl.ZipFile): Promise<yauzl.Entry[] | 'archiveTooLarge'> {
  const entries: yauzl.Entry[] = [];
  return new Promise((resolve, reject) => {
    zip.on('entry', (e: yauzl.Entry) => {
      entries.push(e);
      if (entries.length > ZIP_LIMITS.entries) return resolve('archiveTooLarge');
      zip.readEntry();
    });
    zip.on('end', () => resolve(entries));
    zip.on('error', reject);
    zip.readEntry();
  });
}

/**
 * True when two entries' bytes overlap: each entry spans [its local header, the end of its
 * compressed data), the data starting after the local header's own name and extra field.
 */
async function overlapping(zip: yauzl.ZipFile, entries: yauzl.Entry[]): Promise<boolean> {
  const ranges: [number, number][] = [];
  for (const e of entries) {
    const { fileDataStart } = await zip.readLocalFileHeaderPromise(e, { minimal: true });
    ranges.push([e.relativeOffsetOfLocalHeader, fileDataStart + e.compressedSize]);
  }
  ranges.sort((a, b) => a[0] - b[0]);
  let end = -1;
  for (const [start, stop] of ranges) {
    if (start < end) return true;
    end = Math.max(end, stop);
  }
  return false;
}

class Refused extends Error {
  constructor(readonly reason: ArchiveSkip) {
    super(reason);
  }
}

/** Counts and checksums an entry's inflated bytes as they pass, cutting it off at its limits. */
class Meter extends Transform {
  bytes = 0;
  crc = 0;
  head = Buffer.alloc(0);

  constructor(
    private readonly entry: yauzl.Entry,
    private readonly budget: { left: number },
  ) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    this.budget.left -= chunk.length;
    const e = this.entry;
    // More than declared, or more than the ratio allows: a bomb.
    if (this.bytes > e.uncompressedSize) return done(new Refused('zipBomb'));
    if (this.bytes > SMALL && this.bytes > Math.max(e.compressedSize, 1) * ZIP_LIMITS.ratio) {
      return done(new Refused('zipBomb'));
    }
    if (this.bytes > ZIP_LIMITS.entryBytes) return done(new Refused('tooLarge'));
    if (this.budget.left < 0) return done(new Refused('archiveTooLarge'));
    this.crc = zlib.crc32(chunk, this.crc);
    if (this.head.length < 4) this.head = Buffer.concat([this.head, chunk.subarray(0, 4)]);
    done(null, chunk);
  }
}

function readStream(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<NodeJS.ReadableStream> {
  return new Promise((resolve, reject) =>
    zip.openReadStream(entry, (err, stream) =>
      err || !stream ? reject(err ?? new Error('zip entry')) : resolve(stream),
    ),
  );
}

/**
 * Inflates one entry into `target`, checking sizes and CRC-32. Answers the reason when it is
 * refused; the target file is then removed.
 */
async function extract(
  zip: yauzl.ZipFile,
  entry: yauzl.Entry,
  target: string,
  budget: { left: number },
): Promise<ArchiveSkip | { head: Buffer; size: number }> {
  const meter = new Meter(entry, budget);
  try {
    await pipeline(await readStream(zip, entry), meter, fs.createWriteStream(target));
    // Fewer bytes than declared, or other bytes than the archive's checksum says: damaged.
    if (meter.bytes !== entry.uncompressedSize || meter.crc !== entry.crc32) throw new Refused('archiveDamaged');
    return { head: meter.head, size: meter.bytes };
  } catch (err) {
    await fs.promises.rm(target, { force: true });
    // A broken deflate stream, an unsupported method, data past the end of the file: damaged.
    return err instanceof Refused ? err.reason : 'archiveDamaged';
  }
}

/**
 * The entries of the zip at `file`, in archive order, each inflated into the temporary file
 * `${file}.entry` (removed when the next entry is asked for, or when the caller stops). A damaged
 * or overlapping archive yields one skipped entry named after the archive and nothing else;
 * entries past the limits are skipped with their reason.
 */
export async function* zipEntries(file: string, archiveName: string): AsyncGenerator<ArchiveEntry> {
  let zip: yauzl.ZipFile;
  try {
    zip = await open(file);
  } catch {
    yield { name: archiveName, skipped: 'archiveDamaged' };
    return;
  }
  const target = `${file}.entry`;
  try {
    let entries: yauzl.Entry[] | 'archiveTooLarge';
    let overlap: boolean;
    try {
      entries = await centralDirectory(zip);
      overlap = entries !== 'archiveTooLarge' && (await overlapping(zip, entries));
    } catch {
      yield { name: archiveName, skipped: 'archiveDamaged' };
      return;
    }
    if (entries === 'archiveTooLarge' || overlap) {
      yield { name: archiveName, skipped: overlap ? 'zipBomb' : 'archiveTooLarge' };
      return;
    }
    let declared = 0;
    const budget = { left: ZIP_LIMITS.totalBytes };
    for (const entry of entries) {
      const name = `${archiveName}/${cleanName(entry.fileName)}`;
      if (entry.fileName.endsWith('/') || ignorable(entry.fileName)) continue;
      if (entry.isEncrypted()) {
        yield { name, skipped: 'encrypted' };
        continue;
      }
      // Declared sizes first: what is refused here is never inflated.
      const size = entry.uncompressedSize;
      declared += size;
      let skip: ArchiveSkip | null = null;
      if (size > ZIP_LIMITS.entryBytes) skip = 'tooLarge';
      else if (size > SMALL && size > Math.max(entry.compressedSize, 1) * ZIP_LIMITS.ratio) skip = 'zipBomb';
      else if (declared > ZIP_LIMITS.totalBytes || budget.left < size) skip = 'archiveTooLarge';
      const out = skip ?? (await extract(zip, entry, target, budget));
      if (typeof out === 'string') {
        yield { name, skipped: out };
        continue;
      }
      try {
        if (isZip(out.head)) {
          yield { name, skipped: 'nestedArchive' };
          continue;
        }
        yield { name, path: target, size: out.size };
      } finally {
        await fs.promises.rm(target, { force: true });
      }
    }
  } finally {
    zip.close();
    await fs.promises.rm(target, { force: true });
  }
}
