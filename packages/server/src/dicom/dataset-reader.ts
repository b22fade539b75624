/**
 * A reader of the small datasets DIMSE messages carry (a C-FIND identifier, an MPPS N-CREATE or
 * N-SET attribute list): little endian, explicit or implicit VR, sequences of defined or undefined
 * length. Values stay views into the received bytes; text is decoded by the caller in the
 * dataset's character set. It is for untrusted input: anything malformed throws a DicomError
 * (reason 'malformed'), sequences nest at most MAX_SEQUENCE_DEPTH levels.
 */
import { decodeDicomText } from './charset.js';
import {
  EXPLICIT_VR_LE,
  ITEM,
  ITEM_DELIMITER,
  LONG_LENGTH_VRS,
  SEQUENCE_DELIMITER,
  UNDEFINED_LENGTH,
} from './dataset-writer.js';
import { DicomError, MAX_SEQUENCE_DEPTH } from './parse.js';

export interface DatasetElement {
  /** The VR as written (explicit VR), 'SQ' for a sequence, undefined for other implicit VR elements. */
  vr: string | undefined;
  value: Buffer;
  /** The items of a sequence. */
  items?: Dataset[];
}

/** Elements by tag (group << 16 | element). */
export type Dataset = Map<number, DatasetElement>;

const malformed = (what: string) => new DicomError(`malformed dataset: ${what}`, 'malformed');

/**
 * Reads `bytes` as a dataset in `transferSyntax` (Explicit or Implicit VR Little Endian).
 * `sequenceTags` names the tags that are sequences in implicit VR when written with a defined
 * length (undefined-length elements are always read as sequences there).
 */
export function readDataset(
  bytes: Buffer,
  transferSyntax: string,
  sequenceTags: ReadonlySet<number> = new Set(),
): Dataset {
  const explicitVr = transferSyntax === EXPLICIT_VR_LE;
  const reader = new Reader(bytes, explicitVr, sequenceTags);
  const ds = reader.dataset(0, bytes.length, 0, false);
  return ds.dataset;
}

class Reader {
  constructor(
    private readonly b: Buffer,
    private readonly explicitVr: boolean,
    private readonly sequenceTags: ReadonlySet<number>,
  ) {}

  private tagAt(at: number): number {
    if (at + 4 > this.b.length) throw malformed('truncated tag');
    return ((this.b.readUInt16LE(at) << 16) | this.b.readUInt16LE(at + 2)) >>> 0;
  }

  /**
   * Elements from `start` up to `end`, or up to an item delimiter when `delimited`; answers the
   * dataset and the offset after it (after the delimiter).
   */
  dataset(start: number, end: number, depth: number, delimited: boolean): { dataset: Dataset; next: number } {
    if (depth > MAX_SEQUENCE_DEPTH) throw malformed(`sequences nested deeper than ${MAX_SEQUENCE_DEPTH}`);
    const ds: Dataset = new Map();
    let at = start;
    while (at < end) {
      const t = this.tagAt(at);
      if (t === ITEM_DELIMITER) {
        if (!delimited) throw malformed('item delimiter outside an item');
        return { dataset: ds, next: at + 8 };
      }
      if (t >>> 16 === 0xfffe) throw malformed(`(${hex(t)}) where an element was expected`);
      const { vr, length, valueAt } = this.header(at, t);
      const isSequence = vr === 'SQ' || (vr === undefined && (length === UNDEFINED_LENGTH || this.sequenceTags.has(t)));
      if (isSequence) {
        const items: Dataset[] = [];
        const next = this.sequence(valueAt, length, depth + 1, items, end);
        ds.set(t, { vr: 'SQ', value: this.b.subarray(valueAt, valueAt), items });
        at = next;
        continue;
      }
      if (length === UNDEFINED_LENGTH) throw malformed(`undefined length on ${vr ?? 'implicit'} element`);
      if (valueAt + length > end) throw malformed(`value of (${hex(t)}) overruns its dataset`);
      ds.set(t, { vr, value: this.b.subarray(valueAt, valueAt + length) });
      at = valueAt + length;
    }
    if (delimited) throw malformed('item without its delimiter');
    return { dataset: ds, next: at };
  }

  private header(at: number, t: number): { vr: string | undefined; length: number; valueAt: number } {
    if (at + 8 > this.b.length) throw malformed('truncated element header');
    if (!this.explicitVr) return { vr: undefined, length: this.b.readUInt32LE(at + 4), valueAt: at + 8 };
    const vr = this.b.toString('latin1', at + 4, at + 6);
    if (!/^[A-Z]{2}$/.test(vr)) throw malformed(`invalid VR at (${hex(t)})`);
    if (LONG_LENGTH_VRS.has(vr)) {
      if (at + 12 > this.b.length) throw malformed('truncated element header');
      return { vr, length: this.b.readUInt32LE(at + 8), valueAt: at + 12 };
    }
    return { vr, length: this.b.readUInt16LE(at + 6), valueAt: at + 8 };
  }

  /** Reads a sequence's items into `items`; answers the offset after the sequence. */
  private sequence(start: number, length: number, depth: number, items: Dataset[], outer: number): number {
    const undefinedLength = length === UNDEFINED_LENGTH;
    const end = undefinedLength ? outer : start + length;
    if (end > outer) throw malformed('sequence overruns its dataset');
    let at = start;
    while (at < end) {
      const t = this.tagAt(at);
      if (at + 8 > end) throw malformed('truncated item header');
      const itemLength = this.b.readUInt32LE(at + 4);
      if (t === SEQUENCE_DELIMITER) {
        if (!undefinedLength) throw malformed('sequence delimiter in a sequence of defined length');
        return at + 8;
      }
      if (t !== ITEM) throw malformed(`(${hex(t)}) where a sequence item was expected`);
      if (itemLength === UNDEFINED_LENGTH) {
        const { dataset, next } = this.dataset(at + 8, end, depth, true);
        items.push(dataset);
        at = next;
      } else {
        if (at + 8 + itemLength > end) throw malformed('item overruns its sequence');
        items.push(this.dataset(at + 8, at + 8 + itemLength, depth, false).dataset);
        at += 8 + itemLength;
      }
    }
    if (undefinedLength) throw malformed('sequence without its delimiter');
    return at;
  }
}

const hex = (t: number) => `${(t >>> 16).toString(16).padStart(4, '0')},${(t & 0xffff).toString(16).padStart(4, '0')}`;

/** The dataset's SpecificCharacterSet (0008,0005), '' when absent. */
export function charsetOf(ds: Dataset): string {
  const v = ds.get(0x00080005)?.value;
  return v ? v.toString('latin1').replaceAll('\0', '').trim() : '';
}

/**
 * A text value: decoded in `charset` for the VRs it applies to (PN, LO, SH…), as ASCII for the
 * others (CS, DA, TM, AE, UI), trimmed of its padding; '' when absent or empty.
 */
export function textOf(ds: Dataset, t: number, charset: string, kind: 'PN' | 'text' | 'ascii' = 'ascii'): string {
  const v = ds.get(t)?.value;
  if (!v || v.length === 0) return '';
  if (kind === 'ascii') return v.toString('latin1').replace(/^[ \0]+|[ \0]+$/g, '');
  return decodeDicomText(v, charset, kind).replace(/^ +/, '');
}

/** The items of a sequence element, [] when absent or not a sequence. */
export function itemsOf(ds: Dataset, t: number): Dataset[] {
  return ds.get(t)?.items ?? [];
}
