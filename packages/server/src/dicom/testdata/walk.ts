/**
 * Locates top-level elements in a little-endian Part 10 file, so fuzz mutations can hit real
 * length fields and values instead of random bytes only. It trusts its input (a file from the
 * generator); it is not a parser for untrusted data.
 */
import { IMPLICIT_VR_LE, ITEM_DELIMITER, LONG_LENGTH_VRS, SEQUENCE_DELIMITER, UNDEFINED_LENGTH } from './writer.js';

export interface ElementPosition {
  tag: number;
  /** undefined in implicit VR datasets. */
  vr: string | undefined;
  headerOffset: number;
  lengthOffset: number;
  lengthBytes: 2 | 4;
  valueOffset: number;
  /** Declared length; UNDEFINED_LENGTH for sequences written with delimiters. */
  length: number;
  /** Offset just after the element, delimiters included. */
  end: number;
}

export interface Part10Layout {
  transferSyntax: string;
  explicitVr: boolean;
  /** Offset of the first dataset element (end of group 0002). */
  datasetOffset: number;
  meta: ElementPosition[];
  dataset: ElementPosition[];
}

function readTag(b: Buffer, o: number): number {
  return ((b.readUInt16LE(o) << 16) | b.readUInt16LE(o + 2)) >>> 0;
}

function readElement(b: Buffer, o: number, explicitVr: boolean): ElementPosition {
  const t = readTag(b, o);
  const isDelimiter = t >>> 16 === 0xfffe;
  if (!explicitVr || isDelimiter) {
    const length = b.readUInt32LE(o + 4);
    return {
      tag: t,
      vr: undefined,
      headerOffset: o,
      lengthOffset: o + 4,
      lengthBytes: 4,
      valueOffset: o + 8,
      length,
      end: 0,
    };
  }
  const vr = b.toString('latin1', o + 4, o + 6);
  if (LONG_LENGTH_VRS.has(vr)) {
    const length = b.readUInt32LE(o + 8);
    return { tag: t, vr, headerOffset: o, lengthOffset: o + 8, lengthBytes: 4, valueOffset: o + 12, length, end: 0 };
  }
  const length = b.readUInt16LE(o + 6);
  return { tag: t, vr, headerOffset: o, lengthOffset: o + 6, lengthBytes: 2, valueOffset: o + 8, length, end: 0 };
}

/**
 * Offset after an undefined-length value: counts open sequences/items against delimiters
 * instead of recursing, because the fuzz cases nest 10,000 levels deep.
 */
function skipUndefined(b: Buffer, o: number, explicitVr: boolean): number {
  let open = 1;
  while (o + 8 <= b.length) {
    const el = readElement(b, o, explicitVr);
    if (el.tag === ITEM_DELIMITER || el.tag === SEQUENCE_DELIMITER) {
      open -= 1;
      if (open === 0) {
        return el.valueOffset;
      }
      o = el.valueOffset;
    } else if (el.length === UNDEFINED_LENGTH) {
      open += 1;
      o = el.valueOffset;
    } else {
      o = el.valueOffset + el.length;
    }
  }
  return b.length;
}

function walk(b: Buffer, start: number, stop: number, explicitVr: boolean): ElementPosition[] {
  const out: ElementPosition[] = [];
  let o = start;
  while (o + 8 <= stop) {
    const el = readElement(b, o, explicitVr);
    el.end = el.length === UNDEFINED_LENGTH ? skipUndefined(b, el.valueOffset, explicitVr) : el.valueOffset + el.length;
    out.push(el);
    o = el.end;
  }
  return out;
}

export function part10Layout(bytes: Buffer): Part10Layout {
  if (bytes.length < 144 || bytes.toString('latin1', 128, 132) !== 'DICM') {
    throw new Error('not a Part 10 file');
  }
  const groupLength = bytes.readUInt32LE(140);
  const datasetOffset = 144 + groupLength;
  const meta = walk(bytes, 132, datasetOffset, true);
  const ts = meta.find((e) => e.tag === 0x00020010);
  const transferSyntax = ts
    ? bytes.toString('latin1', ts.valueOffset, ts.valueOffset + ts.length).replace(/[\0 ]+$/, '')
    : IMPLICIT_VR_LE;
  const explicitVr = transferSyntax !== IMPLICIT_VR_LE;
  return {
    transferSyntax,
    explicitVr,
    datasetOffset,
    meta,
    dataset: walk(bytes, datasetOffset, bytes.length, explicitVr),
  };
}
