import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { DirSync, fd } from './dir-sync.js';
import { AppError } from './errors.js';

/**
 * The blob store (DESIGN.md "two stores"): DICOM instances, key images, attachments, PDFs and
 * packages. Keys are relative paths of safe characters. Writes are atomic: a reader sees the
 * whole blob or none of it, and a crash mid-write leaves only a temporary file, swept at start
 * (putNew: a file under a key nothing names yet, see there).
 */
export interface BlobStore {
  put(key: string, data: Uint8Array): Promise<void>;
  /**
   * Writes a blob under a key that is new (refused if it exists) and that nothing reads before
   * the caller publishes it, by committing a row naming it after this answers (ingest: a unique
   * suffix per arrival). The local store writes it in place instead of renaming a temporary file,
   * which saves a second journal commit per blob; a crash mid-write can leave a truncated file
   * under a key no row names, which is never served (`yyp reindex` reports it as unreadable).
   */
  putNew(key: string, data: Uint8Array): Promise<void>;
  putStream(key: string, source: Readable): Promise<number>;
  /**
   * Stores the local file at `file` under a new key, as putNew does (refused if the key exists,
   * durable when it answers), without holding it in memory: the file is taken, so it is gone from
   * `file` once this answers. On failure it may or may not still be there; nothing is left under
   * the key.
   */
  putFile(key: string, file: string): Promise<void>;
  get(key: string): Promise<Buffer>;
  /** A byte range [start, end] inclusive, or the whole blob. */
  stream(key: string, range?: { start: number; end: number }): Readable;
  /**
   * `length` bytes from `start`, in one positional read where the store allows it (WADO-RS frames
   * of a file whose layout is known); fewer when the blob ends sooner. Stores without it are read
   * through stream().
   */
  read?(key: string, start: number, length: number): Promise<Buffer>;
  size(key: string): Promise<number | null>;
  delete(key: string): Promise<void>;
  /**
   * A URL a browser PUTs one file to, straight into the store (spec 001 §7 policies/*). With
   * `size`, exactly that many bytes are accepted; never more than `maxBytes`, and only with the
   * signed content type.
   */
  presignPut?(key: string, options: PresignPutOptions): Promise<PresignedPut>;
  /** A URL that downloads the blob until it expires. */
  presignGet?(key: string, options: PresignGetOptions): Promise<string>;
}

/** How long a link to a stored image (a sample graph, a report's key image) serves. */
const IMAGE_LINK_TTL_S = 3600;

/** An expiring link that downloads a stored PNG or JPEG image as `<id>.png` or `<id>.jpg`. */
export async function imageLink(
  blobs: BlobStore,
  image: { id: string; blobKey: string; contentType: string },
): Promise<string> {
  if (!blobs.presignGet) {
    throw new AppError('ServiceNotConfigured', 'The blob store cannot issue download links');
  }
  return blobs.presignGet(image.blobKey, {
    expiresSeconds: IMAGE_LINK_TTL_S,
    contentType: image.contentType,
    fileName: `${image.id}.${image.contentType === 'image/png' ? 'png' : 'jpg'}`,
  });
}

export interface PresignPutOptions {
  contentType: string;
  maxBytes: number;
  /** the exact size the upload must have */
  size?: number;
  expiresSeconds: number;
}

export interface PresignedPut {
  method: 'PUT';
  url: string;
  /** headers the request must carry as they are (the content type is signed) */
  headers: Record<string, string>;
  /** seconds since the epoch */
  expiresAt: number;
}

export interface PresignGetOptions {
  expiresSeconds: number;
  /** offered as the download's file name (content-disposition attachment) */
  fileName?: string;
  contentType?: string;
  /**
   * Signing time (default now). A value rounded down to a window keeps the URL the same within
   * the window, so browsers can cache what it points at (avatars).
   */
  issuedAt?: Date;
}

/**
 * Direct transfer for the local store: it cannot sign URLs by itself, so yyp's own blob routes
 * (modules/blobs) stand in for the object store, with signed expiring tokens (platform/blob-links).
 */
export interface DirectLinks {
  put(key: string, options: PresignPutOptions): PresignedPut;
  get(key: string, options: PresignGetOptions): string;
}

/**
 * A new file, created exclusively, whose writes return once the data and the metadata needed to
 * read it back (its size) are on disk (O_DSYNC): the fsync is part of the write, one thread-pool
 * hop instead of two.
 */
const NEW_SYNCED = fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | (fs.constants.O_DSYNC ?? 0);

/**
 * Writes `data` in one write call into a new file (refused if it exists) and makes it durable.
 * `created` is called once the file exists (its directory entry made, not yet durable), while the
 * data is written.
 */
async function writeNewSynced(file: string, data: Uint8Array, created: () => void = () => undefined): Promise<void> {
  const n = await fd.open(file, NEW_SYNCED, 0o644);
  try {
    created();
    for (let at = 0; at < data.length;) at += (await fd.write(n, data, at, data.length - at, null)).bytesWritten;
    if (!fs.constants.O_DSYNC || data.length === 0) await fd.fdatasync(n);
  } finally {
    await fd.close(n);
  }
}

/** pread(2) through the thread pool, without fs/promises' FileHandle objects. */
const readAt = promisify(fs.read);

/** link(2) refusals that mean "not across these filesystems", where a copy does instead. */
const CANNOT_LINK = new Set(['EXDEV', 'EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EMLINK']);

/**
 * Copies `file` into the new file `target` (refused if it exists) and makes it durable; a failure
 * removes the target.
 */
async function copyNewSynced(file: string, target: string): Promise<void> {
  const out = await fd.open(target, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL, 0o644);
  try {
    await pipeline(fs.createReadStream(file), fs.createWriteStream('', { fd: out, autoClose: false }));
    await fd.fdatasync(out);
  } catch (err) {
    await fsp.rm(target, { force: true });
    throw err;
  } finally {
    await fd.close(out);
  }
}

const SAFE_KEY = /^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/;

export function assertSafeKey(key: string): void {
  if (!SAFE_KEY.test(key) || key.split('/').some((s) => s === '.' || s === '..')) {
    throw new Error(`unsafe blob key ${JSON.stringify(key.slice(0, 80))}`);
  }
}

export class LocalBlobStore implements BlobStore {
  private readonly tmp: string;
  private readonly made = new Set<string>();
  private readonly dirSync = new DirSync();
  private links: DirectLinks | null = null;

  constructor(private readonly root: string) {
    this.tmp = path.join(root, '.tmp');
    fs.mkdirSync(this.tmp, { recursive: true });
    // Leftovers of writes that never finished: nothing references them.
    for (const f of fs.readdirSync(this.tmp)) fs.rmSync(path.join(this.tmp, f), { force: true });
  }

  private file(key: string): string {
    assertSafeKey(key);
    return path.join(this.root, key);
  }

  private async commit(tmpFile: string, key: string): Promise<void> {
    const target = this.file(key);
    const dir = path.dirname(target);
    await this.ensureDir(dir);
    await fsp.rename(tmpFile, target);
    // The new name is durable only once its directory is flushed (shared with the blobs renamed
    // into it meanwhile): until then a power loss could leave the bytes under .tmp, swept at start.
    await this.dirSync.sync(dir);
  }

  /** Creates the directory once, its new entries made durable in their parents. */
  private async ensureDir(dir: string): Promise<void> {
    if (this.made.has(dir)) return;
    await this.dirSync.created(dir, await fsp.mkdir(dir, { recursive: true }));
    this.made.add(dir);
  }

  private tmpName(): string {
    return path.join(this.tmp, crypto.randomBytes(12).toString('hex'));
  }

  async put(key: string, data: Uint8Array): Promise<void> {
    this.file(key);
    const tmpFile = this.tmpName();
    await writeNewSynced(tmpFile, data);
    try {
      await this.commit(tmpFile, key);
    } catch (err) {
      await fsp.rm(tmpFile, { force: true });
      throw err;
    }
  }

  async putNew(key: string, data: Uint8Array): Promise<void> {
    const target = this.file(key);
    const dir = path.dirname(target);
    await this.ensureDir(dir);
    // The new name is made durable by a directory fsync that runs while the data is written: the
    // entry and the file's data and size are independent writes, and the blob is durable once
    // both are. (On ext4 with a journal and on XFS the file's fsync commits the entry too and the
    // directory fsync is nearly free; ext4 without a journal needs it.)
    let entry: Promise<void> | undefined;
    try {
      await writeNewSynced(target, data, () => {
        entry = this.dirSync.sync(dir);
        entry.catch(() => undefined); // awaited below
      });
      await entry;
    } catch (err) {
      await entry?.catch(() => undefined);
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') await fsp.rm(target, { force: true });
      throw err;
    }
  }

  async putStream(key: string, source: Readable): Promise<number> {
    this.file(key);
    const tmpFile = this.tmpName();
    let size = 0;
    source.on('data', (chunk: Buffer) => (size += chunk.length));
    const out = fs.createWriteStream(tmpFile);
    try {
      await pipeline(source, out);
      const handle = await fsp.open(tmpFile, 'r+');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
      await this.commit(tmpFile, key);
      return size;
    } catch (err) {
      // pipeline rejects as soon as the source fails, while the file may still be opening: it is
      // removed once the write stream has closed, or the open would create it again after the rm.
      if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()));
      await fsp.rm(tmpFile, { force: true });
      throw err;
    }
  }

  /**
   * Moves the file in (a hard link, then the old name removed) when it lies on the blob store's
   * filesystem, after making its data durable; otherwise copies it into a new file that is made
   * durable the same way, then removes it. The new name is made durable by a directory fsync, as
   * for putNew.
   */
  async putFile(key: string, file: string): Promise<void> {
    const target = this.file(key);
    const dir = path.dirname(target);
    await this.ensureDir(dir);
    try {
      const source = await fd.open(file, fs.constants.O_RDONLY);
      try {
        await fd.fdatasync(source);
      } finally {
        await fd.close(source);
      }
      await fsp.link(file, target);
    } catch (err) {
      if (!CANNOT_LINK.has((err as NodeJS.ErrnoException).code ?? '')) throw err;
      await copyNewSynced(file, target);
    }
    try {
      await this.dirSync.sync(dir);
    } catch (err) {
      await fsp.rm(target, { force: true });
      throw err;
    }
    await fsp.rm(file, { force: true });
  }

  get(key: string): Promise<Buffer> {
    return fsp.readFile(this.file(key));
  }

  stream(key: string, range?: { start: number; end: number }): Readable {
    return fs.createReadStream(this.file(key), range);
  }

  async read(key: string, start: number, length: number): Promise<Buffer> {
    const n = await fd.open(this.file(key), fs.constants.O_RDONLY);
    try {
      const out = Buffer.allocUnsafe(length);
      let got = 0;
      while (got < length) {
        const { bytesRead } = await readAt(n, out, got, length - got, start + got);
        if (bytesRead === 0) break;
        got += bytesRead;
      }
      return got === length ? out : out.subarray(0, got);
    } finally {
      await fd.close(n);
    }
  }

  async size(key: string): Promise<number | null> {
    try {
      return (await fsp.stat(this.file(key))).size;
    } catch {
      return null;
    }
  }

  async delete(key: string): Promise<void> {
    await fsp.rm(this.file(key), { force: true });
  }

  /** Turns on presigned transfer through the yyp blob routes (the app does this at start). */
  enableDirectTransfer(links: DirectLinks): void {
    this.links = links;
  }

  private directLinks(): DirectLinks {
    if (!this.links) throw new Error('direct transfer of the local blob store is not enabled');
    return this.links;
  }

  async presignPut(key: string, options: PresignPutOptions): Promise<PresignedPut> {
    assertSafeKey(key);
    return this.directLinks().put(key, options);
  }

  async presignGet(key: string, options: PresignGetOptions): Promise<string> {
    assertSafeKey(key);
    return this.directLinks().get(key, options);
  }
}
