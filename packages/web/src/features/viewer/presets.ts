/**
 * Window presets (width/level in modality units) offered per modality. CT values are the usual
 * radiology defaults; other modalities only get the DICOM-stored window and "auto" (min–max).
 */
export interface WindowPreset {
  id: 'lung' | 'mediastinum' | 'bone' | 'brain' | 'abdomen' | 'liver';
  width: number;
  center: number;
}

export const CT_PRESETS: readonly WindowPreset[] = [
  { id: 'lung', width: 1500, center: -600 },
  { id: 'mediastinum', width: 350, center: 50 },
  { id: 'bone', width: 2000, center: 300 },
  { id: 'brain', width: 80, center: 40 },
  { id: 'abdomen', width: 400, center: 40 },
  { id: 'liver', width: 150, center: 30 },
];

export function presetsFor(modality: string): readonly WindowPreset[] {
  return modality.toUpperCase() === 'CT' ? CT_PRESETS : [];
}

/**
 * The VOI range a window shows, by the linear function of DICOM PS3.3 C.11.2.1.2 (as Cornerstone
 * computes it from the stored window): [c − 0.5 − (w − 1)/2, c − 0.5 + (w − 1)/2].
 */
export function windowToRange(width: number, center: number): { lower: number; upper: number } {
  // At least two values wide: a one-value range has no slope to display.
  const w = Math.max(2, width);
  return { lower: center - 0.5 - (w - 1) / 2, upper: center - 0.5 + (w - 1) / 2 };
}

/** Width and level of a VOI range (the inverse of windowToRange), rounded for display. */
export function rangeToWindow(range: { lower: number; upper: number }): { width: number; center: number } {
  return {
    width: Math.round(range.upper - range.lower + 1),
    center: Math.round((range.upper + range.lower) / 2 + 0.5),
  };
}

export type Layout = '1x1' | '1x2' | '2x2';
export const LAYOUTS: readonly Layout[] = ['1x1', '1x2', '2x2'];

export function layoutCells(layout: Layout): number {
  return layout === '1x1' ? 1 : layout === '1x2' ? 2 : 4;
}

/**
 * Linked scrolling of two stacks: the offset between their positions is kept from when the link
 * was made, and the follower's index is clamped to its own stack.
 */
export function linkedIndex(leaderIndex: number, offset: number, followerLength: number): number {
  if (followerLength <= 0) return 0;
  return Math.min(followerLength - 1, Math.max(0, leaderIndex + offset));
}
