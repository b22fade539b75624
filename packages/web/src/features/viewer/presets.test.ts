import { describe, expect, it } from 'vitest';
import { CT_PRESETS, layoutCells, linkedIndex, presetsFor, rangeToWindow, windowToRange } from './presets';

describe('window presets', () => {
  it('offers the CT presets for CT only', () => {
    expect(presetsFor('CT').map((p) => p.id)).toEqual(['lung', 'mediastinum', 'bone', 'brain', 'abdomen', 'liver']);
    expect(presetsFor('ct')).toBe(CT_PRESETS);
    for (const modality of ['MR', 'DX', 'US', 'CR', '']) expect(presetsFor(modality)).toEqual([]);
  });

  it('turns a window into a VOI range and back', () => {
    // DICOM's linear function: the stored 400/40 of the CT phantom is [-160, 239].
    expect(windowToRange(400, 40)).toEqual({ lower: -160, upper: 239 });
    expect(windowToRange(1500, -600)).toEqual({ lower: -1350, upper: 149 });
    expect(rangeToWindow({ lower: -160, upper: 239 })).toEqual({ width: 400, center: 40 });
    for (const p of CT_PRESETS) {
      expect(rangeToWindow(windowToRange(p.width, p.center))).toEqual({ width: p.width, center: p.center });
    }
  });

  it('never gives an empty range', () => {
    expect(windowToRange(0, 10)).toEqual({ lower: 9, upper: 10 });
    expect(windowToRange(1, 10)).toEqual(windowToRange(2, 10));
    expect(windowToRange(-5, 0).upper).toBeGreaterThan(windowToRange(-5, 0).lower);
  });
});

describe('layouts and linked scrolling', () => {
  it('counts cells per layout', () => {
    expect([layoutCells('1x1'), layoutCells('1x2'), layoutCells('2x2')]).toEqual([1, 2, 4]);
  });

  it('keeps the offset and clamps to the follower stack', () => {
    expect(linkedIndex(10, 0, 100)).toBe(10);
    expect(linkedIndex(10, 5, 100)).toBe(15);
    expect(linkedIndex(10, -20, 100)).toBe(0);
    expect(linkedIndex(99, 10, 50)).toBe(49);
    expect(linkedIndex(3, 0, 0)).toBe(0);
  });
});
