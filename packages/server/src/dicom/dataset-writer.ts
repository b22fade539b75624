/**
 * A DICOM dataset writer: little endian only, explicit or implicit VR, sequences with undefined
 * length, text in the dataset's character set. It writes the worklist answers of the DIMSE SCP
 * and, through testdata/writer.ts, the synthetic test files: writing bytes directly (instead of
 * building dcmjs datasets) keeps generation of thousands of 512×512 slices well under a second and
 * lets the fuzz helpers reason about exact offsets.
 */
import { type Charset, encodeText } from './text-encode.js';

export const VRS = [
  ...['AE', 'AS', 'AT', 'CS', 'DA', 'DS', 'DT', 'FD', 'FL', 'IS', 'LO', 'LT', 'OB', 'OW'],
  ...['PN', 'SH', 'SL', 'SQ', 'SS', 'ST', 'TM', 'UC', 'UI', 'UL', 'UN', 'UR', 'US', 'UT'],
] as const;
export type VR = (typeof VRS)[number];

export const EXPLICIT_VR_LE = '1.2.840.10008.1.2.1';
export const IMPLICIT_VR_LE = '1.2.840.10008.1.2';
export type TransferSyntax = typeof EXPLICIT_VR_LE | typeof IMPLICIT_VR_LE;

/** VRs whose explicit-VR header has two reserved bytes and a 4-byte length (PS3.5 §7.1.2). */
export const LONG_LENGTH_VRS: ReadonlySet<string> = new Set([
  'OB',
  'OD',
  'OF',
  'OL',
  'OV',
  'OW',
  'SQ',
  'SV',
  'UC',
  'UN',
  'UR',
  'UT',
  'UV',
]);
/** VRs whose value is affected by SpecificCharacterSet (PS3.5 §6.1.2.3). */
export const CHARSET_VRS: ReadonlySet<string> = new Set(['SH', 'LO', 'ST', 'LT', 'UT', 'PN', 'UC']);

export const UNDEFINED_LENGTH = 0xffffffff;
export const ITEM = 0xfffee000;
export const ITEM_DELIMITER = 0xfffee00d;
export const SEQUENCE_DELIMITER = 0xfffee0dd;

/** `tag(0x0010, 0x0010)` → 0x00100010, the order elements must appear in. */
export function tag(group: number, element: number): number {
  return ((group << 16) | element) >>> 0;
}

interface Element {
  tag: number;
  vr: VR;
  value: Buffer | DatasetBuilder[];
}

/** DS allows 16 characters; shorten precision until the decimal fits. */
export function formatDecimal(n: number): string {
  let text = String(n);
  for (let precision = 15; text.length > 16 && precision > 0; precision--) {
    text = String(Number(n.toPrecision(precision)));
  }
  return text;
}

/** Collects elements in any order; encoding sorts them by tag. */
export class DatasetBuilder {
  private readonly elements = new Map<number, Element>();

  constructor(readonly charset: Charset = '') {}

  /** Text VRs. Arrays become backslash-separated multi-values; charset applies where PS3.5 says. */
  text(t: number, vr: VR, value: string | readonly string[]): this {
    const joined = typeof value === 'string' ? value : value.join('\\');
    const bytes = CHARSET_VRS.has(vr) ? encodeText(joined, this.charset) : encodeText(joined, '');
    return this.set(t, vr, pad(bytes, vr === 'UI' ? 0 : 0x20));
  }

  decimal(t: number, values: number | readonly number[]): this {
    const list = typeof values === 'number' ? [values] : values;
    return this.text(t, 'DS', list.map(formatDecimal));
  }

  integerString(t: number, values: number | readonly number[]): this {
    const list = typeof values === 'number' ? [values] : values;
    return this.text(
      t,
      'IS',
      list.map((v) => String(Math.trunc(v))),
    );
  }

  uint16(t: number, ...values: number[]): this {
    const b = Buffer.alloc(values.length * 2);
    values.forEach((v, i) => b.writeUInt16LE(v, i * 2));
    return this.set(t, 'US', b);
  }

  int16(t: number, ...values: number[]): this {
    const b = Buffer.alloc(values.length * 2);
    values.forEach((v, i) => b.writeInt16LE(v, i * 2));
    return this.set(t, 'SS', b);
  }

  uint32(t: number, ...values: number[]): this {
    const b = Buffer.alloc(values.length * 4);
    values.forEach((v, i) => b.writeUInt32LE(v, i * 4));
    return this.set(t, 'UL', b);
  }

  /** AT: each tag is written as group then element, two 16-bit words. */
  attributeTag(t: number, ...tags: number[]): this {
    const b = Buffer.alloc(tags.length * 4);
    tags.forEach((v, i) => {
      b.writeUInt16LE(v >>> 16, i * 4);
      b.writeUInt16LE(v & 0xffff, i * 4 + 2);
    });
    return this.set(t, 'AT', b);
  }

  bytes(t: number, vr: 'OB' | 'OW' | 'UN', value: Buffer): this {
    return this.set(t, vr, value.length % 2 ? pad(value, 0) : value);
  }

  /** A zero-length value (a key asked for and unknown, a type 2 attribute without a value). */
  empty(t: number, vr: VR): this {
    return this.set(t, vr, Buffer.alloc(0));
  }

  sequence(t: number, items: DatasetBuilder[]): this {
    this.elements.set(t, { tag: t, vr: 'SQ', value: items });
    return this;
  }

  has(t: number): boolean {
    return this.elements.has(t);
  }

  /** Encoded chunks, ready for Buffer.concat or a stream. */
  encode(explicitVr: boolean, out: Uint8Array[] = []): Uint8Array[] {
    const sorted = [...this.elements.values()].sort((a, b) => a.tag - b.tag);
    for (const el of sorted) {
      if (Array.isArray(el.value)) {
        out.push(header(el.tag, 'SQ', UNDEFINED_LENGTH, explicitVr));
        for (const item of el.value) {
          out.push(delimiter(ITEM, UNDEFINED_LENGTH));
          item.encode(explicitVr, out);
          out.push(delimiter(ITEM_DELIMITER, 0));
        }
        out.push(delimiter(SEQUENCE_DELIMITER, 0));
      } else {
        out.push(header(el.tag, el.vr, el.value.length, explicitVr), el.value);
      }
    }
    return out;
  }

  /** The whole dataset in one buffer (a DIMSE message's data set). */
  toBuffer(explicitVr: boolean): Buffer {
    return Buffer.concat(this.encode(explicitVr));
  }

  private set(t: number, vr: VR, value: Buffer): this {
    this.elements.set(t, { tag: t, vr, value });
    return this;
  }
}

function pad(bytes: Buffer, fill: number): Buffer {
  return bytes.length % 2 ? Buffer.concat([bytes, Buffer.from([fill])]) : bytes;
}

/** Element header for either little-endian encoding. */
export function header(t: number, vr: VR, length: number, explicitVr: boolean): Buffer {
  if (!explicitVr) {
    const b = Buffer.alloc(8);
    b.writeUInt16LE(t >>> 16, 0);
    b.writeUInt16LE(t & 0xffff, 2);
    b.writeUInt32LE(length, 4);
    return b;
  }
  const long = LONG_LENGTH_VRS.has(vr);
  const b = Buffer.alloc(long ? 12 : 8);
  b.writeUInt16LE(t >>> 16, 0);
  b.writeUInt16LE(t & 0xffff, 2);
  b.write(vr, 4, 'latin1');
  if (long) {
    b.writeUInt32LE(length, 8);
  } else {
    if (length > 0xffff) {
      throw new Error(`value of ${vr} element ${t.toString(16)} is too long (${length} bytes)`);
    }
    b.writeUInt16LE(length, 6);
  }
  return b;
}

/** Item and delimitation headers have no VR in any transfer syntax. */
export function delimiter(t: number, length: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeUInt16LE(t >>> 16, 0);
  b.writeUInt16LE(t & 0xffff, 2);
  b.writeUInt32LE(length, 4);
  return b;
}

/**
 * A growing buffer written front to back (the worklist answers of a C-FIND, mwl-encoder.ts): one
 * allocation for many elements instead of one per header and value. Write at `length` into
 * `buffer` after `reserve`, then move `length` on.
 */
export class ByteWriter {
  buffer: Buffer;
  length = 0;

  constructor(capacity = 4096) {
    this.buffer = Buffer.allocUnsafe(capacity);
  }

  /** Makes room for `n` more bytes (the buffer may be replaced: read `buffer` after this). */
  reserve(n: number): void {
    if (this.length + n <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.length + n, this.buffer.length * 2));
    this.buffer.copy(grown, 0, 0, this.length);
    this.buffer = grown;
  }

  bytes(b: Uint8Array): void {
    this.reserve(b.length);
    this.buffer.set(b, this.length);
    this.length += b.length;
  }

  /** Forgets what was written after `length`. */
  truncate(length: number): void {
    this.length = length;
  }

  /** The bytes from `from` to `to` (a view: valid until they are written over after a truncate). */
  view(from: number, to: number = this.length): Buffer {
    return this.buffer.subarray(from, to);
  }
}
