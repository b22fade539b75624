/**
 * The pixel description and the frames of a Part 10 file, read with one parse: encapsulated
 * frames as their whole bit streams (PS3.5 A.4), native ones as little-endian bytes whatever the
 * file's byte order.
 */
import dicomParser from 'dicom-parser';
import { littleEndianValue } from '../endian.js';
import type { PixelDescription } from './decode.js';
import { CodecError } from './errors.js';
import { TS } from './syntaxes.js';

export interface PixelFrames {
  transferSyntaxUid: string;
  pixel: PixelDescription;
  frames: number;
  /** Frame n (0-based): the bit stream of an encapsulated frame, or native little-endian bytes. */
  frame(n: number): Uint8Array;
  /** The syntax frame() answers in: the stored one, or explicit VR little endian for native pixel data. */
  frameSyntax: string;
  dataSet: dicomParser.DataSet;
}

/** The Pixel Description (PS3.3 C.7.6.3) of a parsed data set. */
export function pixelDescriptionOf(ds: dicomParser.DataSet): PixelDescription {
  const samplesPerPixel = ds.uint16('x00280002') ?? 1;
  const bitsAllocated = ds.uint16('x00280100') ?? 16;
  return {
    rows: ds.uint16('x00280010') ?? 0,
    columns: ds.uint16('x00280011') ?? 0,
    bitsAllocated,
    bitsStored: ds.uint16('x00280101') ?? bitsAllocated,
    pixelRepresentation: ds.uint16('x00280103') ?? 0,
    samplesPerPixel,
    photometricInterpretation: ds.string('x00280004')?.trim() || (samplesPerPixel === 3 ? 'RGB' : 'MONOCHROME2'),
    planarConfiguration: ds.uint16('x00280006') ?? 0,
  };
}

/** Frame n's bytes among the fragments of encapsulated pixel data. */
function encapsulatedFrame(ds: dicomParser.DataSet, el: dicomParser.Element, frames: number, n: number): Uint8Array {
  const fragments = el.fragments ?? [];
  if (frames === 1) return dicomParser.readEncapsulatedPixelDataFromFragments(ds, el, 0, fragments.length);
  if (el.basicOffsetTable?.length) return dicomParser.readEncapsulatedImageFrame(ds, el, n, el.basicOffsetTable);
  // No offset table: one fragment per frame is the usual layout (PS3.5 A.4); otherwise JPEG markers tell.
  if (fragments.length === frames) return dicomParser.readEncapsulatedPixelDataFromFragments(ds, el, n, 1);
  const table = dicomParser.createJPEGBasicOffsetTable(ds, el);
  return dicomParser.readEncapsulatedImageFrame(ds, el, n, table);
}

/** The frames of a Part 10 file; CodecError when it has no pixel data or cannot be parsed. */
export function pixelFrames(file: Uint8Array): PixelFrames {
  let ds: dicomParser.DataSet;
  try {
    ds = dicomParser.parseDicom(file);
  } catch (err) {
    throw new CodecError(`the file cannot be parsed: ${String(err)}`, 'corrupt');
  }
  const transferSyntaxUid = ds.string('x00020010')?.trim() || TS.implicitLittle;
  const el = ds.elements.x7fe00010;
  if (!el) throw new CodecError('the instance has no pixel data', 'unsupported-pixels');
  const pixel = pixelDescriptionOf(ds);
  const frames = Number.parseInt(ds.string('x00280008') ?? '1', 10) || 1;
  if (el.encapsulatedPixelData) {
    return {
      transferSyntaxUid,
      pixel,
      frames,
      frameSyntax: transferSyntaxUid,
      dataSet: ds,
      frame: (n) => {
        try {
          return encapsulatedFrame(ds, el, frames, n);
        } catch (err) {
          throw new CodecError(`frame ${n + 1} cannot be read: ${String(err)}`, 'corrupt');
        }
      },
    };
  }
  const size = (pixel.rows * pixel.columns * pixel.samplesPerPixel * pixel.bitsAllocated) / 8;
  if (!Number.isInteger(size) || size <= 0 || frames * size > el.length) {
    throw new CodecError('the pixel data is shorter than its frames', 'unsupported-pixels');
  }
  const big = transferSyntaxUid === TS.explicitBig;
  return {
    transferSyntaxUid,
    pixel,
    frames,
    frameSyntax: TS.explicitLittle,
    dataSet: ds,
    frame: (n) => {
      const native = file.subarray(el.dataOffset + n * size, el.dataOffset + (n + 1) * size);
      return big ? littleEndianValue(native, el.vr ?? (pixel.bitsAllocated > 8 ? 'OW' : 'OB')) : native;
    },
  };
}
