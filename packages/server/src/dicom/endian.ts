/**
 * Explicit VR Big Endian (1.2.840.10008.1.2.2, retired but still sent by old modalities) is
 * stored as received; what yyp serves as raw bytes outside a Part 10 file (WADO-RS frames, bulk
 * data, InlineBinary) is little endian, as PS3.18 8.7.3.5.2 makes the default for
 * application/octet-stream (1.2.840.10008.1.2.1) and as Orthanc and dcm4chee answer. A viewer
 * that reads big-endian words as little endian shows noise.
 */
export const EXPLICIT_VR_BIG_ENDIAN = '1.2.840.10008.1.2.2';
export const EXPLICIT_VR_LITTLE_ENDIAN = '1.2.840.10008.1.2.1';

/**
 * The byte size of one word of a value of this VR, the unit byte order applies to (PS3.5 7.3):
 * OW is a stream of 16-bit words whatever Bits Allocated says, so 32-bit pixels in OW are
 * swapped word by word, which is what makes them little endian again.
 */
export function wordSize(vr: string): 1 | 2 | 4 | 8 {
  switch (vr) {
    case 'OW':
    case 'US':
    case 'SS':
      return 2;
    case 'OF':
    case 'OL':
    case 'FL':
    case 'UL':
    case 'SL':
      return 4;
    case 'OD':
    case 'OV':
    case 'FD':
    case 'SV':
    case 'UV':
      return 8;
    default:
      return 1; // OB, UN and text: bytes have no order
  }
}

/**
 * littleEndianValue: a binary value of a big-endian dataset in little endian (a copy, each word
 * reversed); values whose words are single bytes, and a trailing partial word, are kept as they are.
 */
export function littleEndianValue(value: Uint8Array, vr: string): Uint8Array {
  const size = wordSize(vr);
  if (size === 1) return value;
  const out = Buffer.from(value); // a copy: the stored file is never changed
  const whole = value.length - (value.length % size);
  const words = out.subarray(0, whole);
  if (size === 2) words.swap16();
  else if (size === 4) words.swap32();
  else words.swap64();
  return out;
}
