import { describe, expect, it } from 'vitest';
import { readImageHeader } from './image-header.js';
import { jpegHeader, pngHeader } from './report-library.fixture.js';

describe('readImageHeader', () => {
  it('reads a PNG size from IHDR', () => {
    expect(readImageHeader(pngHeader(640, 480))).toEqual({ contentType: 'image/png', width: 640, height: 480 });
  });

  it('reads a JPEG size from its baseline or progressive frame header, past other segments', () => {
    expect(readImageHeader(jpegHeader(800, 600))).toEqual({ contentType: 'image/jpeg', width: 800, height: 600 });
    expect(readImageHeader(jpegHeader(321, 123, 0xc2))).toEqual({ contentType: 'image/jpeg', width: 321, height: 123 });
    // A Huffman table segment (C4) in the SOF range is skipped, not read as a frame.
    const withDht = Buffer.concat([
      Buffer.from('ffd8', 'hex'),
      Buffer.from('ffc4000500aa00', 'hex'),
      jpegHeader(5, 6).subarray(2),
    ]);
    expect(readImageHeader(withDht)).toEqual({ contentType: 'image/jpeg', width: 5, height: 6 });
  });

  it('refuses other bytes, cut headers and empty sizes', () => {
    expect(readImageHeader(Buffer.from('GIF89a0000000000000000000000'))).toBeNull();
    expect(readImageHeader(pngHeader(10, 10).subarray(0, 20))).toBeNull();
    expect(readImageHeader(pngHeader(0, 10))).toBeNull();
    expect(readImageHeader(jpegHeader(10, 0))).toBeNull();
    expect(readImageHeader(jpegHeader(10, 10).subarray(0, 26))).toBeNull();
    expect(readImageHeader(Buffer.from('ffd8ffd9', 'hex'))).toBeNull();
    expect(readImageHeader(Buffer.alloc(0))).toBeNull();
  });
});
