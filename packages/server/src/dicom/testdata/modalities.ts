/**
 * Modality-specific attributes (the CT/MR/DX/US image modules and the Image Pixel module) and
 * pixel data for each generated instance.
 */
import { CT_PHANTOM, fillCtSlice, fillDxImage, fillMrSlice, fillUsClip } from './pixels.js';
import { DatasetBuilder, tag } from './writer.js';

export type Modality = 'CT' | 'MR' | 'DX' | 'US';

export const SOP_CLASS = {
  CT: '1.2.840.10008.5.1.4.1.1.2',
  MR: '1.2.840.10008.5.1.4.1.1.4',
  DX: '1.2.840.10008.5.1.4.1.1.1.1',
  US: '1.2.840.10008.5.1.4.1.1.3.1',
} as const satisfies Record<Modality, string>;

export interface ModalityDefaults {
  instancesPerSeries: number;
  rows: number;
  columns: number;
  bodyPart: string;
  seriesDescription: string;
}

export const MODALITY_DEFAULTS: Record<Modality, ModalityDefaults> = {
  CT: { instancesPerSeries: 20, rows: 512, columns: 512, bodyPart: 'CHEST', seriesDescription: 'CHEST 1.25mm' },
  MR: { instancesPerSeries: 10, rows: 256, columns: 256, bodyPart: 'HEAD', seriesDescription: 'AX T2 SE' },
  DX: { instancesPerSeries: 1, rows: 1024, columns: 1024, bodyPart: 'CHEST', seriesDescription: 'CHEST PA' },
  US: { instancesPerSeries: 1, rows: 480, columns: 640, bodyPart: 'ABDOMEN', seriesDescription: 'ABDOMEN CLIP' },
};

export interface ImageContext {
  /** 0-based position of the instance in its series. */
  index: number;
  rows: number;
  columns: number;
  /** US clip length. */
  frames: number;
  usPhotometric: 'MONOCHROME2' | 'RGB';
}

export interface PixelData {
  vr: 'OB' | 'OW';
  bytes: Uint8Array;
}

const MONOCHROME_16 = { bitsAllocated: 16, bitsStored: 12 };

function imagePixel(
  ds: DatasetBuilder,
  ctx: ImageContext,
  photometric: string,
  samples: number,
  bits: { bitsAllocated: number; bitsStored: number },
): void {
  ds.uint16(tag(0x0028, 0x0002), samples)
    .text(tag(0x0028, 0x0004), 'CS', photometric)
    .uint16(tag(0x0028, 0x0010), ctx.rows)
    .uint16(tag(0x0028, 0x0011), ctx.columns)
    .uint16(tag(0x0028, 0x0100), bits.bitsAllocated)
    .uint16(tag(0x0028, 0x0101), bits.bitsStored)
    .uint16(tag(0x0028, 0x0102), bits.bitsStored - 1)
    .uint16(tag(0x0028, 0x0103), 0);
  if (samples > 1) {
    ds.uint16(tag(0x0028, 0x0006), 0);
  }
}

/** Axial plane: patient-based position of the first pixel and the slice location. */
function axialPlane(ds: DatasetBuilder, ctx: ImageContext, spacing: number, thickness: number): void {
  const z = -ctx.index * thickness;
  ds.decimal(tag(0x0018, 0x0050), thickness)
    .text(tag(0x0018, 0x5100), 'CS', 'HFS')
    .decimal(tag(0x0020, 0x0032), [(-ctx.columns / 2) * spacing, (-ctx.rows / 2) * spacing, z])
    .decimal(tag(0x0020, 0x0037), [1, 0, 0, 0, 1, 0])
    .decimal(tag(0x0020, 0x1041), z)
    .decimal(tag(0x0028, 0x0030), [spacing, spacing]);
}

// One scratch slice per size: the encoder copies it into the file right away, so reusing it
// avoids allocating half a megabyte per CT slice.
const scratch = new Map<number, Uint16Array>();
function scratchSlice(pixels: number): Uint16Array {
  let buf = scratch.get(pixels);
  if (!buf) {
    buf = new Uint16Array(pixels);
    scratch.set(pixels, buf);
  }
  return buf;
}

function words(view: Uint16Array): PixelData {
  return { vr: 'OW', bytes: new Uint8Array(view.buffer, view.byteOffset, view.byteLength) };
}

/** CT Image module; pixels are the phantom of pixels.ts (stored = HU + 1024). */
export function ctImage(ds: DatasetBuilder, ctx: ImageContext): PixelData {
  const spacing = CT_PHANTOM.fieldOfViewMm / ctx.columns;
  ds.text(tag(0x0008, 0x0008), 'CS', ['ORIGINAL', 'PRIMARY', 'AXIAL'])
    .decimal(tag(0x0018, 0x0060), 120)
    .decimal(tag(0x0018, 0x1100), CT_PHANTOM.fieldOfViewMm)
    .decimal(tag(0x0028, 0x1050), CT_PHANTOM.windowCenter)
    .decimal(tag(0x0028, 0x1051), CT_PHANTOM.windowWidth)
    .decimal(tag(0x0028, 0x1052), CT_PHANTOM.rescaleIntercept)
    .decimal(tag(0x0028, 0x1053), CT_PHANTOM.rescaleSlope)
    .text(tag(0x0028, 0x1054), 'LO', 'HU');
  axialPlane(ds, ctx, spacing, CT_PHANTOM.sliceThickness);
  imagePixel(ds, ctx, 'MONOCHROME2', 1, { bitsAllocated: 16, bitsStored: CT_PHANTOM.bitsStored });
  return words(fillCtSlice(scratchSlice(ctx.rows * ctx.columns), ctx.rows, ctx.columns, ctx.index));
}

export function mrImage(ds: DatasetBuilder, ctx: ImageContext): PixelData {
  ds.text(tag(0x0008, 0x0008), 'CS', ['ORIGINAL', 'PRIMARY', 'OTHER'])
    .text(tag(0x0018, 0x0020), 'CS', 'SE')
    .text(tag(0x0018, 0x0021), 'CS', 'NONE')
    .text(tag(0x0018, 0x0022), 'CS', '')
    .text(tag(0x0018, 0x0023), 'CS', '2D')
    .decimal(tag(0x0018, 0x0080), 3000)
    .decimal(tag(0x0018, 0x0081), 90)
    .decimal(tag(0x0018, 0x0087), 1.5)
    .integerString(tag(0x0018, 0x0091), 16)
    .decimal(tag(0x0028, 0x1050), 1000)
    .decimal(tag(0x0028, 0x1051), 2000);
  axialPlane(ds, ctx, 230 / ctx.columns, 5);
  imagePixel(ds, ctx, 'MONOCHROME2', 1, MONOCHROME_16);
  return words(fillMrSlice(scratchSlice(ctx.rows * ctx.columns), ctx.rows, ctx.columns, ctx.index));
}

export function dxImage(ds: DatasetBuilder, ctx: ImageContext): PixelData {
  const spacing = 430 / ctx.columns;
  const region = new DatasetBuilder(ds.charset)
    .text(tag(0x0008, 0x0100), 'SH', 'T-D3000')
    .text(tag(0x0008, 0x0102), 'SH', 'SRT')
    .text(tag(0x0008, 0x0104), 'LO', 'Chest');
  ds.text(tag(0x0008, 0x0008), 'CS', ['ORIGINAL', 'PRIMARY'])
    .text(tag(0x0008, 0x0068), 'CS', 'FOR PRESENTATION')
    .sequence(tag(0x0008, 0x2218), [region])
    .decimal(tag(0x0018, 0x0060), 110)
    .decimal(tag(0x0018, 0x1164), [spacing, spacing])
    .text(tag(0x0018, 0x5101), 'CS', 'PA')
    .text(tag(0x0020, 0x0020), 'CS', ['L', 'F'])
    .text(tag(0x0020, 0x0062), 'CS', 'U')
    .decimal(tag(0x0028, 0x0030), [spacing, spacing])
    .text(tag(0x0028, 0x0301), 'CS', 'NO')
    .text(tag(0x0028, 0x1040), 'CS', 'LOG')
    .int16(tag(0x0028, 0x1041), 1)
    .decimal(tag(0x0028, 0x1050), 2048)
    .decimal(tag(0x0028, 0x1051), 4096)
    .decimal(tag(0x0028, 0x1052), 0)
    .decimal(tag(0x0028, 0x1053), 1)
    .text(tag(0x0028, 0x1054), 'LO', 'US');
  imagePixel(ds, ctx, 'MONOCHROME2', 1, MONOCHROME_16);
  return words(fillDxImage(scratchSlice(ctx.rows * ctx.columns), ctx.rows, ctx.columns));
}

/** Ultrasound Multi-frame: 8-bit clip at 30 frames/s, FrameTime as the frame increment pointer. */
export function usImage(ds: DatasetBuilder, ctx: ImageContext): PixelData {
  const rgb = ctx.usPhotometric === 'RGB';
  ds.text(tag(0x0008, 0x0008), 'CS', ['ORIGINAL', 'PRIMARY', 'ABDOMINAL'])
    .integerString(tag(0x0008, 0x2144), 30)
    .integerString(tag(0x0018, 0x0040), 30)
    .decimal(tag(0x0018, 0x1063), 33.3333)
    .integerString(tag(0x0028, 0x0008), ctx.frames)
    .attributeTag(tag(0x0028, 0x0009), tag(0x0018, 0x1063));
  imagePixel(ds, ctx, ctx.usPhotometric, rgb ? 3 : 1, { bitsAllocated: 8, bitsStored: 8 });
  return { vr: 'OB', bytes: fillUsClip(ctx.rows, ctx.columns, ctx.frames, rgb) };
}

export const IMAGE_MODULES: Record<Modality, (ds: DatasetBuilder, ctx: ImageContext) => PixelData> = {
  CT: ctImage,
  MR: mrImage,
  DX: dxImage,
  US: usImage,
};
