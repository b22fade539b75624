// @vitest-environment jsdom
import { metaData, type Types } from '@cornerstonejs/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gspsPointToCanvas } from './imagePoint';

const IMAGE = 'wadors:test/studies/1/series/2/instances/3/frames/1';
const ORIGIN = [10, 20, 30];
const SPACING = 0.5;
/** Screen pixels per image pixel, and where the image's top left corner is on the canvas. */
const ZOOM = 4;
const CORNER = [100, 50];

/** An axial image: first pixel's centre (Image Position) at (10, 20, 30) mm, 0.5 mm pixels. */
const provider = (type: string, imageId: unknown) =>
  type === 'imagePlaneModule' && imageId === IMAGE
    ? {
        imagePositionPatient: ORIGIN,
        rowCosines: [1, 0, 0],
        columnCosines: [0, 1, 0],
        rowPixelSpacing: SPACING,
        columnPixelSpacing: SPACING,
      }
    : undefined;

beforeAll(() => metaData.addProvider(provider, 10_000));
afterAll(() => metaData.removeProvider(provider));

/**
 * Cornerstone's two worldToCanvas conventions for the same drawn image: WebGL puts Image Position at
 * the centre of the first pixel, the CPU path at its top left corner.
 */
const viewport = (cpu: boolean) => ({
  worldToCanvas: (world: Types.Point3): Types.Point2 => {
    const i = (world[0] - ORIGIN[0]!) / SPACING + (cpu ? 0 : 0.5);
    const j = (world[1] - ORIGIN[1]!) / SPACING + (cpu ? 0 : 0.5);
    return [CORNER[0]! + i * ZOOM, CORNER[1]! + j * ZOOM];
  },
});

describe('gspsPointToCanvas', () => {
  for (const cpu of [false, true]) {
    it(`lands GSPS points on the same spot of the drawn image (${cpu ? 'CPU' : 'WebGL'} rendering)`, () => {
      // The first pixel's top left corner, its centre, and a point inside the image (world points
      // are float32, hence the closeness).
      const at = (x: number, y: number) => gspsPointToCanvas(viewport(cpu), IMAGE, x, y, cpu)!.map((v) => v.toFixed(3));
      expect(at(0, 0)).toEqual(['100.000', '50.000']);
      expect(at(0.5, 0.5)).toEqual(['102.000', '52.000']);
      expect(at(90.1, 64.5)).toEqual(['460.400', '308.000']);
    });
  }

  it('answers null while the image has no geometry', () => {
    expect(gspsPointToCanvas(viewport(false), 'wadors:unknown/frames/1', 1, 1, false)).toBeNull();
  });
});
