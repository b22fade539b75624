import { KEY_IMAGE_MAX_BYTES, KEY_IMAGE_TYPES } from '@yyp/contracts';

/** The ids with the one at `from` moved to `to` (both clamped to the list). */
export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  const out = [...items];
  if (from < 0 || from >= out.length) {
    return out;
  }
  const [moved] = out.splice(from, 1) as [T];
  out.splice(Math.min(Math.max(to, 0), out.length), 0, moved);
  return out;
}

export type ImageProblem = 'wrongType' | 'tooLarge' | 'full';

/** Why a file cannot become a key image (spec 000 §5: PNG or JPEG, ≤ 5 MB, at most 6), or null. */
export function imageProblem(file: Blob, count: number, limit: number): ImageProblem | null {
  if (count >= limit) {
    return 'full';
  }
  if (!(KEY_IMAGE_TYPES as readonly string[]).includes(file.type)) {
    return 'wrongType';
  }
  if (file.size > KEY_IMAGE_MAX_BYTES) {
    return 'tooLarge';
  }
  return null;
}

/** The first image among pasted or dropped data, if any. */
export function imageFromClipboard(data: DataTransfer | null): File | null {
  if (!data) {
    return null;
  }
  for (const item of Array.from(data.items ?? [])) {
    if (item.kind === 'file' && item.type.startsWith('image/')) {
      const file = item.getAsFile();
      if (file) {
        return file;
      }
    }
  }
  return Array.from(data.files ?? []).find((f) => f.type.startsWith('image/')) ?? null;
}
