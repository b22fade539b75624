import type dicomParser from 'dicom-parser';

/** A VOI window (PS3.3 C.11.2.1.2): centre and width in modality units. */
export interface Window {
  center: number;
  width: number;
}

/** The VOI LUT functions of PS3.3 C.11.2.1.3. */
export type VoiFunction = 'LINEAR' | 'LINEAR_EXACT' | 'SIGMOID';

/** One colour's Palette Color Lookup Table (PS3.3 C.7.6.3.1.5-6): entries, first value mapped, data. */
export interface PaletteLut {
  first: number;
  bits: number;
  data: Uint16Array;
}

/**
 * The attributes of the Image Pixel, Modality LUT and VOI LUT modules that rendering reads
 * (PS3.3 C.7.6.3, C.11.1, C.11.2). Values absent from the dataset take the defaults PS3.3 gives.
 */
export interface PixelModule {
  rows: number;
  columns: number;
  samplesPerPixel: number;
  photometricInterpretation: string;
  planarConfiguration: number;
  bitsAllocated: number;
  bitsStored: number;
  highBit: number;
  pixelRepresentation: number;
  frames: number;
  rescaleSlope: number;
  rescaleIntercept: number;
  /** the first Window Center / Window Width pair, if the instance has one */
  window?: Window;
  voiFunction: VoiFunction;
  palette?: { red: PaletteLut; green: PaletteLut; blue: PaletteLut };
}

function firstNumber(ds: dicomParser.DataSet, tag: string): number | undefined {
  const raw = ds.string(tag);
  if (raw === undefined) return undefined;
  const n = Number.parseFloat(raw.split('\\')[0]!.trim());
  return Number.isFinite(n) ? n : undefined;
}

function voiFunctionOf(raw: string | undefined): VoiFunction {
  const v = raw?.trim().toUpperCase();
  return v === 'LINEAR_EXACT' || v === 'SIGMOID' ? v : 'LINEAR';
}

/** A 16-bit value of the dataset read as unsigned or signed by its VR (US or SS descriptors). */
function descriptorValue(ds: dicomParser.DataSet, tag: string, index: number): number | undefined {
  const el = ds.elements[tag];
  if (!el) return undefined;
  return el.vr === 'SS' ? ds.int16(tag, index) : ds.uint16(tag, index);
}

function paletteLut(ds: dicomParser.DataSet, descriptorTag: string, dataTag: string): PaletteLut | undefined {
  const count = descriptorValue(ds, descriptorTag, 0);
  const first = descriptorValue(ds, descriptorTag, 1);
  const bits = ds.uint16(descriptorTag, 2);
  const el = ds.elements[dataTag];
  if (count === undefined || first === undefined || bits === undefined || !el) return undefined;
  // A count of 0 means 2^16 entries (PS3.3 C.7.6.3.1.5).
  const entries = count === 0 ? 65536 : count;
  const bytes = ds.byteArray.subarray(el.dataOffset, el.dataOffset + el.length);
  const data = new Uint16Array(entries);
  // 8-bit entries are most often one per 16-bit word, sometimes packed two per word.
  const packed = bits === 8 && bytes.length === entries;
  for (let i = 0; i < entries; i++) {
    if (packed) data[i] = bytes[i]!;
    else if (2 * i + 1 < bytes.length) data[i] = bytes[2 * i]! | (bytes[2 * i + 1]! << 8);
  }
  return { first, bits, data };
}

/**
 * The pixel module of a parsed dataset (dicom-parser reads the file's byte order). The palette's
 * data is read as little endian: native big-endian files are the only ones that differ and are
 * rare with palettes. Segmented palettes (Enhanced Palette) are not read.
 */
export function pixelModuleOf(ds: dicomParser.DataSet): PixelModule {
  const bitsAllocated = ds.uint16('x00280100') ?? 16;
  const bitsStored = ds.uint16('x00280101') ?? bitsAllocated;
  const center = firstNumber(ds, 'x00281050');
  const width = firstNumber(ds, 'x00281051');
  const photometricInterpretation = (ds.string('x00280004') ?? 'MONOCHROME2').trim().toUpperCase();
  const module: PixelModule = {
    rows: ds.uint16('x00280010') ?? 0,
    columns: ds.uint16('x00280011') ?? 0,
    samplesPerPixel: ds.uint16('x00280002') ?? 1,
    photometricInterpretation,
    planarConfiguration: ds.uint16('x00280006') ?? 0,
    bitsAllocated,
    bitsStored,
    highBit: ds.uint16('x00280102') ?? bitsStored - 1,
    pixelRepresentation: ds.uint16('x00280103') ?? 0,
    frames: Number.parseInt(ds.string('x00280008') ?? '1', 10) || 1,
    // A slope of 0 would flatten the image: read as absent.
    rescaleSlope: firstNumber(ds, 'x00281053') || 1,
    rescaleIntercept: firstNumber(ds, 'x00281052') ?? 0,
    voiFunction: voiFunctionOf(ds.string('x00281056')),
  };
  if (center !== undefined && width !== undefined && width > 0) module.window = { center, width };
  if (photometricInterpretation === 'PALETTE COLOR') {
    const red = paletteLut(ds, 'x00281101', 'x00281201');
    const green = paletteLut(ds, 'x00281102', 'x00281202');
    const blue = paletteLut(ds, 'x00281103', 'x00281203');
    if (red && green && blue) module.palette = { red, green, blue };
  }
  return module;
}
