/**
 * Lossless rewriting between the two uncompressed little endian transfer syntaxes (PS3.5 A.1, A.2):
 * Implicit VR Little Endian to Explicit (each element's VR from the data dictionary) and back.
 * Values are copied byte for byte; sequences and items are written with undefined lengths and
 * their delimiters (so no length has to be recomputed). Used when a peer accepted a SOP class only
 * in the other syntax (C-GET sub-operations, sends). Anything malformed throws a DicomError.
 */
import { vrOfTag } from './json-model.js';
import {
  EXPLICIT_VR_LE,
  IMPLICIT_VR_LE,
  ITEM,
  ITEM_DELIMITER,
  LONG_LENGTH_VRS,
  SEQUENCE_DELIMITER,
  UNDEFINED_LENGTH,
} from './dataset-writer.js';
import { DicomError, MAX_SEQUENCE_DEPTH } from './parse.js';

export const UNCOMPRESSED_LE: readonly string[] = [EXPLICIT_VR_LE, IMPLICIT_VR_LE];

/** The syntaxes an instance stored in `stored` may be sent in: its own first, and if uncompressed the other little endian one. */
export function sendableSyntaxes(stored: string): string[] {
  return UNCOMPRESSED_LE.includes(stored) ? [stored, ...UNCOMPRESSED_LE.filter((ts) => ts !== stored)] : [stored];
}

const malformed = (what: string) => new DicomError(`cannot rewrite the data set: ${what}`, 'malformed');
const hex = (n: number) => n.toString(16).toUpperCase().padStart(4, '0');

/** The dictionary VR of a tag; group lengths UL, private and unknown tags UN, repeating groups (60xx) by their base. */
function dictionaryVr(tag: number): string {
  const group = tag >>> 16;
  const element = tag & 0xffff;
  if (element === 0) return 'UL';
  if (group % 2 === 1) return element <= 0x00ff && element >= 0x0010 ? 'LO' : 'UN';
  const base = group >= 0x6000 && group <= 0x60ff ? 0x6000 : group >= 0x5000 && group <= 0x50ff ? 0x5000 : group;
  const vr = vrOfTag(`${hex(base)}${hex(element)}`);
  return /^[A-Z]{2}$/.test(vr) ? vr : 'UN';
}

class Writer {
  private readonly parts: Buffer[] = [];
  push(b: Buffer): void {
    this.parts.push(b);
  }
  header(tag: number, vr: string | null, length: number): void {
    const explicit = vr !== null;
    const long = explicit && LONG_LENGTH_VRS.has(vr);
    const b = Buffer.alloc(explicit ? (long ? 12 : 8) : 8);
    b.writeUInt16LE(tag >>> 16, 0);
    b.writeUInt16LE(tag & 0xffff, 2);
    if (!explicit) b.writeUInt32LE(length, 4);
    else {
      b.write(vr, 4, 'latin1');
      if (long) b.writeUInt32LE(length, 8);
      else b.writeUInt16LE(length, 6);
    }
    this.parts.push(b);
  }
  delimiter(tag: number): void {
    const b = Buffer.alloc(8);
    b.writeUInt16LE(tag >>> 16, 0);
    b.writeUInt16LE(tag & 0xffff, 2);
    if (tag === ITEM) b.writeUInt32LE(UNDEFINED_LENGTH, 4);
    this.parts.push(b);
  }
  result(): Buffer {
    return Buffer.concat(this.parts);
  }
}

/**
 * Rewrites a data set (no File Meta Information) from `from` to `to`, both uncompressed little
 * endian; the same syntax answers the bytes as they are.
 */
export function rewriteLittleEndian(dataset: Buffer, from: string, to: string): Buffer {
  if (from === to) return dataset;
  if (!UNCOMPRESSED_LE.includes(from) || !UNCOMPRESSED_LE.includes(to)) {
    throw new DicomError(`cannot rewrite ${from} as ${to}`, 'malformed');
  }
  const out = new Writer();
  new Rewriter(dataset, from === EXPLICIT_VR_LE, out).elements(0, dataset.length, 0, false);
  return out.result();
}

class Rewriter {
  constructor(
    private readonly b: Buffer,
    private readonly explicitIn: boolean,
    private readonly out: Writer,
  ) {}

  private tagAt(at: number): number {
    if (at + 8 > this.b.length) throw malformed('truncated element');
    return ((this.b.readUInt16LE(at) << 16) | this.b.readUInt16LE(at + 2)) >>> 0;
  }

  /** Elements from `at` to `end`, or to an item delimiter when `delimited`; answers the offset after. */
  elements(at: number, end: number, depth: number, delimited: boolean): number {
    if (depth > MAX_SEQUENCE_DEPTH) throw malformed('sequences nested too deep');
    while (at < end) {
      const tag = this.tagAt(at);
      if (tag === ITEM_DELIMITER) {
        if (!delimited) throw malformed('item delimiter outside an item');
        return at + 8;
      }
      let vr: string;
      let length: number;
      let valueAt: number;
      if (this.explicitIn) {
        vr = this.b.toString('latin1', at + 4, at + 6);
        if (!/^[A-Z]{2}$/.test(vr)) throw malformed('invalid VR');
        if (vr === 'UN' && this.b.readUInt32LE(at + 8) === UNDEFINED_LENGTH) {
          throw malformed('a UN sequence of undefined length'); // its items are implicit VR: not rewritten
        }
        if (LONG_LENGTH_VRS.has(vr)) {
          if (at + 12 > this.b.length) throw malformed('truncated element');
          length = this.b.readUInt32LE(at + 8);
          valueAt = at + 12;
        } else {
          length = this.b.readUInt16LE(at + 6);
          valueAt = at + 8;
        }
      } else {
        length = this.b.readUInt32LE(at + 4);
        valueAt = at + 8;
        vr = length === UNDEFINED_LENGTH && tag !== 0x7fe00010 ? 'SQ' : dictionaryVr(tag);
      }
      if (vr === 'SQ') {
        this.out.header(tag, this.explicitIn ? null : 'SQ', UNDEFINED_LENGTH);
        at = this.items(valueAt, length, depth + 1, end);
        this.out.delimiter(SEQUENCE_DELIMITER);
        continue;
      }
      if (length === UNDEFINED_LENGTH) throw malformed(`undefined length on (${hex(tag >>> 16)},${hex(tag & 0xffff)})`);
      if (valueAt + length > end) throw malformed('a value overruns its data set');
      // A short-length VR cannot hold more than 65,535 bytes in explicit VR: it is written as UN.
      const outVr = this.explicitIn ? null : !LONG_LENGTH_VRS.has(vr) && length > 0xffff ? 'UN' : vr;
      this.out.header(tag, outVr, length);
      this.out.push(this.b.subarray(valueAt, valueAt + length));
      at = valueAt + length;
    }
    if (delimited) throw malformed('item without its delimiter');
    return at;
  }

  /** A sequence's items, each written with undefined length; answers the offset after the sequence. */
  private items(at: number, length: number, depth: number, outer: number): number {
    const undefinedLength = length === UNDEFINED_LENGTH;
    const end = undefinedLength ? outer : at + length;
    if (end > outer) throw malformed('a sequence overruns its data set');
    while (at < end) {
      const tag = this.tagAt(at);
      const itemLength = this.b.readUInt32LE(at + 4);
      if (tag === SEQUENCE_DELIMITER) {
        if (!undefinedLength) throw malformed('sequence delimiter in a sequence of defined length');
        return at + 8;
      }
      if (tag !== ITEM) throw malformed('an element where an item was expected');
      this.out.delimiter(ITEM);
      if (itemLength === UNDEFINED_LENGTH) at = this.elements(at + 8, end, depth, true);
      else {
        if (at + 8 + itemLength > end) throw malformed('an item overruns its sequence');
        at = this.elements(at + 8, at + 8 + itemLength, depth, false);
      }
      this.out.delimiter(ITEM_DELIMITER);
    }
    if (undefinedLength) throw malformed('sequence without its delimiter');
    return at;
  }
}
