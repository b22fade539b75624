import dicomParser from 'dicom-parser';
import { decodeDicomText, isKnownCharset } from './charset.js';
import { isPart10 } from './preamble.js';

/** What the ingest needs from one instance's header; text already decoded from its character set. */
export interface ParsedInstance {
  transferSyntaxUid: string;
  sopClassUid: string;
  sopInstanceUid: string;
  studyInstanceUid: string;
  seriesInstanceUid: string;
  specificCharacterSet: string;
  charsetKnown: boolean;
  patient: { name: string; id: string; sex: string; birthDate: string };
  study: {
    date: string;
    time: string;
    accessionNumber: string;
    description: string;
    referringPhysician: string;
    institution: string;
    id: string;
  };
  series: {
    modality: string;
    number: number | null;
    description: string;
    bodyPart: string;
    date: string;
    time: string;
  };
  instance: { number: number | null; rows: number | null; columns: number | null; frames: number };
  /** byte offset of the dataset after the Part 10 header (for DICOMweb metadata) */
  datasetOffset: number;
}

export class DicomError extends Error {
  constructor(
    message: string,
    readonly reason: string,
  ) {
    super(message);
    this.name = 'DicomError';
  }
}

const UID = /^(0|[1-9][0-9]*)(\.(0|[1-9][0-9]*))*$/;
const MAX_DIMENSION = 32_768;
const MAX_FRAMES = 10_000;
/** Sequences nested deeper than this are refused (real objects nest a few levels, SR trees a few dozen). */
export const MAX_SEQUENCE_DEPTH = 64;
const UNCOMPRESSED = new Set(['1.2.840.10008.1.2', '1.2.840.10008.1.2.1', '1.2.840.10008.1.2.2']);

/**
 * The longest value the index keeps per VR, in characters (PS3.5 table 6.2-1; PN per component
 * group; UC and UT, unlimited in DICOM, 1024). Longer values are cut for the database and the
 * lists; the stored file keeps them whole.
 */
export const INDEX_MAX_LENGTH: Readonly<Record<string, number>> = {
  AE: 16,
  AS: 4,
  CS: 16,
  DA: 8,
  DS: 16,
  DT: 26,
  IS: 12,
  LO: 64,
  LT: 10_240,
  PN: 64,
  SH: 16,
  ST: 1024,
  TM: 14,
  UI: 64,
  UC: 1024,
  UT: 1024,
};

/** At most `max` characters (code points, so a surrogate pair is never split). */
function cutChars(s: string, max: number): string {
  if (s.length <= max) return s;
  let out = '';
  let n = 0;
  for (const ch of s) {
    if (n++ === max) break;
    out += ch;
  }
  return out;
}

/**
 * A decoded value as the index keeps it: without U+0000 (PostgreSQL refuses it in text, and no
 * DICOM text VR allows it; trailing NUL padding is already trimmed) and cut to its VR's maximum
 * length, PN per component group (alphabetic=ideographic=phonetic).
 */
export function indexValue(value: string, vr: string): string {
  const clean = value.includes('\0') ? value.replaceAll('\0', '') : value;
  const max = INDEX_MAX_LENGTH[vr] ?? 1024;
  if (vr === 'PN') {
    const groups = clean.split('=');
    if (groups.length <= 3 && groups.every((g) => g.length <= max)) return clean;
    return groups
      .slice(0, 3)
      .map((g) => cutChars(g, max).trimEnd())
      .join('=');
  }
  return clean.length <= max ? clean : cutChars(clean, max).trimEnd();
}

/**
 * Bytes of one value read for the index: enough for its VR's maximum length in any character
 * set (escape sequences included), so an 8 MB value costs no more to index than a normal one.
 */
function readLimit(vr: string): number {
  return Math.max(1024, (INDEX_MAX_LENGTH[vr] ?? 1024) * (vr === 'PN' ? 3 : 1) * 16);
}

function checkUid(value: string | undefined, name: string): string {
  if (!value) throw new DicomError(`missing ${name}`, 'missingUid');
  if (value.length > 64 || !UID.test(value)) {
    throw new DicomError(`invalid ${name} "${value.slice(0, 70).replaceAll('\0', '\\0')}"`, 'invalidUid');
  }
  return value;
}

/** The deepest sequence nesting in a dataset, counted without recursion (stops past the limit). */
function sequenceDepth(ds: dicomParser.DataSet): number {
  let deepest = 0;
  const stack: [dicomParser.DataSet, number][] = [[ds, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    deepest = Math.max(deepest, depth);
    if (deepest > MAX_SEQUENCE_DEPTH) break;
    for (const tag in current.elements) {
      for (const item of current.elements[tag]!.items ?? []) {
        if (item.dataSet) stack.push([item.dataSet, depth + 1]);
      }
    }
  }
  return deepest;
}

const PIXEL_DATA = 'x7fe00010';
/** Every element the index reads lies in a group up to 0028: a header parsed past them is enough. */
const INDEXED_GROUPS_END = 0x0028;
const DEFLATED = '1.2.840.10008.1.2.1.99';

/**
 * Deflated Explicit VR Little Endian is refused before anything is inflated: dicom-parser would
 * inflate the whole dataset in one synchronous call, so a few MB could ask for gigabytes.
 */
const refuseDeflated = (): never => {
  throw new DicomError(`transfer syntax ${DEFLATED} (deflated) is not supported`, 'malformed');
};

function checkPart10(bytes: Uint8Array): void {
  if (!isPart10(bytes)) {
    throw new DicomError('not a DICOM Part 10 file (no DICM prefix)', 'notDicom');
  }
}

/** dicom-parser's error (a string, an Error, or { exception, dataSet }) as a DicomError. */
function unreadable(err: unknown): DicomError {
  const message = err instanceof Error ? err.message : typeof err === 'string' ? err : 'unreadable';
  return new DicomError(
    `unreadable DICOM: ${message.slice(0, 200)}`,
    err instanceof RangeError ? 'tooDeep' : 'malformed',
  );
}

/**
 * Parses and validates a DICOM Part 10 file. Refuses with a DicomError (never anything else) a
 * file that is not Part 10, is truncated, lacks or has malformed UIDs, declares absurd
 * dimensions, nests sequences deeper than MAX_SEQUENCE_DEPTH, or whose uncompressed pixel data
 * is shorter than its dimensions require. The text it answers is what the index stores: decoded
 * from the instance's character set, without U+0000, cut to each VR's maximum length.
 */
export function parseInstance(bytes: Uint8Array): ParsedInstance {
  checkPart10(bytes);
  let ds: dicomParser.DataSet;
  try {
    ds = dicomParser.parseDicom(bytes as Uint8Array, { inflater: refuseDeflated });
  } catch (err) {
    throw err instanceof DicomError ? err : unreadable(err);
  }
  return indexed(ds, bytes, bytes.length, false);
}

/**
 * parseInstance for a file on disk of `fileSize` bytes, from its first bytes only: the header is
 * parsed up to the Pixel Data element (whose length is checked against the file's size, not
 * read), or past the last group the index reads. Answers null when `prefix` ends before that: the
 * caller reads a longer one. A prefix holding the whole file is parsed as parseInstance does.
 * Elements after the pixel data (or after the groups the index reads) are not parsed.
 */
export function parseInstanceHeader(prefix: Uint8Array, fileSize: number): ParsedInstance | null {
  if (prefix.length >= fileSize) return parseInstance(prefix);
  checkPart10(prefix);
  let ds: dicomParser.DataSet;
  try {
    ds = dicomParser.parseDicom(prefix, { untilTag: PIXEL_DATA, inflater: refuseDeflated });
  } catch (err) {
    if (err instanceof DicomError) throw err;
    const { exception, dataSet } = (err ?? {}) as { exception?: unknown; dataSet?: dicomParser.DataSet };
    if (err instanceof RangeError || exception instanceof RangeError) throw unreadable(exception ?? err);
    // The dataset broke off at the end of the prefix (or earlier, damaged): enough when the
    // parse got past what the index reads; the group 0002 header is then read on its own.
    if (!dataSet || !pastIndexedGroups(dataSet)) return null;
    let meta: dicomParser.DataSet;
    try {
      meta = dicomParser.readPart10Header(prefix);
    } catch {
      return null;
    }
    Object.assign(dataSet.elements, meta.elements);
    ds = dataSet;
  }
  if (!ds.elements[PIXEL_DATA] && !pastIndexedGroups(ds)) return null;
  return indexed(ds, prefix, fileSize, true);
}

/**
 * True when a (partial) parse got past every group the index reads: its last element, or the
 * element after it in the bytes, is of a later group.
 */
function pastIndexedGroups(ds: dicomParser.DataSet): boolean {
  let last: dicomParser.Element | undefined;
  for (const tag in ds.elements) {
    const el = ds.elements[tag]!;
    if (el.tag.startsWith('x0002')) continue;
    if (!last || el.dataOffset > last.dataOffset) last = el;
  }
  if (!last) return false;
  if (Number.parseInt(last.tag.slice(1, 5), 16) > INDEXED_GROUPS_END) return true;
  const next = last.dataOffset + last.length;
  if (last.length === 0xffffffff || next + 2 > ds.byteArray.length) return false;
  return ds.byteArrayParser.readUint16(ds.byteArray, next) > INDEXED_GROUPS_END;
}

/** The index's view of a parsed dataset; `bytes` holds its values, the file has `fileSize` bytes. */
function indexed(ds: dicomParser.DataSet, bytes: Uint8Array, fileSize: number, headerOnly: boolean): ParsedInstance {
  if (sequenceDepth(ds) > MAX_SEQUENCE_DEPTH) {
    throw new DicomError(`sequences nested deeper than ${MAX_SEQUENCE_DEPTH} levels`, 'tooDeep');
  }
  /** The first `limit` bytes of a value, or null when absent or past the end of the file. */
  const valueBytes = (tag: string, limit: number): Uint8Array | null => {
    const el = ds.elements[tag];
    if (!el || el.length === 0 || el.dataOffset + el.length > bytes.length) return null;
    return bytes.subarray(el.dataOffset, el.dataOffset + Math.min(el.length, limit));
  };
  /** A value of a VR in the default repertoire (CS, DA, TM, IS…), padding and U+0000 left out. */
  const fixed = (tag: string, vr: string) =>
    indexValue(
      latin1(valueBytes(tag, readLimit(vr)))
        .replaceAll('\0', '')
        .trim(),
      vr,
    );
  // SpecificCharacterSet is multi-valued: each term a CS; more than a few terms is not a real one.
  const charset = latin1(valueBytes('x00080005', 1024))
    .replaceAll('\0', '')
    .split('\\')
    .slice(0, 8)
    .map((term) => indexValue(term.trim(), 'CS'))
    .join('\\')
    .trim();
  /** A value of a VR in the instance's character set (SH, LO, PN…). */
  const text = (tag: string, vr: 'SH' | 'LO' | 'PN') => {
    const value = valueBytes(tag, readLimit(vr));
    return value ? indexValue(decodeDicomText(value, charset, vr === 'PN' ? 'PN' : 'text'), vr) : '';
  };
  const uid = (tag: string) => {
    const value = valueBytes(tag, 128);
    return value ? latin1(value).replace(/^[ \0]+|[ \0]+$/g, '') : '';
  };
  /** An IS value; anything outside a 32-bit integer (what IS allows) is no number. */
  const int = (tag: string) => {
    const s = fixed(tag, 'IS');
    if (!/^[+-]?\d+$/.test(s)) return null;
    const n = Number.parseInt(s, 10);
    return n >= -2_147_483_648 && n <= 2_147_483_647 ? n : null;
  };
  const rows = ds.uint16('x00280010') ?? null;
  const columns = ds.uint16('x00280011') ?? null;
  const frames = int('x00280008') ?? 1;
  if (
    (rows !== null && (rows === 0 || rows > MAX_DIMENSION)) ||
    (columns !== null && (columns === 0 || columns > MAX_DIMENSION))
  ) {
    throw new DicomError(`absurd image size ${rows}×${columns}`, 'badDimensions');
  }
  if (frames < 1 || frames > MAX_FRAMES) throw new DicomError(`absurd number of frames ${frames}`, 'badDimensions');
  const transferSyntaxUid = checkUid(uid('x00020010'), 'TransferSyntaxUID');
  const pixel = ds.elements.x7fe00010;
  // Read up to its header only, pixel data of undefined length is encapsulated (or damaged).
  const encapsulated = pixel?.encapsulatedPixelData || (headerOnly && pixel?.hadUndefinedLength);
  if (pixel && rows && columns && UNCOMPRESSED.has(transferSyntaxUid) && !encapsulated) {
    const bits = ds.uint16('x00280100') ?? 16;
    const samples = ds.uint16('x00280002') ?? 1;
    const expected = Math.ceil((rows * columns * frames * samples * bits) / 8);
    if (pixel.length < expected || pixel.dataOffset + pixel.length > fileSize) {
      throw new DicomError(`pixel data is ${pixel.length} bytes, ${expected} expected`, 'truncated');
    }
  }
  const metaEnd = ds.elements.x00020000 ? 132 + 12 + (ds.uint32('x00020000') ?? 0) : 132;
  return {
    transferSyntaxUid,
    sopClassUid: checkUid(uid('x00080016') || uid('x00020002'), 'SOPClassUID'),
    sopInstanceUid: checkUid(uid('x00080018') || uid('x00020003'), 'SOPInstanceUID'),
    studyInstanceUid: checkUid(uid('x0020000d'), 'StudyInstanceUID'),
    seriesInstanceUid: checkUid(uid('x0020000e'), 'SeriesInstanceUID'),
    specificCharacterSet: charset,
    charsetKnown: isKnownCharset(charset),
    patient: {
      name: text('x00100010', 'PN'),
      id: text('x00100020', 'LO'),
      sex: fixed('x00100040', 'CS'),
      birthDate: fixed('x00100030', 'DA'),
    },
    study: {
      date: fixed('x00080020', 'DA'),
      time: fixed('x00080030', 'TM'),
      accessionNumber: text('x00080050', 'SH'),
      description: text('x00081030', 'LO'),
      referringPhysician: text('x00080090', 'PN'),
      institution: text('x00080080', 'LO'),
      id: text('x00200010', 'SH'),
    },
    series: {
      modality: fixed('x00080060', 'CS'),
      number: int('x00200011'),
      description: text('x0008103e', 'LO'),
      bodyPart: fixed('x00180015', 'CS'),
      date: fixed('x00080021', 'DA'),
      time: fixed('x00080031', 'TM'),
    },
    instance: { number: int('x00200013'), rows, columns, frames },
    datasetOffset: metaEnd,
  };
}

/** Bytes as ISO 8859-1 code points (the default repertoire's superset); '' for none. */
function latin1(value: Uint8Array | null): string {
  return value ? Buffer.from(value.buffer, value.byteOffset, value.length).toString('latin1') : '';
}
