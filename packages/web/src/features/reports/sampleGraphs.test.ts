import { MAX_SAMPLE_POINTS, type SamplePoint } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import {
  clickMarks,
  graphFileProblem,
  labelPlacement,
  markAt,
  markSize,
  nextLabel,
  toImagePoint,
} from './sampleGraphs';

const mark = (x: number, y: number, label: string, color = '#f5222d'): SamplePoint => ({ x, y, color, label });

describe('markSize', () => {
  it('is a 12 px circle with a 24 px label on an image 400 high, scaled with the height', () => {
    expect(markSize(400)).toEqual({ radius: 12, fontSize: 24 });
    expect(markSize(800)).toEqual({ radius: 24, fontSize: 48 });
    expect(markSize(200)).toEqual({ radius: 6, fontSize: 12 });
  });

  it('drawn in image pixels, shows at 12 × displayed height / 400 whatever the image size', () => {
    const image = { width: 600, height: 900 };
    const displayedHeight = 300;
    const onScreen = markSize(image.height).radius * (displayedHeight / image.height);
    expect(onScreen).toBeCloseTo(markSize(displayedHeight).radius);
    expect(onScreen).toBeCloseTo((12 * displayedHeight) / 400);
  });
});

describe('toImagePoint', () => {
  const box = { left: 100, top: 50, width: 300, height: 200 };
  const image = { width: 600, height: 400 };

  it('maps a click on the shown image to the image pixel under it', () => {
    expect(toImagePoint(100, 50, box, image)).toEqual({ x: 0, y: 0 });
    expect(toImagePoint(250, 150, box, image)).toEqual({ x: 300, y: 200 });
    expect(toImagePoint(400, 250, box, image)).toEqual({ x: 600, y: 400 });
    expect(toImagePoint(175.3, 99.9, box, image)).toEqual({ x: 151, y: 100 });
  });

  it('is null outside the image or before it has a size', () => {
    expect(toImagePoint(99, 100, box, image)).toBeNull();
    expect(toImagePoint(200, 251, box, image)).toBeNull();
    expect(toImagePoint(0, 0, { left: 0, top: 0, width: 0, height: 0 }, image)).toBeNull();
  });
});

describe('markAt', () => {
  it('finds the mark within its radius (a little slack), the top one when marks overlap', () => {
    const points = [mark(100, 100, '1'), mark(110, 100, '2'), mark(300, 300, '3')];
    expect(markAt(points, 300, 300, 12)).toBe(2);
    expect(markAt(points, 300 + 14, 300, 12)).toBe(2);
    expect(markAt(points, 300 + 16, 300, 12)).toBe(-1);
    expect(markAt(points, 105, 100, 12)).toBe(1);
    expect(markAt(points, 200, 200, 12)).toBe(-1);
    expect(markAt([], 0, 0, 12)).toBe(-1);
  });
});

describe('nextLabel', () => {
  it('numbers from 1 and fills the gap a removed mark left', () => {
    expect(nextLabel([])).toBe('1');
    expect(nextLabel([mark(0, 0, '1'), mark(0, 0, '2')])).toBe('3');
    expect(nextLabel([mark(0, 0, '1'), mark(0, 0, '3')])).toBe('2');
    expect(nextLabel([mark(0, 0, 'A')])).toBe('1');
  });
});

describe('clickMarks', () => {
  it('adds the next numbered mark in the chosen colour where there is none', () => {
    const once = clickMarks([], { x: 50, y: 60 }, '#1677ff', 12);
    expect(once).toEqual([mark(50, 60, '1', '#1677ff')]);
    const twice = clickMarks(once ?? [], { x: 200, y: 60 }, '#000000', 12);
    expect(twice).toEqual([mark(50, 60, '1', '#1677ff'), mark(200, 60, '2', '#000000')]);
  });

  it('removes the mark clicked on', () => {
    const points = [mark(50, 60, '1'), mark(200, 60, '2')];
    expect(clickMarks(points, { x: 52, y: 58 }, '#000000', 12)).toEqual([mark(200, 60, '2')]);
  });

  it('adds nothing once the graph holds the most marks, but still removes', () => {
    const full = Array.from({ length: MAX_SAMPLE_POINTS }, (_, i) => mark(i * 40, 10, String(i + 1)));
    expect(clickMarks(full, { x: 20, y: 300 }, '#000000', 12)).toBeNull();
    expect(clickMarks(full, { x: 0, y: 10 }, '#000000', 12)).toHaveLength(MAX_SAMPLE_POINTS - 1);
  });
});

describe('labelPlacement', () => {
  it('puts the label right of the circle, left of it near the right edge', () => {
    expect(labelPlacement(mark(100, 100, '1'), 12, 24, 400)).toEqual({ x: 115, anchor: 'start' });
    expect(labelPlacement(mark(390, 100, '12'), 12, 24, 400)).toEqual({ x: 375, anchor: 'end' });
  });
});

describe('graphFileProblem', () => {
  it('takes PNG and JPEG up to 5 MB', () => {
    expect(graphFileProblem(new Blob(['x'], { type: 'image/png' }))).toBeNull();
    expect(graphFileProblem(new Blob(['x'], { type: 'image/jpeg' }))).toBeNull();
    expect(graphFileProblem(new Blob(['x'], { type: 'image/gif' }))).toBe('wrongType');
    expect(graphFileProblem(new Blob([new Uint8Array(5 * 1024 * 1024 + 1)], { type: 'image/png' }))).toBe('tooLarge');
  });
});
