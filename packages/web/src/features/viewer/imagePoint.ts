import { utilities, type Types } from '@cornerstonejs/core';

/** What the mapping needs of a Cornerstone stack viewport. */
export interface WorldToCanvas {
  worldToCanvas: (world: Types.Point3) => Types.Point2;
}

/**
 * A presentation state's PIXEL point (PS3.3 C.10.5.1.2: 0,0 is the top left corner of the top left
 * pixel) on a viewport's canvas, or null while the image's geometry is not known.
 *
 * imageToWorldCoords uses the same corner (it takes off the half pixel to reach the first pixel's
 * centre, Image Position), and the WebGL path draws that centre at the first pixel's centre. The
 * CPU path (no GPU, or a software WebGL) draws Image Position at the first pixel's top left corner
 * instead (StackViewport.worldToCanvasCPU: (world − origin) / spacing is a corner-based pixel), so
 * there the point goes in half a pixel further to land on the same spot of the image.
 */
export function gspsPointToCanvas(
  viewport: WorldToCanvas,
  imageId: string,
  x: number,
  y: number,
  cpuRendering: boolean,
): [number, number] | null {
  const shift = cpuRendering ? 0.5 : 0;
  let world: Types.Point3 | undefined;
  try {
    world = utilities.imageToWorldCoords(imageId, [x + shift, y + shift]);
  } catch {
    // no imagePlaneModule yet
    return null;
  }
  if (!world) return null;
  const [cx, cy] = viewport.worldToCanvas(world);
  return [cx, cy];
}
