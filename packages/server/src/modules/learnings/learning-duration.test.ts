import { describe, expect, it } from 'vitest';
import { videoDuration } from './learning-duration.js';

const reader = (file: Uint8Array) => async (offset: number, length: number) => file.subarray(offset, offset + length);
const u32 = (n: number) => [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
const u64 = (n: number) => [...u32(Math.floor(n / 2 ** 32)), ...u32(n >>> 0)];
const text = (s: string) => [...s].map((c) => c.charCodeAt(0));
const box = (type: string, body: number[]) => [...u32(8 + body.length), ...text(type), ...body];

/** mvhd of version 0 (32-bit times) or 1 (64-bit times) with `timescale` and `duration`. */
function mvhd(version: 0 | 1, timescale: number, duration: number): number[] {
  const times =
    version === 0
      ? [...u32(0), ...u32(0), ...u32(timescale), ...u32(duration)]
      : [...u64(0), ...u64(0), ...u32(timescale), ...u64(duration)];
  return box('mvhd', [version, 0, 0, 0, ...times, ...new Array(80).fill(0)]);
}

function mp4(parts: number[][]): Uint8Array {
  return Uint8Array.from([...box('ftyp', [...text('isom'), 0, 0, 2, 0]), ...parts.flat()]);
}

/** An EBML element: a 1–4 byte id, an 8-byte size (or the unknown size) and its body. */
function ebml(id: number[], body: number[], unknownSize = false): number[] {
  const size = unknownSize ? [0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff] : [0x01, ...u64(body.length).slice(1)];
  return [...id, ...size, ...body];
}
const float64 = (n: number) => {
  const b = new DataView(new ArrayBuffer(8));
  b.setFloat64(0, n);
  return [...new Uint8Array(b.buffer)];
};
const EBML_HEADER = ebml([0x1a, 0x45, 0xdf, 0xa3], [0x42, 0x82, 0x84, ...text('webm')]);

describe('videoDuration', () => {
  it('reads an MP4 moov/mvhd before the media data, and after it (a file not made fast-start)', async () => {
    const before = mp4([box('moov', mvhd(0, 1000, 83_400)), box('mdat', new Array(500).fill(7))]);
    expect(await videoDuration('video/mp4', before.length, reader(before))).toBe(83);
    const after = mp4([
      box('free', []),
      box('mdat', new Array(5000).fill(7)),
      box('moov', [...box('iods', [0, 0, 0, 0]), ...mvhd(1, 90_000, 90_000 * 600)]),
    ]);
    expect(await videoDuration('video/mp4', after.length, reader(after))).toBe(600);
  });

  it('gives null for an MP4 without moov, with a zero timescale, an unknown duration or a broken box', async () => {
    const none = mp4([box('mdat', [1, 2, 3])]);
    expect(await videoDuration('video/mp4', none.length, reader(none))).toBeNull();
    const zero = mp4([box('moov', mvhd(0, 0, 100))]);
    expect(await videoDuration('video/mp4', zero.length, reader(zero))).toBeNull();
    const unknown = mp4([box('moov', mvhd(0, 600, 0xffffffff))]);
    expect(await videoDuration('video/mp4', unknown.length, reader(unknown))).toBeNull();
    const broken = Uint8Array.from([...box('ftyp', text('isom')), 0, 0, 0, 3, ...text('moov')]);
    expect(await videoDuration('video/mp4', broken.length, reader(broken))).toBeNull();
  });

  it('reads a WebM Segment/Info Duration in TimecodeScale ticks, past a SeekHead, with a segment of unknown size', async () => {
    const info = ebml(
      [0x15, 0x49, 0xa9, 0x66],
      [...ebml([0x2a, 0xd7, 0xb1], u32(1_000_000)), ...ebml([0x44, 0x89], float64(12_345.6))],
    );
    const seekHead = ebml([0x11, 0x4d, 0x9b, 0x74], new Array(40).fill(0));
    const cluster = ebml([0x1f, 0x43, 0xb6, 0x75], new Array(100).fill(0));
    const file = Uint8Array.from([
      ...EBML_HEADER,
      ...ebml([0x18, 0x53, 0x80, 0x67], [...seekHead, ...info, ...cluster], true),
    ]);
    expect(await videoDuration('video/webm', file.length, reader(file))).toBe(12);
    // another scale: 1 tick = 1 ms × 10
    const coarse = ebml(
      [0x15, 0x49, 0xa9, 0x66],
      [...ebml([0x2a, 0xd7, 0xb1], u32(10_000_000)), ...ebml([0x44, 0x89], float64(3_000))],
    );
    const file2 = Uint8Array.from([...EBML_HEADER, ...ebml([0x18, 0x53, 0x80, 0x67], coarse)]);
    expect(await videoDuration('video/webm', file2.length, reader(file2))).toBe(30);
  });

  it('gives null for a WebM recorded live (no Duration) and for bytes that are not EBML', async () => {
    const live = Uint8Array.from([
      ...EBML_HEADER,
      ...ebml(
        [0x18, 0x53, 0x80, 0x67],
        [
          ...ebml([0x15, 0x49, 0xa9, 0x66], ebml([0x2a, 0xd7, 0xb1], u32(1_000_000))),
          ...ebml([0x1f, 0x43, 0xb6, 0x75], [0]),
        ],
        true,
      ),
    ]);
    expect(await videoDuration('video/webm', live.length, reader(live))).toBeNull();
    const junk = Uint8Array.from(text('<html>not a video</html>'));
    expect(await videoDuration('video/webm', junk.length, reader(junk))).toBeNull();
  });
});
