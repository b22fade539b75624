/** Image headers for the report library's tests: what the server reads, nothing it does not. */

/** A PNG's signature and IHDR chunk (what the reader needs; CRC and data are not checked). */
export function pngHeader(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(25);
  ihdr.writeUInt32BE(13, 0);
  ihdr.write('IHDR', 4, 'latin1');
  ihdr.writeUInt32BE(width, 8);
  ihdr.writeUInt32BE(height, 12);
  ihdr[16] = 8;
  ihdr[17] = 6;
  return Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), ihdr, Buffer.alloc(12)]);
}

/** A JPEG start: SOI, an APP0 segment, then a start-of-frame segment of the given marker. */
export function jpegHeader(width: number, height: number, sof = 0xc0): Buffer {
  const app0 = Buffer.from('ffe000104a46494600010100000100010000', 'hex');
  const frame = Buffer.alloc(19);
  frame[0] = 0xff;
  frame[1] = sof;
  frame.writeUInt16BE(17, 2);
  frame[4] = 8;
  frame.writeUInt16BE(height, 5);
  frame.writeUInt16BE(width, 7);
  frame[9] = 3;
  return Buffer.concat([Buffer.from('ffd8', 'hex'), app0, frame, Buffer.from('ffd9', 'hex')]);
}
