import dicomParser from 'dicom-parser';
import { describe, expect, it } from 'vitest';
import { generateStudy } from '../testdata/generate.js';
import { CT_PHANTOM } from '../testdata/pixels.js';
import { DatasetBuilder, encodePart10, EXPLICIT_VR_LE, tag } from '../testdata/writer.js';
import { NoSuchFrame, renderImage, RenderError } from './index.js';
import { pixelModuleOf } from './pixel-module.js';

/** A Part 10 file of one small image: the pixel attributes given, the pixel data after them. */
function imageFile(attributes: (ds: DatasetBuilder) => void, pixels: Buffer): Buffer {
  const ds = new DatasetBuilder();
  attributes(ds);
  return encodePart10({
    sopClassUid: '1.2.840.10008.5.1.4.1.1.7',
    sopInstanceUid: '1.2.3.4.5.6.7',
    transferSyntax: EXPLICIT_VR_LE,
    dataset: ds,
    pixelData: { vr: 'OW', bytes: pixels },
  });
}

const image = (ds: DatasetBuilder, photometric: string, columns: number, bits: number, signed = 0) =>
  ds
    .uint16(tag(0x0028, 0x0002), 1)
    .text(tag(0x0028, 0x0004), 'CS', photometric)
    .uint16(tag(0x0028, 0x0010), 1)
    .uint16(tag(0x0028, 0x0011), columns)
    .uint16(tag(0x0028, 0x0100), bits)
    .uint16(tag(0x0028, 0x0101), bits)
    .uint16(tag(0x0028, 0x0102), bits - 1)
    .uint16(tag(0x0028, 0x0103), signed);

describe('the pixel module of a stored file', () => {
  it("reads a CT's image attributes, rescale and first window", () => {
    const ct = generateStudy({ modality: 'CT', instancesPerSeries: 1, rows: 32, columns: 48 }).instances[0]!;
    const m = pixelModuleOf(dicomParser.parseDicom(ct.bytes, { untilTag: 'x7fe00010' }));
    expect(m).toMatchObject({
      rows: 32,
      columns: 48,
      samplesPerPixel: 1,
      photometricInterpretation: 'MONOCHROME2',
      bitsAllocated: 16,
      bitsStored: CT_PHANTOM.bitsStored,
      rescaleSlope: 1,
      rescaleIntercept: CT_PHANTOM.rescaleIntercept,
      window: { center: CT_PHANTOM.windowCenter, width: CT_PHANTOM.windowWidth },
      voiFunction: 'LINEAR',
      frames: 1,
    });
  });

  it('takes the first of several windows, and the VOI LUT Function', () => {
    const file = imageFile(
      (ds) =>
        image(ds, 'MONOCHROME2', 2, 16)
          .decimal(tag(0x0028, 0x1050), [300, 40])
          .decimal(tag(0x0028, 0x1051), [1500, 400])
          .text(tag(0x0028, 0x1056), 'CS', 'SIGMOID'),
      Buffer.alloc(4),
    );
    const m = pixelModuleOf(dicomParser.parseDicom(file));
    expect(m.window).toEqual({ center: 300, width: 1500 });
    expect(m.voiFunction).toBe('SIGMOID');
  });
});

describe('rendering a stored file', () => {
  it('renders signed MONOCHROME1 with its rescale and window, white where values are low', async () => {
    const pixels = Buffer.alloc(6);
    [-100, 0, 100].forEach((v, i) => pixels.writeInt16LE(v, 2 * i));
    const file = imageFile(
      (ds) =>
        image(ds, 'MONOCHROME1', 3, 16, 1)
          .decimal(tag(0x0028, 0x1052), 50)
          .decimal(tag(0x0028, 0x1053), 1)
          .decimal(tag(0x0028, 0x1050), 50)
          .decimal(tag(0x0028, 0x1051), 200),
      pixels,
    );
    const out = await renderImage(file, 1, {
      quality: 90,
      window: { center: 50, width: 200 },
      voiFunction: 'LINEAR_EXACT',
    });
    // modality values -50, 50, 150 → 0, 127.5, 255 → inverted
    expect([...out.data]).toEqual([255, 127, 0]);
    const own = await renderImage(file, 1, { quality: 90 });
    expect(own.data[0]).toBeGreaterThan(own.data[2]!);
  });

  it('renders PALETTE COLOR through its 16-bit lookup tables', async () => {
    const lut = (values: number[]) => {
      const b = Buffer.alloc(values.length * 2);
      values.forEach((v, i) => b.writeUInt16LE(v, 2 * i));
      return b;
    };
    const file = imageFile(
      (ds) =>
        image(ds, 'PALETTE COLOR', 4, 8)
          .uint16(tag(0x0028, 0x1101), 3, 1, 16)
          .uint16(tag(0x0028, 0x1102), 3, 1, 16)
          .uint16(tag(0x0028, 0x1103), 3, 1, 16)
          .bytes(tag(0x0028, 0x1201), 'OW', lut([0xff00, 0x0000, 0x8000]))
          .bytes(tag(0x0028, 0x1202), 'OW', lut([0x0000, 0xff00, 0x8000]))
          .bytes(tag(0x0028, 0x1203), 'OW', lut([0x0000, 0x0000, 0xffff])),
      Buffer.from([1, 2, 3, 0]),
    );
    const out = await renderImage(file, 1, { quality: 90 });
    expect(out.components).toBe(3);
    // 1 → entry 0 (red), 2 → entry 1 (green), 3 → entry 2, 0 (below the first mapped) → entry 0
    expect([...out.data]).toEqual([255, 0, 0, 0, 255, 0, 128, 128, 255, 255, 0, 0]);
  });

  it('says which frames and objects it cannot render', async () => {
    const ct = generateStudy({ modality: 'CT', instancesPerSeries: 1, rows: 8, columns: 8 }).instances[0]!;
    await expect(renderImage(ct.bytes, 2, { quality: 90 })).rejects.toThrow(NoSuchFrame);
    const noPixels = encodePart10({
      sopClassUid: '1.2.840.10008.5.1.4.1.1.88.11',
      sopInstanceUid: '1.2.3',
      transferSyntax: EXPLICIT_VR_LE,
      dataset: new DatasetBuilder().text(tag(0x0008, 0x0060), 'CS', 'SR'),
    });
    await expect(renderImage(noPixels, 1, { quality: 90 })).rejects.toThrow(RenderError);
  });
});
