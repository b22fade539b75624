/**
 * A stored instance rewritten in another transfer syntax (issue 28 item 7, WADO-RS retrieval with
 * a transfer-syntax parameter). Between the two uncompressed little endian syntaxes the data set
 * is rewritten as it is (../transcode.ts); otherwise every frame is decoded and encoded in the
 * target syntax, the data set is written in explicit VR little endian (from explicit or implicit
 * little endian, or byte-swapped from big endian), Photometric Interpretation and Planar
 * Configuration say what the new frames hold, Lossy Image Compression is set when the new coding
 * is lossy (PS3.3 C.7.6.1.1.5), and the File Meta Information names the new syntax.
 */
import { wordSize } from '../endian.js';
import { ITEM, ITEM_DELIMITER, LONG_LENGTH_VRS, SEQUENCE_DELIMITER, UNDEFINED_LENGTH } from '../dataset-writer.js';
import { part10Dataset, toPart10 } from '../part10.js';
import { rewriteLittleEndian, UNCOMPRESSED_LE } from '../transcode.js';
import { canDecode, decodeFrame } from './decode.js';
import { canEncode, encodedPhotometric, encodeFrame, encodesSyntax } from './encode.js';
import { CodecError } from './errors.js';
import { pixelFrames } from './pixel-frames.js';
import { LOSSY_OUTPUT, lossyMethod, NATIVE_SYNTAXES, TS } from './syntaxes.js';
import { nextTurn } from './wasm.js';

const PIXEL_DATA = 0x7fe00010;
const PHOTOMETRIC = 0x00280004;
const PLANAR = 0x00280006;
const LOSSY = 0x00282110;
const LOSSY_RATIO = 0x00282112;
const LOSSY_METHOD = 0x00282114;
/** Trailing padding and digital signatures: a rewritten data set drops them (a signature no longer holds). */
const DROPPED = new Set([0xfffcfffc, 0xfffafffa]);

/** Syntaxes whose stored frames were coded lossily whatever the data set says. */
const LOSSY_STORED: ReadonlySet<string> = new Set([TS.jpegBaseline, TS.jpegExtended, TS.jpegLsNearLossless]);

const malformed = (what: string) => new CodecError(`the data set cannot be rewritten: ${what}`, 'corrupt');

interface Element {
  tag: number;
  bytes: Buffer; // the whole element, explicit VR little endian
}

/**
 * Explicit VR elements (little or big endian) rewritten in explicit VR little endian: headers
 * re-written, each binary value's words swapped from big endian (endian.ts wordSize), sequences and
 * items kept with their lengths (a value's length does not change with its byte order).
 */
class ExplicitReader {
  constructor(
    private readonly b: Buffer,
    private readonly big: boolean,
  ) {}

  private u16(at: number): number {
    return this.big ? this.b.readUInt16BE(at) : this.b.readUInt16LE(at);
  }
  private u32(at: number): number {
    return this.big ? this.b.readUInt32BE(at) : this.b.readUInt32LE(at);
  }
  private tagAt(at: number): number {
    if (at + 8 > this.b.length) throw malformed('truncated element');
    return ((this.u16(at) << 16) | this.u16(at + 2)) >>> 0;
  }

  private delimiter(tag: number, length: number): Buffer {
    const out = Buffer.alloc(8);
    out.writeUInt16LE(tag >>> 16, 0);
    out.writeUInt16LE(tag & 0xffff, 2);
    out.writeUInt32LE(length, 4);
    return out;
  }

  /** Elements from `at` to `end` (or to an item delimiter when `delimited`), each pushed whole to `out` at top level. */
  elements(at: number, end: number, delimited: boolean, depth: number, out: Element[] | Buffer[]): number {
    if (depth > 64) throw malformed('sequences nested too deep');
    while (at < end) {
      const tag = this.tagAt(at);
      if (tag === ITEM_DELIMITER) {
        if (!delimited) throw malformed('item delimiter outside an item');
        (out as Buffer[]).push(this.delimiter(tag, 0));
        return at + 8;
      }
      const vr = this.b.toString('latin1', at + 4, at + 6);
      if (!/^[A-Z]{2}$/.test(vr)) throw malformed('invalid VR');
      const long = LONG_LENGTH_VRS.has(vr);
      const length = long ? this.u32(at + 8) : this.u16(at + 6);
      const valueAt = at + (long ? 12 : 8);
      const header = Buffer.alloc(long ? 12 : 8);
      header.writeUInt16LE(tag >>> 16, 0);
      header.writeUInt16LE(tag & 0xffff, 2);
      header.write(vr, 4, 'latin1');
      if (long) header.writeUInt32LE(length, 8);
      else header.writeUInt16LE(length, 6);
      const parts: Buffer[] = [header];
      let next: number;
      if (vr === 'SQ' || (length === UNDEFINED_LENGTH && tag === PIXEL_DATA)) {
        next = this.items(valueAt, length, end, depth + 1, parts, vr !== 'SQ');
      } else {
        if (length === UNDEFINED_LENGTH) throw malformed(`undefined length on a ${vr} value`);
        if (valueAt + length > end) throw malformed('a value overruns its data set');
        const value = this.b.subarray(valueAt, valueAt + length);
        parts.push(this.big ? swapped(value, vr) : value);
        next = valueAt + length;
      }
      const bytes = parts.length === 1 ? parts[0]! : Buffer.concat(parts);
      if (depth === 0) (out as Element[]).push({ tag, bytes });
      else (out as Buffer[]).push(bytes);
      at = next;
    }
    if (delimited) throw malformed('item without its delimiter');
    return at;
  }

  /** A sequence's items (or encapsulated fragments when `raw`), pushed to `out`; answers the offset after. */
  private items(at: number, length: number, outer: number, depth: number, out: Buffer[], raw: boolean): number {
    const undefinedLength = length === UNDEFINED_LENGTH;
    const end = undefinedLength ? outer : at + length;
    if (end > outer) throw malformed('a sequence overruns its data set');
    while (at < end) {
      const tag = this.tagAt(at);
      const itemLength = this.u32(at + 4);
      if (tag === SEQUENCE_DELIMITER) {
        out.push(this.delimiter(tag, 0));
        return at + 8;
      }
      if (tag !== ITEM) throw malformed('an element where an item was expected');
      out.push(this.delimiter(ITEM, itemLength));
      if (raw) {
        if (at + 8 + itemLength > end) throw malformed('a fragment overruns its pixel data');
        out.push(this.b.subarray(at + 8, at + 8 + itemLength));
        at += 8 + itemLength;
      } else if (itemLength === UNDEFINED_LENGTH) {
        at = this.elements(at + 8, end, true, depth, out);
      } else {
        if (at + 8 + itemLength > end) throw malformed('an item overruns its sequence');
        at = this.elements(at + 8, at + 8 + itemLength, false, depth, out);
      }
    }
    if (undefinedLength) throw malformed('sequence without its delimiter');
    return at;
  }
}

function swapped(value: Buffer, vr: string): Buffer {
  const size = wordSize(vr);
  if (size === 1) return value;
  const out = Buffer.from(value);
  const whole = out.subarray(0, out.length - (out.length % size));
  if (size === 2) whole.swap16();
  else if (size === 4) whole.swap32();
  else whole.swap64();
  return out;
}

function element(tag: number, vr: string, value: Buffer): Element {
  const padded =
    value.length % 2 ? Buffer.concat([value, Buffer.from([vr === 'UI' || vr === 'OB' ? 0 : 0x20])]) : value;
  const long = LONG_LENGTH_VRS.has(vr);
  const header = Buffer.alloc(long ? 12 : 8);
  header.writeUInt16LE(tag >>> 16, 0);
  header.writeUInt16LE(tag & 0xffff, 2);
  header.write(vr, 4, 'latin1');
  if (long) header.writeUInt32LE(padded.length, 8);
  else header.writeUInt16LE(padded.length, 6);
  return { tag, bytes: Buffer.concat([header, padded]) };
}

/** Encapsulated pixel data (PS3.5 A.4): a Basic Offset Table, then one fragment per frame. */
function encapsulated(frames: Uint8Array[]): Element {
  const header = Buffer.alloc(12);
  header.writeUInt16LE(PIXEL_DATA >>> 16, 0);
  header.writeUInt16LE(PIXEL_DATA & 0xffff, 2);
  header.write('OB', 4, 'latin1');
  header.writeUInt32LE(UNDEFINED_LENGTH, 8);
  const item = (length: number) => {
    const b = Buffer.alloc(8);
    b.writeUInt16LE(0xfffe, 0);
    b.writeUInt16LE(0xe000, 2);
    b.writeUInt32LE(length, 4);
    return b;
  };
  const table = Buffer.alloc(frames.length > 1 ? 4 * frames.length : 0);
  const parts: Buffer[] = [header, item(table.length), table];
  let offset = 0;
  frames.forEach((f, i) => {
    if (frames.length > 1) table.writeUInt32LE(offset, 4 * i);
    const even = f.length % 2 ? Buffer.concat([f, Buffer.alloc(1)]) : Buffer.from(f.buffer, f.byteOffset, f.byteLength);
    parts.push(item(even.length), even);
    offset += 8 + even.length;
  });
  const end = Buffer.alloc(8);
  end.writeUInt16LE(0xfffe, 0);
  end.writeUInt16LE(0xe0dd, 2);
  parts.push(end);
  return { tag: PIXEL_DATA, bytes: Buffer.concat(parts) };
}

/** The top-level elements of the stored data set in explicit VR little endian. */
function explicitLittleElements(dataset: Buffer, stored: string): Element[] {
  const source =
    stored === TS.implicitLittle ? rewriteLittleEndian(dataset, TS.implicitLittle, TS.explicitLittle) : dataset;
  const out: Element[] = [];
  new ExplicitReader(source, stored === TS.explicitBig).elements(0, source.length, false, 0, out);
  return out;
}

/** Whether an instance stored in `stored` can be served in `target`. */
export function canTranscode(stored: string, target: string): boolean {
  if (stored === target) return true;
  if (UNCOMPRESSED_LE.includes(stored) && UNCOMPRESSED_LE.includes(target)) return true;
  // The pixels decide canEncode; here only what the syntaxes allow at all.
  return canDecode(stored) && stored !== TS.deflated && encodesSyntax(target);
}

/**
 * The Part 10 file of an instance in `target`; the file itself when it is stored so. CodecError
 * when its frames cannot be decoded or written in `target`.
 */
export async function transcodeInstance(file: Uint8Array, target: string): Promise<Uint8Array> {
  const buf = Buffer.from(file.buffer, file.byteOffset, file.byteLength);
  let meta;
  try {
    meta = part10Dataset(buf);
  } catch {
    throw new CodecError('the stored file is no Part 10 file', 'corrupt');
  }
  const stored = meta.transferSyntaxUid || TS.implicitLittle;
  if (stored === target) return file;
  const ids = { sopClassUid: meta.sopClassUid, sopInstanceUid: meta.sopInstanceUid, transferSyntaxUid: target };
  try {
    if (UNCOMPRESSED_LE.includes(stored) && UNCOMPRESSED_LE.includes(target)) {
      return toPart10(rewriteLittleEndian(meta.dataset, stored, target), ids);
    }
  } catch (err) {
    throw new CodecError(`the data set cannot be rewritten: ${(err as Error).message}`, 'corrupt');
  }
  if (!canTranscode(stored, target)) {
    throw new CodecError(`an instance stored as ${stored} is not served as ${target}`, 'unsupported-syntax');
  }
  let elements: Element[];
  try {
    elements = explicitLittleElements(meta.dataset, stored);
  } catch (err) {
    if (err instanceof CodecError) throw err;
    throw new CodecError(`the data set cannot be rewritten: ${(err as Error).message}`, 'corrupt');
  }
  if (!elements.some((e) => e.tag === PIXEL_DATA)) {
    // No pixels (a report, a presentation state): its data set is explicit VR little endian, as in
    // every compressed syntax, so it is valid under the target's name.
    const dataset = Buffer.concat(elements.map((e) => e.bytes));
    return toPart10(
      target === TS.implicitLittle ? rewriteLittleEndian(dataset, TS.explicitLittle, target) : dataset,
      ids,
    );
  }
  const source = pixelFrames(file);
  const pixel = source.pixel;
  if (!canEncode(target, pixel)) {
    throw new CodecError(`these pixels cannot be written as ${target}`, 'unsupported-pixels');
  }
  const encoded: Uint8Array[] = [];
  let photometric = pixel.photometricInterpretation;
  for (let n = 0; n < source.frames; n++) {
    if (n > 0) await nextTurn();
    const decoded = await decodeFrame(source.frame(n), source.frameSyntax, pixel);
    const bytes = await encodeFrame(
      decoded,
      { ...pixel, photometricInterpretation: decoded.photometricInterpretation },
      target,
    );
    if (n === 0) photometric = encodedPhotometric(decoded, target, bytes);
    encoded.push(bytes);
  }
  const replaced = new Map<number, Element>();
  replaced.set(PHOTOMETRIC, element(PHOTOMETRIC, 'CS', Buffer.from(photometric, 'latin1')));
  if (pixel.samplesPerPixel > 1) {
    const zero = Buffer.alloc(2);
    replaced.set(PLANAR, element(PLANAR, 'US', zero)); // decoded frames are interleaved, and so are encoded ones
  }
  const current = (tag: number) => elements.find((e) => e.tag === tag);
  const valueOf = (e: Element | undefined) => {
    if (!e) return '';
    const long = LONG_LENGTH_VRS.has(e.bytes.toString('latin1', 4, 6));
    return e.bytes.toString('latin1', long ? 12 : 8).replace(/[\0 ]+$/, '');
  };
  const lossyNow = LOSSY_OUTPUT.has(target);
  if (lossyNow || (LOSSY_STORED.has(stored) && valueOf(current(LOSSY)) !== '01')) {
    replaced.set(LOSSY, element(LOSSY, 'CS', Buffer.from('01')));
  }
  if (lossyNow) {
    const nativeBytes = source.frames * pixel.rows * pixel.columns * pixel.samplesPerPixel * (pixel.bitsAllocated / 8);
    const codedBytes = encoded.reduce((sum, f) => sum + f.length, 0);
    const methods = valueOf(current(LOSSY_METHOD));
    const ratios = valueOf(current(LOSSY_RATIO));
    const ratio = (nativeBytes / Math.max(codedBytes, 1)).toFixed(2);
    replaced.set(
      LOSSY_METHOD,
      element(LOSSY_METHOD, 'CS', Buffer.from([methods, lossyMethod(target)].filter(Boolean).join('\\'))),
    );
    replaced.set(LOSSY_RATIO, element(LOSSY_RATIO, 'DS', Buffer.from([ratios, ratio].filter(Boolean).join('\\'))));
  }
  if (NATIVE_SYNTAXES.has(target)) {
    const total = encoded.reduce((sum, f) => sum + f.length, 0);
    const value = Buffer.alloc(total + (total % 2));
    let at = 0;
    for (const f of encoded) {
      value.set(f, at);
      at += f.length;
    }
    replaced.set(PIXEL_DATA, element(PIXEL_DATA, pixel.bitsAllocated > 8 ? 'OW' : 'OB', value));
  } else {
    replaced.set(PIXEL_DATA, encapsulated(encoded));
  }
  const kept = elements.filter((e) => !replaced.has(e.tag) && !DROPPED.has(e.tag));
  const all = [...kept, ...replaced.values()].sort((a, b) => a.tag - b.tag);
  let dataset: Buffer = Buffer.concat(all.map((e) => e.bytes));
  if (target === TS.implicitLittle) dataset = rewriteLittleEndian(dataset, TS.explicitLittle, TS.implicitLittle);
  return toPart10(dataset, ids);
}

/**
 * The Pixel Data of an instance as native little-endian bytes, all frames in order (the bulk data
 * of encapsulated pixel data, served as application/octet-stream, whose default syntax is explicit
 * VR little endian: PS3.18 8.7.3.5.2). Samples interleaved, as decodeFrame answers them.
 */
export async function nativePixelData(file: Uint8Array): Promise<Uint8Array> {
  const source = pixelFrames(file);
  const frames: Uint8Array[] = [];
  for (let n = 0; n < source.frames; n++) {
    if (n > 0) await nextTurn();
    const decoded = await decodeFrame(source.frame(n), source.frameSyntax, source.pixel);
    frames.push(new Uint8Array(decoded.pixels.buffer, decoded.pixels.byteOffset, decoded.pixels.byteLength));
  }
  return Buffer.concat(frames);
}
