import { describe, expect, it } from 'vitest';
import { toMeasurements } from './measurements';

describe('toMeasurements', () => {
  it('reads length, angle and ROI statistics with their units', () => {
    const list = toMeasurements([
      {
        annotationUID: 'a',
        metadata: { toolName: 'Length' },
        data: { cachedStats: { t: { length: 12.5, unit: 'mm' } } },
      },
      { annotationUID: 'b', metadata: { toolName: 'Angle' }, data: { cachedStats: { t: { angle: 45 } } } },
      {
        annotationUID: 'c',
        metadata: { toolName: 'EllipticalROI' },
        data: { cachedStats: { t: { mean: 0, stdDev: 0, area: 314.2, modalityUnit: 'HU', areaUnit: 'mm²' } } },
      },
      { annotationUID: 'd', metadata: { toolName: 'ArrowAnnotate' }, data: { text: 'nodule' } },
    ]);
    expect(list).toEqual([
      { uid: 'a', tool: 'Length', length: 12.5, unit: 'mm' },
      { uid: 'b', tool: 'Angle', angle: 45 },
      { uid: 'c', tool: 'EllipticalROI', mean: 0, stdDev: 0, area: 314.2, unit: 'HU', areaUnit: 'mm²' },
      { uid: 'd', tool: 'ArrowAnnotate', text: 'nodule' },
    ]);
  });

  it('skips annotations whose statistics are not computed yet or not numbers', () => {
    expect(
      toMeasurements([
        { annotationUID: 'x', metadata: { toolName: 'Length' }, data: {} },
        { annotationUID: 'y', metadata: { toolName: 'Length' }, data: { cachedStats: { t: { length: Number.NaN } } } },
        { annotationUID: 'z', metadata: { toolName: 'RectangleROI' }, data: { cachedStats: { t: undefined } } },
      ]),
    ).toEqual([]);
  });
});
