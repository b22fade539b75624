/**
 * Rendering a frame of a stored instance as an 8-bit image (issue 28 item 6; PS3.18 8.3.5, 9.5):
 * decoded (native here, encapsulated by the codecs), Modality LUT, VOI, MONOCHROME1 inversion or
 * colour conversion (pixels.ts), the viewport (viewport.ts), then JPEG (the codecs'
 * libjpeg-turbo, baseline) or PNG (png.ts).
 */
import dicomParser from 'dicom-parser';
import { decodeFrame, encodeJpegImage, NATIVE_SYNTAXES } from '../codecs/index.js';
import { frameBytes } from '../json-model.js';
import { pixelModuleOf, type PixelModule } from './pixel-module.js';
import { toImage, type Image } from './pixels.js';
import type { RenderedType, RenderParams } from './params.js';
import { nativeSamples, RenderError, type SampleValues } from './samples.js';
import { applyViewport } from './viewport.js';
import { encodePng } from './png.js';

export {
  DEFAULT_QUALITY,
  renderedType,
  renderParams,
  RenderParamError,
  RENDERED_TYPES,
  THUMBNAIL_SIZE,
} from './params.js';
export type { RenderedType, RenderParams } from './params.js';
export { RenderError } from './samples.js';
export type { Image } from './pixels.js';
export type { PixelModule } from './pixel-module.js';
export { encodePng } from './png.js';

/** A frame number past the instance's last: the route answers 404. */
export class NoSuchFrame extends Error {}

/**
 * The pixel module of a stored Part 10 file (its header is enough), or a RenderError when it has
 * no image to render.
 */
export function readPixelModule(file: Uint8Array): PixelModule {
  let ds: dicomParser.DataSet;
  try {
    ds = dicomParser.parseDicom(file, { untilTag: 'x7fe00010' });
  } catch (err) {
    throw new RenderError(`The instance cannot be read: ${String(err)}`);
  }
  if (!ds.elements.x7fe00010) throw new RenderError('The instance has no pixel data to render');
  const module = pixelModuleOf(ds);
  if (module.rows < 1 || module.columns < 1) throw new RenderError('The instance names no image size');
  return module;
}

/** One frame's bytes as frameBytes and the frame source cut them, in their transfer syntax. */
export interface FrameBytes {
  bytes: Uint8Array;
  transferSyntaxUid: string;
}

/** The samples of a frame and the pixel module they are read with (after decoding). */
async function frameSamples(
  frame: FrameBytes,
  module: PixelModule,
): Promise<{ values: SampleValues; module: PixelModule }> {
  if (NATIVE_SYNTAXES.has(frame.transferSyntaxUid)) return { values: nativeSamples(frame.bytes, module), module };
  const decoded = await decodeFrame(frame.bytes, frame.transferSyntaxUid, module);
  // Decoded samples are Bits Stored exact at bit 0, in the colour model the codec answers.
  return {
    values: decoded.pixels,
    module: {
      ...module,
      photometricInterpretation: decoded.photometricInterpretation,
      samplesPerPixel: decoded.samplesPerPixel,
      planarConfiguration: 0,
      highBit: module.bitsStored - 1,
    },
  };
}

/** A frame of an instance whose pixel module is `module`, as an 8-bit image windowed and fitted as asked. */
export async function renderFrame(frame: FrameBytes, module: PixelModule, params: RenderParams): Promise<Image> {
  const { values, module: read } = await frameSamples(frame, module);
  const image = toImage(values, read, { window: params.window, voiFunction: params.voiFunction });
  return applyViewport(image, params.viewport);
}

/** Frame n (1-based) of a stored Part 10 file whose pixel module is `module`; NoSuchFrame past its last. */
export function frameOfFile(file: Uint8Array, n: number, module: PixelModule): FrameBytes {
  if (!Number.isInteger(n) || n < 1 || n > module.frames) throw new NoSuchFrame(`frame ${n} of ${module.frames}`);
  return frameBytes(file, n);
}

/** Frame n (1-based) of a stored Part 10 file as an 8-bit image, windowed and fitted as asked. */
export async function renderImage(file: Uint8Array, n: number, params: RenderParams): Promise<Image> {
  const module = readPixelModule(file);
  return renderFrame(frameOfFile(file, n, module), module, params);
}

/** An image in the asked media type. */
export async function encodeImage(image: Image, type: RenderedType, quality: number): Promise<Uint8Array> {
  if (type === 'image/png') return encodePng(image);
  return encodeJpegImage(image.data, image.width, image.height, image.components, quality);
}
