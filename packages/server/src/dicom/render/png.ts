import { deflateSync } from 'node:zlib';
import type { Image } from './pixels.js';

/**
 * A PNG (ISO/IEC 15948) of an 8-bit gray or RGB image. Written here rather than with a library:
 * the two colour types rendering answers need are a signature, three chunks and a CRC, and
 * node:zlib does the compression; every row uses the Up filter (cheap, and good on the smooth
 * gradients of medical images).
 */
export function encodePng(image: Image, level = 6): Buffer {
  const { width, height, components } = image;
  const stride = width * components;
  const raw = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    const at = y * (stride + 1);
    raw[at] = 2; // Up
    const row = y * stride;
    if (y === 0) {
      raw.set(image.data.subarray(0, stride), at + 1);
      continue;
    }
    for (let i = 0; i < stride; i++) raw[at + 1 + i] = (image.data[row + i]! - image.data[row - stride + i]!) & 0xff;
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = components === 3 ? 2 : 0; // colour type: truecolour or greyscale
  // compression 0, filter method 0, no interlace
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 of the PNG specification (ISO 3309), over a chunk's type and data. */
export function crc32(...parts: Uint8Array[]): number {
  let c = 0xffffffff;
  for (const part of parts) for (const byte of part) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const tail = Buffer.alloc(4);
  tail.writeUInt32BE(crc32(head.subarray(4), data), 0);
  return Buffer.concat([head, data, tail]);
}
