import { describe, expect, it } from 'vitest';
import { imageFromClipboard, imageProblem, moveItem } from './keyImages';

describe('moveItem', () => {
  it('moves one item up, down or across', () => {
    expect(moveItem(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b']);
    expect(moveItem(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
    expect(moveItem(['a', 'b', 'c'], 1, 1)).toEqual(['a', 'b', 'c']);
  });

  it('clamps the target and ignores an unknown source', () => {
    expect(moveItem(['a', 'b', 'c'], 0, 9)).toEqual(['b', 'c', 'a']);
    expect(moveItem(['a', 'b', 'c'], 2, -3)).toEqual(['c', 'a', 'b']);
    expect(moveItem(['a', 'b'], 5, 0)).toEqual(['a', 'b']);
  });
});

describe('imageProblem', () => {
  const file = (type: string, size: number) => new Blob([new Uint8Array(size)], { type });

  it('accepts a PNG or JPEG of at most 5 MB while there is room', () => {
    expect(imageProblem(file('image/png', 100), 0, 6)).toBeNull();
    expect(imageProblem(file('image/jpeg', 5 * 1024 * 1024), 5, 6)).toBeNull();
  });

  it('refuses a seventh image, another type, or more than 5 MB', () => {
    expect(imageProblem(file('image/png', 100), 6, 6)).toBe('full');
    expect(imageProblem(file('image/gif', 100), 0, 6)).toBe('wrongType');
    expect(imageProblem(file('image/png', 5 * 1024 * 1024 + 1), 0, 6)).toBe('tooLarge');
  });
});

describe('imageFromClipboard', () => {
  const png = new File([new Uint8Array(4)], 'shot.png', { type: 'image/png' });
  const clipboard = (items: { kind: string; type: string; file: File | null }[], files: File[] = []) =>
    ({
      items: items.map((i) => ({ kind: i.kind, type: i.type, getAsFile: () => i.file })),
      files,
    }) as unknown as DataTransfer;

  it('finds a pasted image among the items or the files', () => {
    expect(imageFromClipboard(clipboard([{ kind: 'file', type: 'image/png', file: png }]))).toBe(png);
    expect(imageFromClipboard(clipboard([], [png]))).toBe(png);
  });

  it('answers null for pasted text or nothing', () => {
    expect(imageFromClipboard(clipboard([{ kind: 'string', type: 'text/plain', file: null }]))).toBeNull();
    expect(imageFromClipboard(null)).toBeNull();
  });
});
