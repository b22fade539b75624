/** What a PNG or JPEG image's header says: its type and size in pixels. */
export interface ImageHeader {
  contentType: 'image/png' | 'image/jpeg';
  width: number;
  height: number;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** SOFn markers carry the frame size; C4 (DHT), C8 (JPG) and CC (DAC) share the range but do not. */
const isStartOfFrame = (m: number) => m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc;

/**
 * Reads the size from the header only (PNG's IHDR chunk; JPEG's start-of-frame segment), without
 * decoding the image. Null when the bytes are neither, or the header is cut short or says 0×0.
 */
export function readImageHeader(bytes: Uint8Array): ImageHeader | null {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.length >= 24 && b.subarray(0, 8).equals(PNG_SIGNATURE)) {
    if (b.toString('latin1', 12, 16) !== 'IHDR') return null;
    return sized('image/png', b.readUInt32BE(16), b.readUInt32BE(20));
  }
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8) return null;
  let i = 2;
  while (i + 4 <= b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1]!;
    // Fill bytes before a marker.
    if (marker === 0xff) {
      i += 1;
      continue;
    }
    // Markers without a length: TEM, RSTn, a repeated SOI.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      i += 2;
      continue;
    }
    // The image data or its end came before any frame header.
    if (marker === 0xd9 || marker === 0xda) return null;
    const length = b.readUInt16BE(i + 2);
    if (length < 2) return null;
    if (isStartOfFrame(marker)) {
      if (i + 9 > b.length) return null;
      return sized('image/jpeg', b.readUInt16BE(i + 7), b.readUInt16BE(i + 5));
    }
    i += 2 + length;
  }
  return null;
}

function sized(contentType: ImageHeader['contentType'], width: number, height: number): ImageHeader | null {
  return width > 0 && height > 0 ? { contentType, width, height } : null;
}
