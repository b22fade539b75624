import { describe, expect, it } from 'vitest';
import { renderedType, renderParams, RenderParamError, THUMBNAIL_SIZE } from './params.js';
import type { PixelModule } from './pixel-module.js';
import { color, grayscale, toImage, voi, type Image } from './pixels.js';
import { crc32, encodePng } from './png.js';
import { readPng } from './read-png.js';
import { exact, nativeSamples, RenderError } from './samples.js';
import { applyViewport, fittedSize, resample } from './viewport.js';

const mono = (over: Partial<PixelModule> = {}): PixelModule => ({
  rows: 1,
  columns: 1,
  samplesPerPixel: 1,
  photometricInterpretation: 'MONOCHROME2',
  planarConfiguration: 0,
  bitsAllocated: 16,
  bitsStored: 16,
  highBit: 15,
  pixelRepresentation: 0,
  frames: 1,
  rescaleSlope: 1,
  rescaleIntercept: 0,
  voiFunction: 'LINEAR',
  ...over,
});

const u16 = (...values: number[]) => new Uint8Array(new Uint16Array(values).buffer);

describe('VOI functions (PS3.3 C.11.2.1.2, C.11.2.1.3.1)', () => {
  it('LINEAR: below the window 0, above 255, between by the standard formula', () => {
    const w = { center: 40, width: 400 };
    expect(voi(-160, w, 'LINEAR')).toBe(0); // x <= c - 0.5 - (w-1)/2 = -160
    expect(voi(-159, w, 'LINEAR')).toBe(1); // ((-159 - 39.5) / 399 + 0.5) * 255 = 0.64
    expect(voi(40, w, 'LINEAR')).toBe(128); // 127.82
    expect(voi(239, w, 'LINEAR')).toBe(255); // 254.68
    expect(voi(240, w, 'LINEAR')).toBe(255);
    expect(voi(100, w, 'LINEAR')).toBe(Math.round(((100 - 39.5) / 399 + 0.5) * 255));
  });
  it('LINEAR with width 1 is a threshold at c - 0.5', () => {
    const w = { center: 10, width: 1 };
    expect(voi(9, w, 'LINEAR')).toBe(0);
    expect(voi(9.5, w, 'LINEAR')).toBe(0);
    expect(voi(10, w, 'LINEAR')).toBe(255);
  });
  it('LINEAR_EXACT maps c - w/2 to 0 and c + w/2 to 255', () => {
    const w = { center: 0, width: 100 };
    expect(voi(-50, w, 'LINEAR_EXACT')).toBe(0);
    expect(voi(-49, w, 'LINEAR_EXACT')).toBe(3); // 0.51 * 255 - 127.5 = 2.55
    expect(voi(0, w, 'LINEAR_EXACT')).toBe(128); // 127.5
    expect(voi(25, w, 'LINEAR_EXACT')).toBe(191); // 191.25
    expect(voi(50, w, 'LINEAR_EXACT')).toBe(255);
    expect(voi(51, w, 'LINEAR_EXACT')).toBe(255);
  });
  it('SIGMOID is 255 / (1 + exp(-4 (x - c) / w))', () => {
    const w = { center: 100, width: 50 };
    expect(voi(100, w, 'SIGMOID')).toBe(128);
    expect(voi(150, w, 'SIGMOID')).toBe(Math.round(255 / (1 + Math.exp(-4)))); // 250
    expect(voi(50, w, 'SIGMOID')).toBe(Math.round(255 / (1 + Math.exp(4)))); // 5
    expect(voi(-1e6, w, 'SIGMOID')).toBe(0);
  });
});

describe('grayscale rendering', () => {
  it('applies Rescale Slope and Intercept before the window (a CT in Hounsfield units)', () => {
    const m = mono({ columns: 4, rescaleIntercept: -1024, window: { center: 40, width: 400 } });
    // stored 864 = -160 HU, 1064 = 40 HU, 1264 = 240 HU, 0 = -1024 HU
    const out = grayscale(new Int32Array([864, 1064, 1264, 0]), m);
    expect([...out]).toEqual([0, 128, 255, 0]);
  });
  it('applies a slope other than 1', () => {
    const m = mono({ columns: 2, rescaleSlope: 2, rescaleIntercept: -100, window: { center: 0, width: 200 } });
    // 50 → 0 (mid), 100 → 100 (top)
    const out = grayscale(new Int32Array([50, 100]), m, {
      window: { center: 0, width: 200 },
      voiFunction: 'LINEAR_EXACT',
    });
    expect([...out]).toEqual([128, 255]);
  });
  it("prefers the request's window and function over the instance's", () => {
    const m = mono({ columns: 2, window: { center: 1000, width: 10 } });
    const out = grayscale(new Int32Array([0, 100]), m, {
      window: { center: 50, width: 100 },
      voiFunction: 'LINEAR_EXACT',
    });
    expect([...out]).toEqual([0, 255]);
  });
  it("uses the instance's VOI LUT Function with its window", () => {
    const m = mono({ columns: 1, window: { center: 100, width: 50 }, voiFunction: 'SIGMOID' });
    expect([...grayscale(new Int32Array([150]), m)]).toEqual([250]);
  });
  it('without any window spans the frame from its min (0) to its max (255)', () => {
    const m = mono({ columns: 3 });
    expect([...grayscale(new Int32Array([100, 200, 300]), m)]).toEqual([0, 128, 255]);
    // a flat frame is mid grey, not a division by zero
    expect([...grayscale(new Int32Array([7, 7, 7]), m)]).toEqual([128, 128, 128]);
  });
  it('without a window, a negative slope still spans min to max', () => {
    const m = mono({ columns: 2, rescaleSlope: -1 });
    expect([...grayscale(new Int32Array([0, 10]), m)]).toEqual([255, 0]);
  });
  it('inverts MONOCHROME1 after the window', () => {
    const m = mono({ columns: 3, photometricInterpretation: 'MONOCHROME1', window: { center: 50, width: 100 } });
    const out = grayscale(new Int32Array([0, 50, 100]), m, {
      window: { center: 50, width: 100 },
      voiFunction: 'LINEAR_EXACT',
    });
    expect([...out]).toEqual([255, 127, 0]);
  });
  it('renders floating samples (32-bit) without a table', () => {
    const m = mono({ columns: 2, bitsAllocated: 32, bitsStored: 32 });
    expect([...grayscale(new Float64Array([0, 4e9]), m)]).toEqual([0, 255]);
  });
});

describe('native samples: bits stored, high bit, sign', () => {
  it('reads signed 16-bit samples', () => {
    const bytes = new Uint8Array(new Int16Array([-1000, 0, 1000, -32768]).buffer);
    const m = mono({ columns: 4, pixelRepresentation: 1 });
    expect([...nativeSamples(bytes, m)]).toEqual([-1000, 0, 1000, -32768]);
  });
  it('masks the bits above Bits Stored and sign-extends from its top bit', () => {
    const m = mono({ columns: 3, bitsStored: 12, highBit: 11, pixelRepresentation: 1 });
    // 0x0FFF = -1, 0xF800 has garbage above bit 11 (an overlay) and 0x800 = -2048, 0x07FF = 2047
    expect([...nativeSamples(u16(0x0fff, 0xf800, 0x07ff), m)]).toEqual([-1, -2048, 2047]);
    const unsigned = mono({ columns: 2, bitsStored: 12, highBit: 11 });
    expect([...nativeSamples(u16(0xf123, 0x0fff), unsigned)]).toEqual([0x123, 0xfff]);
  });
  it('shifts samples whose High Bit is not Bits Stored - 1', () => {
    const m = mono({ columns: 2, bitsStored: 12, highBit: 15 });
    expect([...nativeSamples(u16(0xabc0, 0x0010), m)]).toEqual([0xabc, 0x001]);
  });
  it('unpacks 1-bit samples, the first pixel in the lowest bit', () => {
    const m = mono({ columns: 10, bitsAllocated: 1, bitsStored: 1, highBit: 0 });
    expect([...nativeSamples(new Uint8Array([0b10000101, 0b00000010]), m)]).toEqual([1, 0, 1, 0, 0, 0, 0, 1, 0, 1]);
  });
  it('reads 32-bit samples, signed ones too', () => {
    const bytes = new Uint8Array(new Int32Array([-5, 70000]).buffer);
    expect([
      ...nativeSamples(
        bytes,
        mono({ columns: 2, bitsAllocated: 32, bitsStored: 32, highBit: 31, pixelRepresentation: 1 }),
      ),
    ]).toEqual([-5, 70000]);
    expect(exact(0xffffffff, 0, 32, false)).toBe(4294967295);
  });
  it('interleaves planar RGB (Planar Configuration 1)', () => {
    const m = mono({
      columns: 2,
      samplesPerPixel: 3,
      photometricInterpretation: 'RGB',
      bitsAllocated: 8,
      bitsStored: 8,
      highBit: 7,
      planarConfiguration: 1,
    });
    expect([...nativeSamples(new Uint8Array([1, 2, 10, 20, 100, 200]), m)]).toEqual([1, 10, 100, 2, 20, 200]);
  });
  it('refuses a frame shorter than its samples and unknown bit depths', () => {
    expect(() => nativeSamples(new Uint8Array(3), mono({ columns: 2 }))).toThrow(RenderError);
    expect(() => nativeSamples(new Uint8Array(12), mono({ columns: 2, bitsAllocated: 12 }))).toThrow(RenderError);
  });
});

describe('colour', () => {
  const rgb8 = (over: Partial<PixelModule>) =>
    mono({
      samplesPerPixel: 3,
      bitsAllocated: 8,
      bitsStored: 8,
      highBit: 7,
      photometricInterpretation: 'RGB',
      ...over,
    });
  it('keeps RGB, and the high 8 bits of 16-bit RGB', () => {
    expect([...color(new Int32Array([1, 2, 3]), rgb8({}))]).toEqual([1, 2, 3]);
    expect([...color(new Int32Array([0xffff, 0x1234, 0x00ff]), rgb8({ bitsAllocated: 16, bitsStored: 16 }))]).toEqual([
      0xff, 0x12, 0x00,
    ]);
  });
  it('converts YBR_FULL with the PS3.3 equations', () => {
    const out = color(
      new Int32Array([100, 128, 200, 128, 128, 128]),
      rgb8({ columns: 2, photometricInterpretation: 'YBR_FULL' }),
    );
    // R = Y + 1.402 (Cr-128), G = Y - 0.344136 (Cb-128) - 0.714136 (Cr-128), B = Y + 1.772 (Cb-128)
    expect([...out]).toEqual([201, 49, 100, 128, 128, 128]);
  });
  it('expands native YBR_FULL_422 (Y1 Y2 Cb Cr per pair of pixels)', () => {
    const m = rgb8({ columns: 2, photometricInterpretation: 'YBR_FULL_422' });
    const values = nativeSamples(new Uint8Array([50, 150, 128, 128]), m);
    expect([...color(values, m)]).toEqual([50, 50, 50, 150, 150, 150]);
  });
  it('looks PALETTE COLOR up, clamping below the first mapped value and past the last entry', () => {
    const lut = (k: number) => ({ first: 10, bits: 16, data: new Uint16Array([0x0000, 0x1000 * k, 0xff00]) });
    const m = mono({
      columns: 4,
      photometricInterpretation: 'PALETTE COLOR',
      bitsAllocated: 8,
      bitsStored: 8,
      palette: { red: lut(1), green: lut(2), blue: lut(3) },
    });
    const out = toImage(new Int32Array([9, 11, 12, 300]), m);
    expect(out.components).toBe(3);
    expect([...out.data]).toEqual([0, 0, 0, 0x10, 0x20, 0x30, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
  });
  it('reads 8-bit palette entries as they are', () => {
    const lut = { first: 0, bits: 8, data: new Uint16Array([7, 9]) };
    const m = mono({
      columns: 1,
      photometricInterpretation: 'PALETTE COLOR',
      palette: { red: lut, green: lut, blue: lut },
    });
    expect([...color(new Int32Array([1]), m)]).toEqual([9, 9, 9]);
  });
  it('refuses what it cannot render', () => {
    expect(() => color(new Int32Array(3), rgb8({ photometricInterpretation: 'YBR_PARTIAL_420' }))).toThrow(RenderError);
    expect(() => color(new Int32Array(1), mono({ photometricInterpretation: 'PALETTE COLOR' }))).toThrow(RenderError);
  });
});

describe('viewport', () => {
  const gray = (width: number, height: number, values: number[]): Image => ({
    data: new Uint8Array(values),
    width,
    height,
    components: 1,
  });
  it('fits the source region within vw×vh, aspect kept', () => {
    expect(fittedSize(64, 64, 100, 50)).toEqual({ width: 64, height: 32 });
    expect(fittedSize(64, 64, 50, 100)).toEqual({ width: 32, height: 64 });
    expect(fittedSize(1000, 10, 512, 512)).toEqual({ width: 10, height: 10 });
    expect(fittedSize(1, 1, 1000, 1)).toEqual({ width: 1, height: 1 });
  });
  it('shrinks by the area average', () => {
    const img = gray(4, 2, [0, 100, 200, 40, 10, 110, 220, 60]);
    const out = applyViewport(img, { vw: 2, vh: 2 });
    expect([out.width, out.height]).toEqual([2, 1]);
    expect([...out.data]).toEqual([Math.round((0 + 100 + 10 + 110) / 4), Math.round((200 + 40 + 220 + 60) / 4)]);
  });
  it('shrinks by a factor that is not whole, weighting partly covered pixels', () => {
    const out = resample(gray(3, 1, [0, 90, 180]), { sx: 0, sy: 0, sw: 3, sh: 1 }, 2, 1);
    // output pixel 0 covers source [0, 1.5): 0 fully, 90 half → (0 + 45) / 1.5 = 30
    expect([...out.data]).toEqual([30, 150]);
  });
  it('enlarges bilinearly between pixel centres', () => {
    const out = applyViewport(gray(2, 1, [0, 200]), { vw: 4, vh: 2 });
    expect([out.width, out.height]).toEqual([4, 2]);
    // centres of output pixels at source x = -0.25 (clamped 0), 0.25, 0.75, 1.25 (clamped 1)
    expect([...out.data]).toEqual([0, 50, 150, 200, 0, 50, 150, 200]);
  });
  it('renders the source region sx,sy,sw,sh only', () => {
    const img = gray(4, 4, [...Array(16).keys()]);
    const out = applyViewport(img, { vw: 2, vh: 2, sx: 1, sy: 2, sw: 2, sh: 2 });
    expect([...out.data]).toEqual([9, 10, 13, 14]);
    // sw, sh left out: to the image's edge
    expect([...applyViewport(img, { vw: 1, vh: 1, sx: 3, sy: 3 }).data]).toEqual([15]);
  });
  it('flips a region whose sw or sh is negative', () => {
    const img = gray(2, 2, [1, 2, 3, 4]);
    expect([...applyViewport(img, { vw: 2, vh: 2, sx: 0, sy: 0, sw: -2, sh: 2 }).data]).toEqual([2, 1, 4, 3]);
    expect([...applyViewport(img, { vw: 2, vh: 2, sx: 0, sy: 0, sw: 2, sh: -2 }).data]).toEqual([3, 4, 1, 2]);
  });
  it('keeps RGB components apart', () => {
    const img: Image = { data: new Uint8Array([255, 0, 0, 0, 0, 255]), width: 2, height: 1, components: 3 };
    expect([...applyViewport(img, { vw: 1, vh: 1 }).data]).toEqual([128, 0, 128]);
  });
  it('refuses a region outside the image', () => {
    const img = gray(2, 2, [1, 2, 3, 4]);
    expect(() => applyViewport(img, { vw: 2, vh: 2, sx: 1, sy: 0, sw: 2, sh: 2 })).toThrow(RenderParamError);
    expect(() => applyViewport(img, { vw: 2, vh: 2, sx: 5, sy: 0 })).toThrow(RenderParamError);
  });
});

describe('request parameters (PS3.18 8.3.5.1)', () => {
  it('reads window, viewport and quality', () => {
    expect(renderParams({ window: '40,400,linear-exact', viewport: '256,128', quality: '75' })).toEqual({
      window: { center: 40, width: 400 },
      voiFunction: 'LINEAR_EXACT',
      viewport: { vw: 256, vh: 128 },
      quality: 75,
    });
    expect(renderParams({ window: '-600,1500' })).toMatchObject({ voiFunction: 'LINEAR' });
    expect(renderParams({ window: '0,1,SIGMOID' })).toMatchObject({ voiFunction: 'SIGMOID' });
    expect(renderParams({ viewport: '10,10,1,2,3,-4' }).viewport).toEqual({
      vw: 10,
      vh: 10,
      sx: 1,
      sy: 2,
      sw: 3,
      sh: -4,
    });
    expect(renderParams({ viewport: '10,10,,,,' }).viewport).toEqual({ vw: 10, vh: 10 });
  });
  it('defaults: quality 90, no viewport for rendered, 128×128 for thumbnails; others ignored', () => {
    expect(renderParams({ annotation: 'patient', charset: 'utf-8', iccprofile: 'no', q: 'x' })).toEqual({
      quality: 90,
    });
    expect(renderParams({}, true).viewport).toEqual({ vw: THUMBNAIL_SIZE, vh: THUMBNAIL_SIZE });
    expect(renderParams({ viewport: '64,32' }, true).viewport).toEqual({ vw: 64, vh: 32 });
  });
  it.each([
    [{ window: '40' }],
    [{ window: '40,abc' }],
    [{ window: '40,0' }],
    [{ window: '40,0.5,linear' }],
    [{ window: '40,-1,sigmoid' }],
    [{ window: '40,400,cubic' }],
    [{ window: '40,400,linear,4' }],
    [{ viewport: '0,10' }],
    [{ viewport: '10' }],
    [{ viewport: '10,10,1,1' }],
    [{ viewport: '10.5,10' }],
    [{ viewport: '99999,10' }],
    [{ viewport: '10,10,0,0,0,5' }],
    [{ viewport: '10,10,-1,0,5,5' }],
    [{ quality: '0' }],
    [{ quality: '101' }],
    [{ quality: 'best' }],
    [{ quality: ['50', '60'] }],
  ])('refuses %o', (query) => {
    expect(() => renderParams(query)).toThrow(RenderParamError);
  });
  it('answers the accepted type of the highest weight, JPEG by default', () => {
    expect(renderedType(undefined)).toBe('image/jpeg');
    expect(renderedType('')).toBe('image/jpeg');
    expect(renderedType('*/*')).toBe('image/jpeg');
    expect(renderedType('image/*')).toBe('image/jpeg');
    expect(renderedType('image/png')).toBe('image/png');
    expect(renderedType('image/jpeg;q=0.5, image/png')).toBe('image/png');
    expect(renderedType('image/png;q=0.5, image/*')).toBe('image/jpeg');
    expect(renderedType('image/gif, image/png;q=0.1')).toBe('image/png');
    expect(renderedType('image/gif')).toBeUndefined();
    expect(renderedType('image/jp2, application/dicom')).toBeUndefined();
    expect(renderedType('image/jpeg;q=0, image/png;q=0')).toBeUndefined();
  });
});

describe('PNG', () => {
  it('has the CRC-32 of the specification', () => {
    expect(crc32(Buffer.from('IEND'))).toBe(0xae426082);
  });
  it('round-trips 8-bit gray and RGB images', () => {
    const grayImg: Image = {
      data: new Uint8Array(Array.from({ length: 30 * 7 }, (_, i) => (i * 37) & 0xff)),
      width: 30,
      height: 7,
      components: 1,
    };
    const back = readPng(encodePng(grayImg));
    expect([back.width, back.height, back.components]).toEqual([30, 7, 1]);
    expect(Buffer.from(back.data).equals(Buffer.from(grayImg.data))).toBe(true);
    const rgbImg: Image = {
      data: new Uint8Array(Array.from({ length: 5 * 4 * 3 }, (_, i) => (i * 91) & 0xff)),
      width: 5,
      height: 4,
      components: 3,
    };
    const rgbBack = readPng(encodePng(rgbImg));
    expect(rgbBack.components).toBe(3);
    expect(Buffer.from(rgbBack.data).equals(Buffer.from(rgbImg.data))).toBe(true);
  });
});
