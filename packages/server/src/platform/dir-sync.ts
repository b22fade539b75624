import fsp from 'node:fs/promises';
import path from 'node:path';

/** fsync of a directory: makes the entries renamed or created in it durable. */
export async function fsyncDirectory(dir: string): Promise<void> {
  const handle = await fsp.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
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

  constructor(private readonly flush: (dir: string) => Promise<void> = fsyncDirectory) {}

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
