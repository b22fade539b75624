import { describe, expect, it } from 'vitest';
import { sniffVideo, videoRange } from './learning-video.js';

const bytes = (...parts: (number[] | string)[]) =>
  Uint8Array.from(parts.flatMap((p) => (typeof p === 'string' ? [...p].map((c) => c.charCodeAt(0)) : p)));

describe('sniffVideo', () => {
  it('knows an MP4 by its ftyp box', () => {
    expect(sniffVideo(bytes([0, 0, 0, 0x20], 'ftypisom', [0, 0, 2, 0]))).toBe('video/mp4');
  });
  it('knows a WebM by its EBML magic and DocType webm', () => {
    const head = bytes([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x84], 'webm', [0x42, 0x87]);
    expect(sniffVideo(head)).toBe('video/webm');
  });
  it('refuses a Matroska file that is not WebM, a PNG, text and too few bytes', () => {
    expect(sniffVideo(bytes([0x1a, 0x45, 0xdf, 0xa3, 0x42, 0x82, 0x88], 'matroska'))).toBeNull();
    expect(sniffVideo(bytes([0x89], 'PNG\r\n', [0x1a, 0x0a, 0, 0, 0, 0x0d]))).toBeNull();
    expect(sniffVideo(bytes('<html><body>not a video</body></html>'))).toBeNull();
    expect(sniffVideo(bytes([0, 0, 0]))).toBeNull();
  });
});

describe('videoRange', () => {
  it('answers the whole file without a range, for another unit or several ranges', () => {
    expect(videoRange(undefined, 100)).toBeNull();
    expect(videoRange('items=0-1', 100)).toBeNull();
    expect(videoRange('bytes=0-1,5-6', 100)).toBeNull();
    expect(videoRange('bytes=9-3', 100)).toBeNull();
  });
  it('reads bytes=a-b, bytes=a- and bytes=-n, clipped to the file', () => {
    expect(videoRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
    expect(videoRange('bytes=90-', 100)).toEqual({ start: 90, end: 99 });
    expect(videoRange('bytes=90-500', 100)).toEqual({ start: 90, end: 99 });
    expect(videoRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(videoRange('bytes=-500', 100)).toEqual({ start: 0, end: 99 });
  });
  it('is unsatisfiable past the end or for an empty suffix', () => {
    expect(videoRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(videoRange('bytes=500-600', 100)).toBe('unsatisfiable');
    expect(videoRange('bytes=-0', 100)).toBe('unsatisfiable');
  });
});
