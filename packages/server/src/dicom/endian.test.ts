import { describe, expect, it } from 'vitest';
import { littleEndianValue, wordSize } from './endian.js';

describe('littleEndianValue', () => {
  it('reverses each word of the VR, keeping a trailing partial word, and copies', () => {
    const be = Uint8Array.from([0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09]);
    expect([...littleEndianValue(be, 'OW')]).toEqual([2, 1, 4, 3, 6, 5, 8, 7, 9]);
    expect([...littleEndianValue(be, 'OF')]).toEqual([4, 3, 2, 1, 8, 7, 6, 5, 9]);
    expect([...littleEndianValue(be, 'OD')]).toEqual([8, 7, 6, 5, 4, 3, 2, 1, 9]);
    expect([...be]).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]); // the stored bytes are untouched
  });

  it('leaves byte streams as they are', () => {
    const bytes = Uint8Array.from([1, 2, 3]);
    expect(littleEndianValue(bytes, 'OB')).toBe(bytes);
    expect(littleEndianValue(bytes, 'UN')).toBe(bytes);
  });

  it('knows the word size of every binary and numeric VR', () => {
    expect(['OW', 'US', 'SS'].map(wordSize)).toEqual([2, 2, 2]);
    expect(['OF', 'OL', 'FL', 'UL', 'SL'].map(wordSize)).toEqual([4, 4, 4, 4, 4]);
    expect(['OD', 'OV', 'FD', 'SV', 'UV'].map(wordSize)).toEqual([8, 8, 8, 8, 8]);
  });
});
