import { describe, expect, it } from 'vitest';
import { frameRange, nativeFrameLayout } from './frames.js';
import { frameBytes } from './json-model.js';
import { generateStudy, IMPLICIT_VR_LE, type StudyOptions } from './testdata/generate.js';

const frameOf = (file: Uint8Array, n: number) => {
  const layout = nativeFrameLayout(file)!;
  const { start, end } = frameRange(layout, n);
  return Buffer.from(file.subarray(start, end));
};

describe('nativeFrameLayout', () => {
  it.each<[string, StudyOptions, number, number]>([
    ['explicit VR CT', { modality: 'CT', rows: 32, columns: 24 }, 1, 32 * 24 * 2],
    ['implicit VR CT', { modality: 'CT', rows: 16, columns: 16, transferSyntax: IMPLICIT_VR_LE }, 1, 512],
    ['8-bit US clip', { modality: 'US', rows: 24, columns: 32, frames: 5 }, 5, 24 * 32],
    ['RGB US clip', { modality: 'US', rows: 31, columns: 33, frames: 3, usPhotometric: 'RGB' }, 3, 31 * 33 * 3],
  ])('finds the frames of a %s where frameBytes cuts them', (_name, opts, frames, frameLength) => {
    const file = generateStudy({ ...opts, instancesPerSeries: 1 }).instances[0]!.bytes;
    const layout = nativeFrameLayout(file);
    expect(layout).toMatchObject({
      frames,
      frameLength,
      transferSyntaxUid: opts.transferSyntax ?? '1.2.840.10008.1.2.1',
    });
    for (let n = 1; n <= frames; n++) {
      expect(frameOf(file, n).equals(Buffer.from(frameBytes(file, n).bytes))).toBe(true);
    }
    expect(() => frameRange(layout!, frames + 1)).toThrow(RangeError);
    expect(() => frameRange(layout!, 0)).toThrow(RangeError);
  });

  it('needs only the header up to the pixel data', () => {
    const file = generateStudy({ modality: 'CT', rows: 64, columns: 64, instancesPerSeries: 1 }).instances[0]!.bytes;
    const whole = nativeFrameLayout(file)!;
    expect(nativeFrameLayout(file.subarray(0, whole.offset))).toEqual(whole);
  });

  it('leaves big-endian, unreadable and pixel-less files to frameBytes', () => {
    const file = Buffer.from(generateStudy({ modality: 'CT', rows: 16, columns: 16 }).instances[0]!.bytes);
    const at = file.indexOf('1.2.840.10008.1.2.1\0');
    expect(at).toBeGreaterThan(0);
    const bigEndian = Buffer.from(file);
    bigEndian.write('1.2.840.10008.1.2.2', at, 'latin1');
    expect(nativeFrameLayout(bigEndian)).toBeNull();
    expect(nativeFrameLayout(Buffer.from('not dicom at all'))).toBeNull();
    const layout = nativeFrameLayout(file)!;
    // The pixel data value cut short: its frames are not all there.
    const short = Buffer.from(file.subarray(0, layout.offset + 10));
    short.writeUInt32LE(10, layout.offset - 4);
    expect(nativeFrameLayout(short)).toBeNull();
  });
});
