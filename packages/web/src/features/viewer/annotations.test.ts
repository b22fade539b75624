import type { ImageAnnotation } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { annotationShapes, annotationsOf } from './annotations';

const base: ImageAnnotation = { stateUid: '9', label: 'A', sopUid: '1', frames: [], graphics: [], texts: [] };
/** A canvas twice the image's size, shifted by 10 px. */
const toCanvas = (x: number, y: number): [number, number] => [x * 2 + 10, y * 2 + 10];

describe('presentation state shapes', () => {
  it('maps each graphic type and text to canvas shapes', () => {
    const shapes = annotationShapes(
      [
        {
          ...base,
          graphics: [
            { type: 'POLYLINE', points: [0, 0, 10, 0, 10, 10], filled: false },
            { type: 'POLYLINE', points: [0, 0, 10, 0, 10, 10, 0, 0], filled: true },
            { type: 'POINT', points: [5, 5], filled: false },
            { type: 'CIRCLE', points: [20, 20, 23, 24], filled: false },
            { type: 'ELLIPSE', points: [0, 0, 10, 10, 0, 10, 10, 0], filled: false },
          ],
          texts: [
            { text: 'anchored', box: null, anchor: [1, 2] },
            { text: 'boxed', box: [3, 4, 30, 8], anchor: null },
          ],
        },
      ],
      toCanvas,
    );
    expect(shapes).toEqual([
      {
        kind: 'polyline',
        points: [
          [10, 10],
          [30, 10],
          [30, 30],
        ],
        closed: false,
        filled: false,
      },
      {
        kind: 'polyline',
        points: [
          [10, 10],
          [30, 10],
          [30, 30],
          [10, 10],
        ],
        closed: true,
        filled: true,
      },
      { kind: 'point', at: [20, 20] },
      { kind: 'ellipse', center: [50, 50], rx: 10, ry: 10, rotation: 0, filled: false },
      {
        kind: 'ellipse',
        center: [20, 20],
        rx: Math.hypot(20, 20) / 2,
        ry: Math.hypot(20, 20) / 2,
        rotation: 45,
        filled: false,
      },
      { kind: 'text', at: [12, 14], text: 'anchored' },
      { kind: 'text', at: [16, 18], text: 'boxed' },
    ]);
  });

  it('leaves out graphics with too few points', () => {
    const shapes = annotationShapes(
      [
        {
          ...base,
          graphics: [
            { type: 'CIRCLE', points: [1, 1], filled: false },
            { type: 'ELLIPSE', points: [1, 1, 2, 2], filled: false },
          ],
        },
      ],
      toCanvas,
    );
    expect(shapes).toEqual([]);
  });

  it('picks the annotations of one frame of one image', () => {
    const all = [base, { ...base, frames: [2] }, { ...base, sopUid: '2' }];
    expect(annotationsOf(all, '1', 1)).toEqual([base]);
    expect(annotationsOf(all, '1', 2)).toEqual([base, { ...base, frames: [2] }]);
  });
});
