import yauzl from 'yauzl';

/**
 * Study archives (a zip of a CD/DVD export or a folder) in uploads: each entry is read into
 * memory one at a time and handed on; nothing is written by entry name, so hostile names cannot
 * reach the disk. Limits stop zip bombs before they inflate: declared sizes are checked before an
 * entry is opened and yauzl verifies the real inflated size against them.
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

/** An entry to ingest, or one skipped with a reason code (shown by the upload wizard). */
export type ArchiveEntry = { name: string; bytes: Buffer } | { name: string; skipped: ArchiveSkip };
export type ArchiveSkip = 'archiveDamaged' | 'archiveTooLarge' | 'tooLarge' | 'zipBomb' | 'nestedArchive' | 'encrypted';

const ZIP_MAGIC = [Buffer.from('PK\x03\x04', 'latin1'), Buffer.from('PK\x05\x06', 'latin1')];

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
      file,
      { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: false },
      (err, zip) => (err || !zip ? reject(err ?? new Error('zip')) : resolve(zip)),
    ),
  );
}

function read(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    zip.openReadStream(entry, (err, stream) => {
      if (err || !stream) return reject(err ?? new Error('zip entry'));
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('error', reject);
      stream.on('end', () => resolve(Buffer.concat(chunks)));
    }),
  );
}

/**
 * The entries of the zip at `file`, in archive order. A damaged archive yields one skipped entry
 * named after the archive; entries past the limits are skipped with their reason.
 */
export async function* zipEntries(file: string, archiveName: string): AsyncGenerator<ArchiveEntry> {
  let zip: yauzl.ZipFile;
  try {
    zip = await open(file);
  } catch {
    yield { name: archiveName, skipped: 'archiveDamaged' };
    return;
  }
  const entries: yauzl.Entry[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('entry', (e: yauzl.Entry) => {
        entries.push(e);
        if (entries.length > ZIP_LIMITS.entries) {
          reject(new Error('too many entries'));
          return;
        }
        zip.readEntry();
      });
      zip.on('end', resolve);
      zip.on('error', reject);
      zip.readEntry();
    });
  } catch {
    zip.close();
    yield { name: archiveName, skipped: entries.length > ZIP_LIMITS.entries ? 'archiveTooLarge' : 'archiveDamaged' };
    return;
  }
  let total = 0;
  try {
    for (const entry of entries) {
      const name = `${archiveName}/${cleanName(entry.fileName)}`;
      if (entry.fileName.endsWith('/') || ignorable(entry.fileName)) continue;
      if (entry.isEncrypted()) {
        yield { name, skipped: 'encrypted' };
        continue;
      }
      const size = entry.uncompressedSize;
      if (size > ZIP_LIMITS.entryBytes) {
        yield { name, skipped: 'tooLarge' };
        continue;
      }
      if (size > 1024 * 1024 && size > Math.max(entry.compressedSize, 1) * ZIP_LIMITS.ratio) {
        yield { name, skipped: 'zipBomb' };
        continue;
      }
      total += size;
      if (total > ZIP_LIMITS.totalBytes) {
        yield { name, skipped: 'archiveTooLarge' };
        continue;
      }
      let bytes: Buffer;
      try {
        bytes = await read(zip, entry);
      } catch {
        // Inflated size differs from the declared one, bad CRC, or a broken stream.
        yield { name, skipped: 'archiveDamaged' };
        continue;
      }
      if (isZip(bytes)) {
        yield { name, skipped: 'nestedArchive' };
        continue;
      }
      yield { name, bytes };
    }
  } finally {
    zip.close();
  }
}
