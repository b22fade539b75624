import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const DIRECTORY_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_DIRECTORY ?? 0);

/**
 * File-descriptor calls as promises: cheaper per call than fs/promises' FileHandle objects, which
 * matters on the ingest path (a few calls per instance).
 */
export const fd = {
  open: promisify(fs.open),
  write: promisify(fs.write),
  fsync: promisify(fs.fsync),
  fdatasync: promisify(fs.fdatasync),
  close: promisify(fs.close),
};
const closeQuietly = (n: number) => void fd.close(n).catch(() => undefined);

/**
 * fsync of directories through descriptors kept open (at most `max`, the least recently used
 * closed first): a directory that many instances arrive in (a series) costs one fsync per flush
 * instead of open, fsync and close, each a thread-pool hop. A descriptor that fails is closed and
 * the directory opened again next time.
 */
export class OpenDirectories {
  private readonly fds = new Map<string, { fd: number; busy: number; evicted: boolean }>();

  constructor(private readonly max = 64) {}

  readonly fsync = async (dir: string): Promise<void> => {
    let entry = this.fds.get(dir);
    if (entry) {
      this.fds.delete(dir); // re-inserted below: most recently used last
    } else {
      const opened = await fd.open(dir, DIRECTORY_FLAGS);
      // Opened concurrently by someone else meanwhile: keep theirs.
      const other = this.fds.get(dir);
      if (other) {
        closeQuietly(opened);
        this.fds.delete(dir);
      }
      entry = other ?? { fd: opened, busy: 0, evicted: false };
    }
    this.fds.set(dir, entry);
    this.evict();
    entry.busy++;
    try {
      await fd.fsync(entry.fd);
    } catch (err) {
      if (this.fds.get(dir) === entry) this.fds.delete(dir);
      entry.evicted = true;
      throw err;
    } finally {
      entry.busy--;
      if (entry.evicted && entry.busy === 0) closeQuietly(entry.fd);
    }
  };

  /** Descriptors held open now (for tests). */
  get size(): number {
    return this.fds.size;
  }

  /** Closes every descriptor (those in use once their fsync ends). */
  close(): void {
    for (const entry of this.fds.values()) this.drop(entry);
    this.fds.clear();
  }

  private evict(): void {
    for (const [dir, entry] of this.fds) {
      if (this.fds.size <= this.max) return;
      this.fds.delete(dir);
      this.drop(entry);
    }
  }

  private drop(entry: { fd: number; busy: number; evicted: boolean }): void {
    entry.evicted = true;
    if (entry.busy === 0) closeQuietly(entry.fd);
  }
}

/**
 * Directory fsyncs, group-committed: a request is served by the first fsync of that directory
 * that starts after it. Whoever asks while one runs shares the next one (which may be needed: the
 * running one may have started before their rename), so the instances of a series arriving
 * together cost one or two directory flushes, not one each.
 */
export class DirSync {
  private readonly dirs = new Map<string, { running: Promise<void>; next: Promise<void> | null }>();

  constructor(private readonly flush: (dir: string) => Promise<void> = new OpenDirectories().fsync) {}

  sync(dir: string): Promise<void> {
    const entry = this.dirs.get(dir);
    if (!entry) return this.start(dir);
    entry.next ??= entry.running.then(
      () => this.start(dir),
      () => this.start(dir),
    );
    return entry.next;
  }

  private start(dir: string): Promise<void> {
    const running: Promise<void> = this.flush(dir).finally(() => {
      const entry = this.dirs.get(dir);
      if (entry?.running === running && entry.next === null) this.dirs.delete(dir);
    });
    this.dirs.set(dir, { running, next: null });
    return running;
  }

  /**
   * After `fs.mkdir(dir, {recursive: true})` answered `created` (the first directory it made):
   * the new directories' entries made durable, each in its parent.
   */
  async created(dir: string, created: string | undefined): Promise<void> {
    if (!created) return;
    const parents: string[] = [];
    for (let d = path.resolve(dir); ; d = path.dirname(d)) {
      parents.push(path.dirname(d));
      if (d === path.resolve(created) || d === path.dirname(d)) break;
    }
    await Promise.all(parents.map((p) => this.sync(p)));
  }
}
