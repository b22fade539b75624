import { describe, expect, it } from 'vitest';
import { addPicked, baseName, filesFromDrop, pickedFile, totalBytes } from './pickedFiles';

function fileEntry(path: string, size: number) {
  const file = new File([new Uint8Array(size)], path.split('/').pop() ?? path, { lastModified: 1 });
  return { isFile: true, isDirectory: false, fullPath: `/${path}`, file: (ok: (f: File) => void) => ok(file) };
}

/** A folder whose reader answers its children in batches of two, then an empty batch. */
function dirEntry(path: string, children: unknown[]) {
  return {
    isFile: false,
    isDirectory: true,
    fullPath: `/${path}`,
    createReader: () => {
      const left = [...children];
      return { readEntries: (ok: (batch: unknown[]) => void) => ok(left.splice(0, 2)) };
    },
  };
}

function dropOf(entries: unknown[]): DataTransfer {
  return {
    items: entries.map((entry) => ({ kind: 'file', webkitGetAsEntry: () => entry })),
    files: [],
  } as unknown as DataTransfer;
}

describe('picked files', () => {
  it('keeps the folder path, and lists a file chosen twice once', () => {
    const file = new File(['abc'], 'IM1', { lastModified: 5 });
    const a = pickedFile(file, 'CT/IM1');
    expect(a).toMatchObject({ path: 'CT/IM1', key: 'CT/IM1|3|5' });
    expect(addPicked([a], [pickedFile(file, 'CT/IM1'), pickedFile(file)])).toHaveLength(2);
    expect(totalBytes([a, pickedFile(file)])).toBe(6);
    expect(baseName('CT/series 2/IM1')).toBe('IM1');
  });

  it('walks dropped folders, reading every batch of entries', async () => {
    const drop = dropOf([
      dirEntry('study', [
        fileEntry('study/a.dcm', 1),
        dirEntry('study/s2', [fileEntry('study/s2/b.dcm', 2), fileEntry('study/s2/c.dcm', 3)]),
        fileEntry('study/notes.txt', 4),
      ]),
      fileEntry('loose.dcm', 5),
    ]);
    const files = await filesFromDrop(drop);
    expect(files.map((f) => f.path).sort()).toEqual([
      'loose.dcm',
      'study/a.dcm',
      'study/notes.txt',
      'study/s2/b.dcm',
      'study/s2/c.dcm',
    ]);
  });
});
