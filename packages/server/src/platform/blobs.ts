import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * The blob store (DESIGN.md "two stores"): DICOM instances, key images, attachments, PDFs and
 * packages. Keys are relative paths of safe characters. Writes are atomic: a reader sees the
 * whole blob or none of it, and a crash mid-write leaves only a temporary file, swept at start.
 */
export interface BlobStore {
  put(key: string, data: Uint8Array): Promise<void>;
  putStream(key: string, source: Readable): Promise<number>;
  get(key: string): Promise<Buffer>;
  /** A byte range [start, end] inclusive, or the whole blob. */
  stream(key: string, range?: { start: number; end: number }): Readable;
  size(key: string): Promise<number | null>;
  delete(key: string): Promise<void>;
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
    if (!this.made.has(dir)) {
      await fsp.mkdir(dir, { recursive: true });
      this.made.add(dir);
    }
    await fsp.rename(tmpFile, target);
  }

  private tmpName(): string {
    return path.join(this.tmp, crypto.randomBytes(12).toString('hex'));
  }

  async put(key: string, data: Uint8Array): Promise<void> {
    this.file(key);
    const tmpFile = this.tmpName();
    const handle = await fsp.open(tmpFile, 'w');
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      await this.commit(tmpFile, key);
    } catch (err) {
      await fsp.rm(tmpFile, { force: true });
      throw err;
    }
  }

  async putStream(key: string, source: Readable): Promise<number> {
    this.file(key);
    const tmpFile = this.tmpName();
    let size = 0;
    source.on('data', (chunk: Buffer) => (size += chunk.length));
    try {
      await pipeline(source, fs.createWriteStream(tmpFile));
      const handle = await fsp.open(tmpFile, 'r+');
      await handle.sync();
      await handle.close();
      await this.commit(tmpFile, key);
      return size;
    } catch (err) {
      await fsp.rm(tmpFile, { force: true });
      throw err;
    }
  }

  get(key: string): Promise<Buffer> {
    return fsp.readFile(this.file(key));
  }

  stream(key: string, range?: { start: number; end: number }): Readable {
    return fs.createReadStream(this.file(key), range);
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
}
