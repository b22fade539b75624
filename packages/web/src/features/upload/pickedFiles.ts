/** A file chosen for upload, with the path it had inside a chosen or dropped folder. */
export interface PickedFile {
  /** Path, size and modification time: the same file chosen twice is listed once. */
  key: string;
  file: File;
  /** Relative path inside the folder ("CT/series1/IM0001"), or the bare name. */
  path: string;
}

export function pickedFile(file: File, path?: string): PickedFile {
  const where = path || file.webkitRelativePath || file.name;
  return { key: `${where}|${file.size}|${file.lastModified}`, file, path: where };
}

const byPath = (a: PickedFile, b: PickedFile) => a.path.localeCompare(b.path, undefined, { numeric: true });

/** The chosen files plus `added` (in path order), without repeating one already chosen. */
export function addPicked(current: readonly PickedFile[], added: readonly PickedFile[]): PickedFile[] {
  const seen = new Set(current.map((p) => p.key));
  const next = [...current];
  for (const picked of [...added].sort(byPath)) {
    if (!seen.has(picked.key)) {
      seen.add(picked.key);
      next.push(picked);
    }
  }
  return next;
}

export function totalBytes(files: readonly PickedFile[]): number {
  return files.reduce((sum, picked) => sum + picked.file.size, 0);
}

/** The name the server records a skipped file under: the last part of its path. */
export function baseName(path: string): string {
  return (path.split('/').pop() ?? path).slice(0, 255);
}

function readAllEntries(reader: FileSystemDirectoryReader): Promise<FileSystemEntry[]> {
  return new Promise((resolve, reject) => {
    const all: FileSystemEntry[] = [];
    // readEntries answers in batches (about 100 at a time) until it answers an empty one.
    const next = () =>
      reader.readEntries((batch) => {
        if (batch.length === 0) {
          resolve(all);
        } else {
          all.push(...batch);
          next();
        }
      }, reject);
    next();
  });
}

async function filesOfEntry(entry: FileSystemEntry): Promise<PickedFile[]> {
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject));
    return [pickedFile(file, entry.fullPath.replace(/^\/+/, ''))];
  }
  if (entry.isDirectory) {
    const children = await readAllEntries((entry as FileSystemDirectoryEntry).createReader());
    return (await Promise.all(children.map(filesOfEntry))).flat();
  }
  return [];
}

/**
 * The files of a drop, walking into dropped folders. The entries must be taken while the drop
 * event runs (the browser empties the list afterwards); reading them may take longer.
 */
export function filesFromDrop(dataTransfer: DataTransfer): Promise<PickedFile[]> {
  const entries = [...dataTransfer.items]
    .filter((item) => item.kind === 'file')
    .map((item) => item.webkitGetAsEntry?.() ?? null);
  if (entries.length > 0 && entries.every((entry) => entry !== null)) {
    return Promise.all(entries.map((entry) => filesOfEntry(entry as FileSystemEntry))).then((lists) => lists.flat());
  }
  return Promise.resolve([...dataTransfer.files].map((file) => pickedFile(file)));
}
