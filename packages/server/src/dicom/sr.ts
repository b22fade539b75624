/**
 * Structured Reports (PS3.3 C.17) and the other non-image objects the viewer shows, read from a
 * stored Part 10 file: an SR document's content tree as a flat list of readable items (Key Object
 * Selections are SR documents too: their IMAGE items name the key images), and an encapsulated
 * document's bytes (PS3.3 C.24). Protocol only: no database, no HTTP. Input is untrusted: anything
 * malformed throws a DicomError; nesting and item counts are capped, never a crash.
 */
import { inflateRawSync } from 'node:zlib';
import { charsetOf, itemsOf, readDataset, textOf, type Dataset } from './dataset-reader.js';
import { EXPLICIT_VR_LE, IMPLICIT_VR_LE } from './dataset-writer.js';
import { DicomError } from './parse.js';

/** Content items nested deeper than this are left out (the document is marked truncated). */
export const SR_MAX_DEPTH = 24;
/** At most this many content items are answered (the document is marked truncated). */
export const SR_MAX_ITEMS = 5000;
/** A text value is cut to this many characters. */
export const SR_MAX_TEXT = 20_000;
/** A deflated dataset may not inflate beyond this. */
const MAX_INFLATED = 64 * 1024 * 1024;

const DEFLATED_LE = '1.2.840.10008.1.2.1.99';
const BIG_ENDIAN = '1.2.840.10008.1.2.2';

const T = {
  sopClassUid: 0x00080016,
  sopInstanceUid: 0x00080018,
  contentDate: 0x00080023,
  contentTime: 0x00080033,
  manufacturer: 0x00080070,
  institutionName: 0x00080080,
  seriesDescription: 0x0008103e,
  codeValue: 0x00080100,
  codingScheme: 0x00080102,
  codeMeaning: 0x00080104,
  refSopClass: 0x00081150,
  refSopInstance: 0x00081155,
  refFrames: 0x00081160,
  refSeriesSeq: 0x00081115,
  refSopSeq: 0x00081199,
  patientName: 0x00100010,
  patientId: 0x00100020,
  seriesInstanceUid: 0x0020000e,
  instanceNumber: 0x00200013,
  unitsSeq: 0x004008ea,
  relationship: 0x0040a010,
  verifyingOrg: 0x0040a027,
  verificationDateTime: 0x0040a030,
  valueType: 0x0040a040,
  conceptNameSeq: 0x0040a043,
  verifyingObserverSeq: 0x0040a073,
  verifyingObserverName: 0x0040a075,
  authorObserverSeq: 0x0040a078,
  observerType: 0x0040a084,
  dateTime: 0x0040a120,
  date: 0x0040a121,
  time: 0x0040a122,
  personName: 0x0040a123,
  uid: 0x0040a124,
  textValue: 0x0040a160,
  conceptCodeSeq: 0x0040a168,
  measuredValueSeq: 0x0040a300,
  qualifierSeq: 0x0040a301,
  numericValue: 0x0040a30a,
  evidenceSeq: 0x0040a375,
  completionFlag: 0x0040a491,
  verificationFlag: 0x0040a493,
  contentSeq: 0x0040a730,
  refContentItem: 0x0040db73,
  graphicData: 0x00700022,
  graphicType: 0x00700023,
  documentTitle: 0x00420010,
  document: 0x00420011,
  documentMime: 0x00420012,
  documentLength: 0x00420015,
} as const;

/** Sequences an Implicit VR file may write with a defined length (read as sequences there). */
const SR_SEQUENCES: ReadonlySet<number> = new Set([
  T.refSeriesSeq,
  T.refSopSeq,
  T.unitsSeq,
  T.conceptNameSeq,
  T.verifyingObserverSeq,
  T.authorObserverSeq,
  T.conceptCodeSeq,
  T.measuredValueSeq,
  T.qualifierSeq,
  T.evidenceSeq,
  T.contentSeq,
  // Procedure Code, Referenced PPS, Referenced Request, Pertinent Other Evidence, Predecessor
  // Documents, Content Template, Identical Documents, Participant, Custodial Organization, Content
  // Item Modifier, Referenced Image; Graphic Annotation, Text Object, Graphic Object (GSPS).
  ...[0x00081032, 0x00081111, 0x0040a370, 0x0040a385, 0x0040a360, 0x0040a504, 0x0040a525, 0x0040a07a],
  ...[0x0040a07c, 0x00400441, 0x00081140, 0x00700001, 0x00700008, 0x00700009],
]);

const malformed = (what: string) => new DicomError(`malformed dataset: ${what}`, 'malformed');

/**
 * The dataset of a Part 10 file, in Explicit or Implicit VR Little Endian (a deflated one
 * inflated first); a big endian file is refused ('unsupported').
 */
export function instanceDataset(file: Uint8Array): Dataset {
  const b = Buffer.from(file.buffer, file.byteOffset, file.byteLength);
  if (b.length < 132 || b.toString('latin1', 128, 132) !== 'DICM') throw malformed('not a DICOM Part 10 file');
  let at = 132;
  let transferSyntax = '';
  while (at + 8 <= b.length && b.readUInt16LE(at) === 0x0002) {
    const element = b.readUInt16LE(at + 2);
    const vr = b.toString('latin1', at + 4, at + 6);
    const long = ['OB', 'OW', 'OF', 'SQ', 'UT', 'UN', 'UC', 'UR'].includes(vr);
    if (long && at + 12 > b.length) throw malformed('truncated file meta information');
    const length = long ? b.readUInt32LE(at + 8) : b.readUInt16LE(at + 6);
    const valueAt = at + (long ? 12 : 8);
    if (valueAt + length > b.length) throw malformed('file meta information overruns the file');
    if (element === 0x0010) transferSyntax = b.toString('latin1', valueAt, valueAt + length).replace(/[\0 ]+$/, '');
    at = valueAt + length;
  }
  let body = b.subarray(at);
  if (transferSyntax === BIG_ENDIAN) throw new DicomError('big endian objects are not read here', 'unsupported');
  if (transferSyntax === DEFLATED_LE) {
    try {
      body = inflateRawSync(body, { maxOutputLength: MAX_INFLATED });
    } catch {
      throw malformed('the deflated dataset does not inflate');
    }
  }
  const ts = transferSyntax === IMPLICIT_VR_LE ? IMPLICIT_VR_LE : EXPLICIT_VR_LE;
  return readDataset(body, ts, SR_SEQUENCES);
}

/** One content item of an SR document, in document order; `depth` 0 is the root container. */
export interface SrItem {
  depth: number;
  /** CONTAINS, HAS PROPERTIES, HAS OBS CONTEXT…; '' for the root */
  relationship: string;
  /** TEXT, CODE, NUM, CONTAINER, PNAME, DATE, TIME, DATETIME, UIDREF, IMAGE, COMPOSITE, SCOORD… */
  valueType: string;
  /** the Concept Name's Code Meaning ('' when it has none) */
  concept: string;
  /** the value as text: the text, the code's meaning, the number and its units, the name (DICOM PN)… */
  value: string;
  /** IMAGE, COMPOSITE and WAVEFORM items: the referenced instance */
  reference: { sopClassUid: string; sopUid: string; frames: number[] } | null;
}

export interface SrObserver {
  role: 'author' | 'verifier';
  name: string;
  organization: string;
  dateTime: string;
}

export interface SrDocument {
  sopClassUid: string;
  sopUid: string;
  title: string;
  completion: string;
  verification: string;
  contentDate: string;
  contentTime: string;
  manufacturer: string;
  institution: string;
  patientName: string;
  patientId: string;
  observers: SrObserver[];
  items: SrItem[];
  /** items were left out (deeper than SR_MAX_DEPTH, more than SR_MAX_ITEMS, or cut text) */
  truncated: boolean;
}

/** A person name for reading: components joined by spaces, the other groups in parentheses. */
export function readableName(pn: string): string {
  const groups = pn
    .split('=')
    .map((g) =>
      g
        .split('^')
        .map((c) => c.trim())
        .filter(Boolean)
        .join(' '),
    )
    .filter(Boolean);
  if (groups.length <= 1) return groups[0] ?? '';
  return `${groups[0]} (${groups.slice(1).join(', ')})`;
}

/** YYYYMMDD → YYYY-MM-DD, HHMMSS(.ffffff) → HH:MM:SS; anything else as it is. */
export function readableDate(da: string): string {
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(da.trim());
  return m ? `${m[1]}-${m[2]}-${m[3]}` : da.trim();
}
export function readableTime(tm: string): string {
  const m = /^(\d{2})(\d{2})?(\d{2})?/.exec(tm.trim());
  if (!m) return tm.trim();
  return [m[1], m[2], m[3]].filter((x) => x !== undefined).join(':');
}
export function readableDateTime(dt: string): string {
  const v = dt.trim();
  const m = /^(\d{8})(\d{2,6}(?:\.\d+)?)?([+-]\d{4})?$/.exec(v);
  if (!m) return v;
  return [readableDate(m[1]!), m[2] ? readableTime(m[2]) : '', m[3] ?? ''].filter(Boolean).join(' ');
}

/** Reading state: the document's character set, the items out, and whether anything was cut. */
class SrReader {
  items: SrItem[] = [];
  truncated = false;
  constructor(private readonly charset: string) {}

  text(ds: Dataset, t: number): string {
    const v = textOf(ds, t, this.charset, 'text');
    if (v.length <= SR_MAX_TEXT) return v;
    this.truncated = true;
    return `${v.slice(0, SR_MAX_TEXT)}…`;
  }

  /** A code item's Code Meaning, else its value and scheme. */
  code(item: Dataset | undefined): string {
    if (!item) return '';
    const meaning = this.text(item, T.codeMeaning);
    if (meaning) return meaning;
    const value = textOf(item, T.codeValue, this.charset, 'text');
    const scheme = textOf(item, T.codingScheme, this.charset, 'text');
    return value ? `${value}${scheme ? ` (${scheme})` : ''}` : '';
  }

  num(item: Dataset): string {
    const measured = itemsOf(item, T.measuredValueSeq)[0];
    if (!measured) return this.code(itemsOf(item, T.qualifierSeq)[0]);
    const value = textOf(measured, T.numericValue, this.charset);
    const unit = itemsOf(measured, T.unitsSeq)[0];
    // UCUM units read best as their code ("mm", "cm2"); "1" (no unit) is left out.
    const scheme = unit ? textOf(unit, T.codingScheme, this.charset) : '';
    const code = unit ? textOf(unit, T.codeValue, this.charset, 'text') : '';
    const units = scheme === 'UCUM' ? (code === '1' ? '' : code) : this.code(unit);
    return [value, units].filter(Boolean).join(' ');
  }

  reference(item: Dataset): SrItem['reference'] {
    const ref = itemsOf(item, T.refSopSeq)[0];
    if (!ref) return null;
    const frames = textOf(ref, T.refFrames, this.charset)
      .split('\\')
      .map((f) => Number.parseInt(f, 10))
      .filter((n) => Number.isInteger(n) && n > 0)
      .slice(0, 1000);
    return {
      sopClassUid: textOf(ref, T.refSopClass, this.charset),
      sopUid: textOf(ref, T.refSopInstance, this.charset),
      frames,
    };
  }

  value(item: Dataset, valueType: string): string {
    switch (valueType) {
      case 'TEXT':
        return this.text(item, T.textValue);
      case 'CODE':
        return this.code(itemsOf(item, T.conceptCodeSeq)[0]);
      case 'NUM':
        return this.num(item);
      case 'DATETIME':
        return readableDateTime(textOf(item, T.dateTime, this.charset));
      case 'DATE':
        return readableDate(textOf(item, T.date, this.charset));
      case 'TIME':
        return readableTime(textOf(item, T.time, this.charset));
      case 'PNAME':
        // As stored (Family^Given=表意): the reader's language decides how a name reads.
        return textOf(item, T.personName, this.charset, 'PN');
      case 'UIDREF':
        return textOf(item, T.uid, this.charset);
      case 'SCOORD':
      case 'SCOORD3D': {
        const points = Math.floor((item.get(T.graphicData)?.value.length ?? 0) / 4 / (valueType === 'SCOORD' ? 2 : 3));
        return `${textOf(item, T.graphicType, this.charset)} (${points})`;
      }
      default: {
        const ref = this.reference(item);
        return ref?.sopUid ?? '';
      }
    }
  }

  /** The item and its content sequence, depth first, in document order. */
  walk(item: Dataset, depth: number, relationship: string): void {
    if (this.items.length >= SR_MAX_ITEMS || depth > SR_MAX_DEPTH) {
      this.truncated = true;
      return;
    }
    const referenced = item.get(T.refContentItem)?.value;
    const valueType = textOf(item, T.valueType, this.charset);
    if (!valueType && referenced) {
      // A by-reference relationship: the target's position in the tree (1.2.3).
      const path: number[] = [];
      for (let i = 0; i + 4 <= referenced.length && path.length < 64; i += 4) path.push(referenced.readUInt32LE(i));
      this.items.push({
        depth,
        relationship,
        valueType: 'REFERENCE',
        concept: '',
        value: path.join('.'),
        reference: null,
      });
      return;
    }
    this.items.push({
      depth,
      relationship,
      valueType,
      concept: this.code(itemsOf(item, T.conceptNameSeq)[0]),
      value: this.value(item, valueType),
      reference: ['IMAGE', 'COMPOSITE', 'WAVEFORM'].includes(valueType) ? this.reference(item) : null,
    });
    for (const child of itemsOf(item, T.contentSeq)) {
      this.walk(child, depth + 1, textOf(child, T.relationship, this.charset));
    }
  }

  observers(ds: Dataset): SrObserver[] {
    const out: SrObserver[] = [];
    for (const a of itemsOf(ds, T.authorObserverSeq).slice(0, 50)) {
      out.push({
        role: 'author',
        name: textOf(a, T.personName, this.charset, 'PN') || this.text(a, 0x00181030),
        organization: this.text(a, T.institutionName),
        dateTime: '',
      });
    }
    for (const v of itemsOf(ds, T.verifyingObserverSeq).slice(0, 50)) {
      out.push({
        role: 'verifier',
        name: textOf(v, T.verifyingObserverName, this.charset, 'PN'),
        organization: this.text(v, T.verifyingOrg),
        dateTime: readableDateTime(textOf(v, T.verificationDateTime, this.charset)),
      });
    }
    return out;
  }
}

/** The SR document of a dataset: its header and content tree (readable text, capped). */
export function readSrDocument(ds: Dataset): SrDocument {
  const charset = charsetOf(ds);
  const r = new SrReader(charset);
  if (!textOf(ds, T.valueType, charset)) throw malformed('no SR content (Value Type)');
  r.walk(ds, 0, '');
  const root = r.items[0];
  return {
    sopClassUid: textOf(ds, T.sopClassUid, charset),
    sopUid: textOf(ds, T.sopInstanceUid, charset),
    title: root?.concept ?? '',
    completion: textOf(ds, T.completionFlag, charset),
    verification: textOf(ds, T.verificationFlag, charset),
    contentDate: readableDate(textOf(ds, T.contentDate, charset)),
    contentTime: readableTime(textOf(ds, T.contentTime, charset)),
    manufacturer: r.text(ds, T.manufacturer),
    institution: r.text(ds, T.institutionName),
    patientName: textOf(ds, T.patientName, charset, 'PN'),
    patientId: r.text(ds, T.patientId),
    observers: r.observers(ds),
    items: r.items,
    truncated: r.truncated,
  };
}

/** The key images a Key Object Selection names: its IMAGE items' instances and frames. */
export function keyObjectImages(doc: SrDocument): { sopUid: string; frames: number[] }[] {
  const seen = new Map<string, number[]>();
  for (const item of doc.items) {
    if (item.valueType !== 'IMAGE' || !item.reference?.sopUid) continue;
    const frames = seen.get(item.reference.sopUid) ?? [];
    seen.set(item.reference.sopUid, [...new Set([...frames, ...item.reference.frames])]);
  }
  return [...seen].map(([sopUid, frames]) => ({ sopUid, frames }));
}

/** An encapsulated document (PS3.3 C.24): its bytes, MIME type and title; null when it has none. */
export function encapsulatedDocument(ds: Dataset): { bytes: Buffer; mimeType: string; title: string } | null {
  const el = ds.get(T.document);
  if (!el || el.value.length === 0) return null;
  const charset = charsetOf(ds);
  // The value is padded to an even length; Encapsulated Document Length (when present) is exact.
  const declared = ds.get(T.documentLength)?.value;
  const length = declared && declared.length >= 4 ? declared.readUInt32LE(0) : el.value.length;
  return {
    bytes: el.value.subarray(0, Math.min(length, el.value.length)),
    mimeType: textOf(ds, T.documentMime, charset, 'text'),
    title: textOf(ds, T.documentTitle, charset, 'text'),
  };
}
