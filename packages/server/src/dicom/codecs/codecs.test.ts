import { describe, expect, it } from 'vitest';
import {
  canDecode,
  canEncode,
  CodecError,
  decodeFrame,
  encodedPhotometric,
  encodeFrame,
  encodeJpegImage,
  frameMediaType,
  syntaxesOfMediaType,
  TS,
  type DecodedFrame,
  type PixelDescription,
} from './index.js';
import { decodeRle, encodeRle } from './rle.js';

const grey16 = (rows: number, columns: number, signed: boolean, bitsStored = 12): PixelDescription => ({
  rows,
  columns,
  bitsAllocated: 16,
  bitsStored,
  pixelRepresentation: signed ? 1 : 0,
  samplesPerPixel: 1,
  photometricInterpretation: 'MONOCHROME2',
  planarConfiguration: 0,
});
const rgb8 = (rows: number, columns: number): PixelDescription => ({
  rows,
  columns,
  bitsAllocated: 8,
  bitsStored: 8,
  pixelRepresentation: 0,
  samplesPerPixel: 3,
  photometricInterpretation: 'RGB',
  planarConfiguration: 0,
});

/** A smooth 12-bit ramp with a little structure (and negatives when signed). */
function greyFrame(p: PixelDescription): DecodedFrame {
  const signed = p.pixelRepresentation === 1;
  const pixels = signed ? new Int16Array(p.rows * p.columns) : new Uint16Array(p.rows * p.columns);
  const span = 1 << p.bitsStored;
  for (let y = 0; y < p.rows; y++) {
    for (let x = 0; x < p.columns; x++) {
      const v = ((x * 13 + y * 7 + ((x * y) % 17)) % span) - (signed ? span / 2 : 0);
      pixels[y * p.columns + x] = v;
    }
  }
  return {
    pixels,
    photometricInterpretation: 'MONOCHROME2',
    samplesPerPixel: 1,
    bitsAllocated: 16,
    pixelRepresentation: p.pixelRepresentation,
  };
}

function colourFrame(p: PixelDescription): DecodedFrame {
  const pixels = new Uint8Array(p.rows * p.columns * 3);
  for (let i = 0; i < p.rows * p.columns; i++) {
    const x = i % p.columns;
    const y = Math.floor(i / p.columns);
    pixels[i * 3] = (x * 4) & 0xff;
    pixels[i * 3 + 1] = (y * 4) & 0xff;
    pixels[i * 3 + 2] = x > p.columns / 2 ? 200 : 20;
  }
  return { pixels, photometricInterpretation: 'RGB', samplesPerPixel: 3, bitsAllocated: 8, pixelRepresentation: 0 };
}

function maxDifference(a: DecodedFrame, b: DecodedFrame): number {
  expect(a.pixels.length).toBe(b.pixels.length);
  let max = 0;
  for (let i = 0; i < a.pixels.length; i++) max = Math.max(max, Math.abs(a.pixels[i]! - b.pixels[i]!));
  return max;
}

const LOSSLESS = [
  TS.explicitLittle,
  TS.implicitLittle,
  TS.rle,
  TS.jpegLsLossless,
  TS.j2kLossless,
  TS.j2k,
  TS.htj2kLossless,
  TS.htj2kLosslessRpcl,
  TS.htj2k,
];

describe('encodeFrame and decodeFrame', () => {
  for (const ts of LOSSLESS) {
    it(`${ts}: unsigned and signed 16-bit and RGB 8-bit come back exactly`, async () => {
      for (const p of [grey16(64, 48, false), grey16(64, 48, true), grey16(33, 17, true, 16)]) {
        const frame = greyFrame(p);
        const encoded = await encodeFrame(frame, p, ts);
        const back = await decodeFrame(encoded, ts, p);
        expect(back.pixels).toBeInstanceOf(p.pixelRepresentation ? Int16Array : Uint16Array);
        expect(maxDifference(back, frame)).toBe(0);
      }
      const p = rgb8(40, 30);
      const frame = colourFrame(p);
      const encoded = await encodeFrame(frame, p, ts);
      const photometric = encodedPhotometric(frame, ts, encoded);
      const back = await decodeFrame(encoded, ts, { ...p, photometricInterpretation: photometric });
      expect(back.photometricInterpretation).toBe('RGB');
      expect(maxDifference(back, frame)).toBe(0);
    });
  }

  it('JPEG baseline: 8-bit within a tolerance, colour labelled YBR_FULL_422 and decoded to RGB', async () => {
    const p = rgb8(64, 64);
    const frame = colourFrame(p);
    const encoded = await encodeFrame(frame, p, TS.jpegBaseline);
    expect([encoded[0], encoded[1]]).toEqual([0xff, 0xd8]);
    // Baseline sequential (SOF0), never progressive (SOF2).
    expect(Buffer.from(encoded).includes(Buffer.from([0xff, 0xc0]))).toBe(true);
    expect(Buffer.from(encoded).includes(Buffer.from([0xff, 0xc2]))).toBe(false);
    expect(encodedPhotometric(frame, TS.jpegBaseline, encoded)).toBe('YBR_FULL_422');
    const back = await decodeFrame(encoded, TS.jpegBaseline, { ...p, photometricInterpretation: 'YBR_FULL_422' });
    expect(back.photometricInterpretation).toBe('RGB');
    let sum = 0;
    for (let i = 0; i < frame.pixels.length; i++) sum += Math.abs(frame.pixels[i]! - back.pixels[i]!);
    expect(sum / frame.pixels.length).toBeLessThan(4);
  });

  it('JPEG-LS near-lossless stays within its bound', async () => {
    const p = grey16(64, 48, false);
    const frame = greyFrame(p);
    const back = await decodeFrame(await encodeFrame(frame, p, TS.jpegLsNearLossless), TS.jpegLsNearLossless, p);
    expect(maxDifference(back, frame)).toBeLessThanOrEqual(2);
  });

  it('native big endian is swapped and planar colour interleaved', async () => {
    const p = grey16(2, 2, false, 16);
    const be = Uint8Array.from([0x01, 0x02, 0x03, 0x04, 0xff, 0x00, 0x00, 0x10]);
    expect(Array.from((await decodeFrame(be, TS.explicitBig, p)).pixels)).toEqual([0x0102, 0x0304, 0xff00, 0x0010]);
    const planar = Uint8Array.from([1, 2, 10, 20, 100, 200]); // R R G G B B
    const colour = await decodeFrame(planar, TS.explicitLittle, { ...rgb8(1, 2), planarConfiguration: 1 });
    expect(Array.from(colour.pixels)).toEqual([1, 10, 100, 2, 20, 200]);
  });

  it('keeps only Bits Stored: unsigned masked, signed sign-extended', async () => {
    const words = Uint16Array.from([0xf123, 0x0fff, 0x0800]);
    const bytes = new Uint8Array(words.buffer);
    const unsigned = await decodeFrame(bytes, TS.explicitLittle, grey16(1, 3, false));
    expect(Array.from(unsigned.pixels)).toEqual([0x123, 0xfff, 0x800]);
    const signed = await decodeFrame(bytes, TS.explicitLittle, grey16(1, 3, true));
    expect(Array.from(signed.pixels)).toEqual([0x123, -1, -2048]);
  });

  it('refuses unknown syntaxes, odd pixels and corrupt bit streams with a CodecError', async () => {
    const p = grey16(8, 8, false);
    expect(canDecode('1.2.840.10008.1.2.4.100')).toBe(false); // MPEG2
    await expect(decodeFrame(new Uint8Array(128), '1.2.840.10008.1.2.4.100', p)).rejects.toMatchObject({
      reason: 'unsupported-syntax',
    });
    for (const ts of [
      TS.jpegBaseline,
      TS.jpegLsLossless,
      TS.j2kLossless,
      TS.htj2kLossless,
      TS.rle,
      TS.jpegLosslessSV1,
    ]) {
      const err = await decodeFrame(Uint8Array.from([0xff, 0xd8, 1, 2, 3, 4, 5, 6]), ts, p).catch((e: unknown) => e);
      expect(err, ts).toBeInstanceOf(CodecError);
      expect((err as CodecError).reason, ts).toBe('corrupt');
    }
    await expect(decodeFrame(new Uint8Array(10), TS.explicitLittle, p)).rejects.toMatchObject({ reason: 'corrupt' });
    await expect(decodeFrame(new Uint8Array(16), TS.explicitLittle, { ...p, bitsAllocated: 32 })).rejects.toMatchObject(
      {
        reason: 'unsupported-pixels',
      },
    );
  });

  it('a frame whose size differs from the data set is corrupt', async () => {
    const p = grey16(16, 16, false);
    const encoded = await encodeFrame(greyFrame(p), p, TS.jpegLsLossless);
    await expect(decodeFrame(encoded, TS.jpegLsLossless, grey16(16, 8, false))).rejects.toMatchObject({
      reason: 'corrupt',
    });
  });
});

describe('canEncode', () => {
  it('says which pixels each syntax can hold', () => {
    expect(canEncode(TS.explicitLittle, grey16(4, 4, true))).toBe(true);
    expect(canEncode(TS.jpegBaseline, grey16(4, 4, false))).toBe(false); // 16-bit
    expect(canEncode(TS.jpegBaseline, rgb8(4, 4))).toBe(true);
    expect(
      canEncode(TS.jpegBaseline, { ...rgb8(4, 4), samplesPerPixel: 1, photometricInterpretation: 'PALETTE COLOR' }),
    ).toBe(false);
    expect(canEncode(TS.jpegLossless, grey16(4, 4, false))).toBe(false); // no encoder
    expect(canEncode(TS.explicitBig, grey16(4, 4, false))).toBe(false);
    expect(canEncode(TS.deflated, grey16(4, 4, false))).toBe(false);
    expect(canEncode(TS.jpegLsLossless, { ...grey16(4, 4, false), bitsAllocated: 32, bitsStored: 32 })).toBe(false);
  });
});

describe('RLE', () => {
  it('codes long runs, literals and 16-bit samples most significant byte first (PS3.5 G.2)', () => {
    const samples = new Uint8Array(600);
    for (let i = 0; i < 300; i++) samples[i] = 7; // a run longer than 128
    for (let i = 300; i < 600; i++) samples[i] = (i * 31) & 0xff; // literals
    const encoded = encodeRle(samples, 600, 1, 1);
    expect(new DataView(encoded.buffer).getUint32(0, true)).toBe(1);
    expect(encoded.length % 2).toBe(0);
    expect(decodeRle(encoded, 600, 1, 1)).toEqual(samples);
    const words = new Uint8Array(new Uint16Array([0x1234, 0x1234]).buffer);
    const encoded16 = encodeRle(words, 2, 1, 2);
    const view = new DataView(encoded16.buffer);
    expect(view.getUint32(0, true)).toBe(2);
    // Segment 1 holds the high bytes: a replicate run of 0x12.
    expect(Array.from(encoded16.subarray(view.getUint32(4, true), view.getUint32(4, true) + 2))).toEqual([255, 0x12]);
    expect(decodeRle(encoded16, 2, 1, 2)).toEqual(words);
  });
});

describe('encodeJpegImage', () => {
  it('writes a baseline JPEG of grey and RGBA images that decodes to them', async () => {
    const grey = new Uint8Array(32 * 16).map((_, i) => (i % 32) * 8);
    const jpeg = await encodeJpegImage(grey, 32, 16, 1, 90);
    const back = await decodeFrame(jpeg, TS.jpegBaseline, {
      ...rgb8(16, 32),
      samplesPerPixel: 1,
      photometricInterpretation: 'MONOCHROME2',
    });
    let sum = 0;
    for (let i = 0; i < grey.length; i++) sum += Math.abs(grey[i]! - back.pixels[i]!);
    expect(sum / grey.length).toBeLessThan(3);
    const rgba = new Uint8Array(32 * 16 * 4).fill(255);
    const colour = await encodeJpegImage(rgba, 32, 16, 3, 80);
    expect(Array.from(colour.subarray(0, 2))).toEqual([0xff, 0xd8]);
    await expect(encodeJpegImage(grey, 32, 17, 1, 90)).rejects.toBeInstanceOf(CodecError);
  });
});

describe('frame media types (PS3.18 Table 8.7.3-2)', () => {
  it('names each syntax’s type and each type’s syntaxes, the default first', () => {
    expect(frameMediaType(TS.jpegBaseline)).toBe('image/jpeg');
    expect(frameMediaType(TS.jpegLosslessSV1)).toBe('image/jpeg');
    expect(frameMediaType(TS.jpegLsNearLossless)).toBe('image/jls');
    expect(frameMediaType(TS.j2k)).toBe('image/jp2');
    expect(frameMediaType(TS.htj2kLossless)).toBe('image/jphc');
    expect(frameMediaType(TS.rle)).toBe('image/dicom-rle');
    expect(frameMediaType(TS.explicitLittle)).toBe('application/octet-stream');
    expect(syntaxesOfMediaType('image/jpeg')[0]).toBe(TS.jpegLosslessSV1);
    expect(syntaxesOfMediaType('image/jls')).toEqual([TS.jpegLsLossless, TS.jpegLsNearLossless]);
    expect(syntaxesOfMediaType('image/png')).toEqual([]);
  });
});
