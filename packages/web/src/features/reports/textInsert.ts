/** Where a textarea's caret or selection is: the offsets of its value. */
export interface Selection {
  start: number;
  end: number;
}

/**
 * The text after inserting `insert` at the caret (replacing a selection), and where the caret goes:
 * right after the inserted text. Offsets outside the value are clamped; without a known caret the
 * text goes at the end.
 */
export function insertAtCursor(
  value: string,
  insert: string,
  selection: Selection | null,
): { value: string; cursor: number } {
  const clamp = (n: number) => Math.min(Math.max(n, 0), value.length);
  const start = selection ? clamp(Math.min(selection.start, selection.end)) : value.length;
  const end = selection ? clamp(Math.max(selection.start, selection.end)) : value.length;
  return { value: value.slice(0, start) + insert + value.slice(end), cursor: start + insert.length };
}

/** The selected text of a textarea, trimmed ('' when nothing is selected). */
export function selectedText(value: string, selection: Selection | null): string {
  if (!selection) {
    return '';
  }
  return value.slice(Math.min(selection.start, selection.end), Math.max(selection.start, selection.end)).trim();
}
