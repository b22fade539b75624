/**
 * Sibling order of knowledge-base items: each item holds a double `position`; moving one puts it
 * at the midpoint of its new neighbours, so a move writes one row. When repeated moves into the
 * same gap leave too little room for another midpoint, the siblings are renumbered instead.
 */

/** The gap between renumbered neighbours, and the step past the last or before the first. */
export const POSITION_STEP = 1024;
/** Below this gap a midpoint is no longer taken: the siblings are renumbered. */
export const MIN_POSITION_GAP = 1e-6;

export interface Positioned {
  id: string;
  position: number;
}

export type Placement =
  /** the moving item takes this position; nothing else changes */
  | { kind: 'set'; position: number }
  /** every sibling (the moving one included) takes the position given, in this order */
  | { kind: 'renumber'; order: Positioned[] };

/** The position of an item added after the last of `siblings` (ordered by position). */
export function appendPosition(siblings: readonly Positioned[]): number {
  const last = siblings.at(-1);
  return last ? last.position + POSITION_STEP : POSITION_STEP;
}

/**
 * Where `movingId` goes to sit right after `preId` (null: first) among `siblings`, ordered by
 * position (the moving item may be among them, when it stays in its folder). Null when preId is
 * not one of the other siblings.
 */
export function placeAfter(siblings: readonly Positioned[], movingId: string, preId: string | null): Placement | null {
  const others = siblings.filter((s) => s.id !== movingId);
  const at = preId === null ? -1 : others.findIndex((s) => s.id === preId);
  if (preId !== null && at < 0) return null;
  const prev = at >= 0 ? others[at] : undefined;
  const next = others[at + 1];
  if (!prev && !next) return { kind: 'set', position: POSITION_STEP };
  if (!prev) return { kind: 'set', position: next!.position - POSITION_STEP };
  if (!next) return { kind: 'set', position: prev.position + POSITION_STEP };
  const mid = prev.position + (next.position - prev.position) / 2;
  if (next.position - prev.position >= MIN_POSITION_GAP && mid > prev.position && mid < next.position) {
    return { kind: 'set', position: mid };
  }
  const ids = others.map((s) => s.id);
  ids.splice(at + 1, 0, movingId);
  return { kind: 'renumber', order: ids.map((id, i) => ({ id, position: (i + 1) * POSITION_STEP })) };
}

/** Applies a placement to the siblings, answering them in their new order (for tests and callers). */
export function applyPlacement(siblings: readonly Positioned[], movingId: string, placement: Placement): Positioned[] {
  if (placement.kind === 'renumber') return placement.order;
  const rest = siblings.filter((s) => s.id !== movingId);
  return [...rest, { id: movingId, position: placement.position }].sort(
    (a, b) => a.position - b.position || a.id.localeCompare(b.id),
  );
}
