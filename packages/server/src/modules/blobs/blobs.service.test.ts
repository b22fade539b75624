import { describe, expect, it } from 'vitest';
import { parseRange } from './blobs.service.js';

describe('parseRange', () => {
  it.each([
    ['bytes=0-9', 100, { start: 0, end: 9 }],
    ['bytes=90-', 100, { start: 90, end: 99 }],
    ['bytes=-10', 100, { start: 90, end: 99 }],
    ['bytes=95-200', 100, { start: 95, end: 99 }],
    ['bytes=-200', 100, { start: 0, end: 99 }],
  ] as const)('%s of %d bytes', (header, size, range) => {
    expect(parseRange(header, size)).toEqual(range);
  });
  it.each([undefined, '', 'bytes=-', 'bytes=5-1', 'bytes=100-', 'bytes=0-1,5-6', 'items=0-1'])(
    'answers %j whole',
    (h) => {
      expect(parseRange(h, 100)).toBeNull();
    },
  );
  it('answers an empty blob whole', () => {
    expect(parseRange('bytes=0-0', 0)).toBeNull();
  });
});
