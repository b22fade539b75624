/**
 * The DICOMDIR of a file-set (PS3.10 §8, PS3.3 Annex F, the Basic Directory IOD): a Part 10 file of
 * the Media Storage Directory Storage SOP class, Explicit VR Little Endian, whose Directory Record
 * Sequence lists PATIENT → STUDY → SERIES → instance records (IMAGE, SR DOCUMENT, KEY OBJECT DOC,
 * PRESENTATION, ENCAP DOC…, by SOP class). Records point at each other by byte offsets from the
 * first byte of the file (its preamble): Offset of the Next Directory Record (the next sibling) and
 * Offset of Referenced Lower-Level Directory Entity (the first child), 0 for none. Every element of
 * a record has a fixed size whatever offsets it carries (UL), so the file is written in two passes:
 * lengths first, then the records with their offsets. Items and sequences have explicit lengths,
 * as DCMTK's dcmmkdir writes them. Protocol only: which records and keys a package holds is the
 * caller's (dicomdir-keys.ts reads the keys from the files).
 */
import { delimiter, EXPLICIT_VR_LE, header, ITEM, tag, type VR } from './dataset-writer.js';
import { toPart10 } from './part10.js';

export const MEDIA_STORAGE_DIRECTORY_SOP_CLASS = '1.2.840.10008.1.3.10';

export const RECORD_TYPES = [
  'PATIENT',
  'STUDY',
  'SERIES',
  'IMAGE',
  'SR DOCUMENT',
  'KEY OBJECT DOC',
  'PRESENTATION',
  'ENCAP DOC',
  'WAVEFORM',
  'RAW DATA',
  'REGISTRATION',
  'FIDUCIAL',
  'VALUE MAP',
  'SURFACE',
  'TRACT',
  'RT DOSE',
  'RT STRUCTURE SET',
  'RT PLAN',
  'RT TREAT RECORD',
] as const;
export type RecordType = (typeof RECORD_TYPES)[number];
/** The record types of instances (below a SERIES record). */
export type InstanceRecordType = Exclude<RecordType, 'PATIENT' | 'STUDY' | 'SERIES'>;

const STORAGE = '1.2.840.10008.5.1.4.1.1.';
/** SOP classes (exact, or a prefix ending in '.') with a record type other than IMAGE (PS3.3 F.5, F.4). */
const RECORD_OF_CLASS: [string, InstanceRecordType][] = [
  [`${STORAGE}88.59`, 'KEY OBJECT DOC'],
  [`${STORAGE}88.`, 'SR DOCUMENT'],
  [`${STORAGE}11.`, 'PRESENTATION'],
  [`${STORAGE}104.`, 'ENCAP DOC'],
  [`${STORAGE}9.`, 'WAVEFORM'],
  [`${STORAGE}66`, 'RAW DATA'],
  [`${STORAGE}66.1`, 'REGISTRATION'],
  [`${STORAGE}66.2`, 'FIDUCIAL'],
  [`${STORAGE}66.3`, 'REGISTRATION'],
  [`${STORAGE}66.5`, 'SURFACE'],
  [`${STORAGE}66.6`, 'TRACT'],
  [`${STORAGE}67`, 'VALUE MAP'],
  [`${STORAGE}481.2`, 'RT DOSE'],
  [`${STORAGE}481.3`, 'RT STRUCTURE SET'],
  [`${STORAGE}481.4`, 'RT TREAT RECORD'],
  [`${STORAGE}481.5`, 'RT PLAN'],
  [`${STORAGE}481.6`, 'RT TREAT RECORD'],
  [`${STORAGE}481.7`, 'RT TREAT RECORD'],
  [`${STORAGE}481.8`, 'RT PLAN'],
  [`${STORAGE}481.9`, 'RT TREAT RECORD'],
];

/** The directory record type of an instance of `sopClassUid` (IMAGE for image storage and anything unlisted). */
export function recordTypeOf(sopClassUid: string): InstanceRecordType {
  for (const [uid, type] of RECORD_OF_CLASS) {
    if (uid.endsWith('.') ? sopClassUid.startsWith(uid) : sopClassUid === uid) return type;
  }
  return 'IMAGE';
}

/** A File ID component (PS3.10 §8.2, PS3.12 for CD/DVD): 1–8 of A–Z, 0–9 and _. */
export const FILE_ID_COMPONENT = /^[A-Z0-9_]{1,8}$/;
export const MAX_FILE_ID_COMPONENTS = 8;

export function isValidFileId(components: readonly string[]): boolean {
  return (
    components.length >= 1 &&
    components.length <= MAX_FILE_ID_COMPONENTS &&
    components.every((c) => FILE_ID_COMPONENT.test(c))
  );
}

/** A File-set ID (0004,1130): CS of at most 16 of A–Z, 0–9, _ and space. */
export function isValidFileSetId(id: string): boolean {
  return /^[A-Z0-9_ ]{0,16}$/.test(id);
}

/** A key of a record: a value as its bytes (even length, padded as its VR wants), or a sequence. */
export interface KeyValue {
  tag: number;
  vr: Exclude<VR, 'SQ'>;
  value: Buffer;
}
export interface KeySequence {
  tag: number;
  vr: 'SQ';
  items: KeyElement[][];
}
export type KeyElement = KeyValue | KeySequence;

export interface ReferencedFile {
  /** path components from the DICOMDIR's folder, e.g. ['DICOM', 'P0000001', 'S0000001', 'SE000001', 'I0000001'] */
  fileId: string[];
  sopClassUid: string;
  sopInstanceUid: string;
  transferSyntaxUid: string;
}

export interface DirectoryRecord {
  type: RecordType;
  /** the record's keys (PS3.3 F.5), group 0004 excluded: the encoder writes those */
  keys: KeyElement[];
  file?: ReferencedFile;
  children?: DirectoryRecord[];
}

export interface FileSet {
  /** File-set ID (0004,1130), '' for none */
  fileSetId: string;
  /** the DICOMDIR's Media Storage SOP Instance UID */
  instanceUid: string;
  /** the root directory entity: PATIENT records */
  records: DirectoryRecord[];
}

const T = {
  fileSetId: tag(0x0004, 0x1130),
  firstRoot: tag(0x0004, 0x1200),
  lastRoot: tag(0x0004, 0x1202),
  consistency: tag(0x0004, 0x1212),
  sequence: tag(0x0004, 0x1220),
  next: tag(0x0004, 0x1400),
  inUse: tag(0x0004, 0x1410),
  lower: tag(0x0004, 0x1420),
  type: tag(0x0004, 0x1430),
  fileId: tag(0x0004, 0x1500),
  sopClass: tag(0x0004, 0x1510),
  sopInstance: tag(0x0004, 0x1511),
  transferSyntax: tag(0x0004, 0x1512),
} as const;

/** Text padded to even length: UI with a NUL, everything else with a space. */
export function textValue(vr: Exclude<VR, 'SQ'>, text: string | Buffer): KeyValue['value'] {
  const b = typeof text === 'string' ? Buffer.from(text, 'latin1') : text;
  return b.length % 2 ? Buffer.concat([b, Buffer.from([vr === 'UI' ? 0 : 0x20])]) : b;
}

export const keyText = (t: number, vr: Exclude<VR, 'SQ'>, text: string | Buffer): KeyValue => ({
  tag: t,
  vr,
  value: textValue(vr, text),
});

const ul = (t: number, v: number): KeyValue => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(v, 0);
  return { tag: t, vr: 'UL', value: b };
};
const us = (t: number, v: number): KeyValue => {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(v, 0);
  return { tag: t, vr: 'US', value: b };
};

function encodeElements(elements: KeyElement[], out: Buffer[]): number {
  const sorted = [...elements].sort((a, b) => a.tag - b.tag);
  let length = 0;
  for (let i = 0; i < sorted.length; i++) {
    const el = sorted[i]!;
    if (i > 0 && sorted[i - 1]!.tag === el.tag) throw new Error(`DICOMDIR: element ${el.tag.toString(16)} twice`);
    if (el.vr === 'SQ') {
      const items: Buffer[][] = el.items.map((item) => {
        const chunks: Buffer[] = [];
        const n = encodeElements(item, chunks);
        return [delimiter(ITEM, n), ...chunks];
      });
      const body = items.flat();
      const n = body.reduce((s, b) => s + b.length, 0);
      out.push(header(el.tag, 'SQ', n, true), ...body);
      length += 12 + n;
    } else {
      if (el.value.length % 2) throw new Error(`DICOMDIR: odd length value of ${el.tag.toString(16)}`);
      const h = header(el.tag, el.vr, el.value.length, true);
      out.push(h, el.value);
      length += h.length + el.value.length;
    }
  }
  return length;
}

/** A record item's elements, its links given. */
function recordElements(r: DirectoryRecord, next: number, lower: number): KeyElement[] {
  if (r.keys.some((k) => k.tag >>> 16 === 0x0004)) throw new Error('DICOMDIR: record keys of group 0004');
  const els: KeyElement[] = [
    ul(T.next, next),
    us(T.inUse, 0xffff),
    ul(T.lower, lower),
    keyText(T.type, 'CS', r.type),
    ...r.keys,
  ];
  if (r.file) {
    if (!isValidFileId(r.file.fileId)) throw new Error(`DICOMDIR: invalid File ID ${r.file.fileId.join('\\')}`);
    els.push(
      keyText(T.fileId, 'CS', r.file.fileId.join('\\')),
      keyText(T.sopClass, 'UI', r.file.sopClassUid),
      keyText(T.sopInstance, 'UI', r.file.sopInstanceUid),
      keyText(T.transferSyntax, 'UI', r.file.transferSyntaxUid),
    );
  }
  return els;
}

interface Placed {
  record: DirectoryRecord;
  /** index in `flat` of the next sibling and of the first child, -1 for none */
  next: number;
  lower: number;
  offset: number;
}

/** The records in the order they are written (each record, then its children), with their links. */
function flatten(records: DirectoryRecord[], flat: Placed[]): number {
  let previous: Placed | undefined;
  let first = -1;
  for (const record of records) {
    const placed: Placed = { record, next: -1, lower: -1, offset: 0 };
    const at = flat.push(placed) - 1;
    if (previous) previous.next = at;
    else first = at;
    previous = placed;
    if (record.children?.length) placed.lower = flatten(record.children, flat);
  }
  return first;
}

/** The DICOMDIR file (Part 10, preamble zeroed) of a file-set. */
export function encodeDicomdir(fileSet: FileSet): Buffer {
  if (!isValidFileSetId(fileSet.fileSetId)) throw new Error(`DICOMDIR: invalid File-set ID ${fileSet.fileSetId}`);
  const meta = {
    sopClassUid: MEDIA_STORAGE_DIRECTORY_SOP_CLASS,
    sopInstanceUid: fileSet.instanceUid,
    transferSyntaxUid: EXPLICIT_VR_LE,
  };
  const flat: Placed[] = [];
  const rootLevel: Placed[] = [];
  for (let i = flatten(fileSet.records, flat); i >= 0; i = flat[i]!.next) rootLevel.push(flat[i]!);
  const rootElements = (first: number, last: number): KeyElement[] => [
    keyText(T.fileSetId, 'CS', fileSet.fileSetId),
    ul(T.firstRoot, first),
    ul(T.lastRoot, last),
    us(T.consistency, 0),
  ];
  // Pass 1: where each record item starts (links do not change any length).
  const datasetStart = toPart10([], meta).length;
  let at = datasetStart + encodeElements(rootElements(0, 0), []) + 12;
  for (const p of flat) {
    p.offset = at;
    at += 8 + encodeElements(recordElements(p.record, 0, 0), []);
  }
  // Pass 2: the records with their links.
  const offsetOf = (i: number) => (i < 0 ? 0 : flat[i]!.offset);
  const chunks: Buffer[] = [];
  const first = rootLevel[0]?.offset ?? 0;
  const last = rootLevel.at(-1)?.offset ?? 0;
  encodeElements(rootElements(first, last), chunks);
  const items: Buffer[] = [];
  for (const p of flat) {
    const body: Buffer[] = [];
    const n = encodeElements(recordElements(p.record, offsetOf(p.next), offsetOf(p.lower)), body);
    items.push(delimiter(ITEM, n), ...body);
  }
  const sequenceLength = items.reduce((s, b) => s + b.length, 0);
  chunks.push(header(T.sequence, 'SQ', sequenceLength, true), ...items);
  const file = toPart10(chunks, meta);
  const last0 = flat.at(-1);
  if (last0 && (file.readUInt16LE(last0.offset) !== 0xfffe || file.readUInt16LE(last0.offset + 2) !== 0xe000)) {
    // The last record is not where pass 1 put it: a bug here, never a valid file.
    throw new Error('DICOMDIR: record offsets do not match the encoding');
  }
  return file;
}
