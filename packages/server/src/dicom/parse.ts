import dicomParser from 'dicom-parser';
import { decodeDicomText, isKnownCharset, type TextKind } from './charset.js';

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
const UNCOMPRESSED = new Set(['1.2.840.10008.1.2', '1.2.840.10008.1.2.1', '1.2.840.10008.1.2.2']);

function checkUid(value: string | undefined, name: string): string {
  if (!value) throw new DicomError(`missing ${name}`, 'missingUid');
  if (value.length > 64 || !UID.test(value)) {
    throw new DicomError(`invalid ${name} "${value.slice(0, 70)}"`, 'invalidUid');
  }
  return value;
}

/**
 * Parses and validates a DICOM Part 10 file. Refuses with a DicomError (never anything else) a
 * file that is not Part 10, is truncated, lacks or has malformed UIDs, declares absurd
 * dimensions, or whose uncompressed pixel data is shorter than its dimensions require.
 */
export function parseInstance(bytes: Uint8Array): ParsedInstance {
  if (bytes.length < 132 || bytes[128] !== 0x44 || bytes[129] !== 0x49 || bytes[130] !== 0x43 || bytes[131] !== 0x4d) {
    throw new DicomError('not a DICOM Part 10 file (no DICM prefix)', 'notDicom');
  }
  let ds: dicomParser.DataSet;
  try {
    ds = dicomParser.parseDicom(bytes as Uint8Array);
  } catch (err) {
    const message = err instanceof Error ? err.message : typeof err === 'string' ? err : 'unreadable';
    throw new DicomError(
      `unreadable DICOM: ${message.slice(0, 200)}`,
      err instanceof RangeError ? 'tooDeep' : 'malformed',
    );
  }
  const raw = (tag: string) => ds.string(tag) ?? '';
  const charset = raw('x00080005');
  const text = (tag: string, kind: TextKind = 'text') => {
    const el = ds.elements[tag];
    if (!el || el.length === 0 || el.dataOffset + el.length > bytes.length) return '';
    return decodeDicomText(bytes.subarray(el.dataOffset, el.dataOffset + el.length), charset, kind);
  };
  const int = (tag: string) => {
    const s = raw(tag);
    if (!s) return null;
    const n = Number.parseInt(s, 10);
    return Number.isFinite(n) ? n : null;
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
  const transferSyntaxUid = checkUid(raw('x00020010'), 'TransferSyntaxUID');
  const pixel = ds.elements.x7fe00010;
  if (pixel && rows && columns && UNCOMPRESSED.has(transferSyntaxUid) && !pixel.encapsulatedPixelData) {
    const bits = ds.uint16('x00280100') ?? 16;
    const samples = ds.uint16('x00280002') ?? 1;
    const expected = Math.ceil((rows * columns * frames * samples * bits) / 8);
    if (pixel.length < expected || pixel.dataOffset + pixel.length > bytes.length) {
      throw new DicomError(`pixel data is ${pixel.length} bytes, ${expected} expected`, 'truncated');
    }
  }
  const metaEnd = ds.elements.x00020000 ? 132 + 12 + (ds.uint32('x00020000') ?? 0) : 132;
  return {
    transferSyntaxUid,
    sopClassUid: checkUid(raw('x00080016') || raw('x00020002'), 'SOPClassUID'),
    sopInstanceUid: checkUid(raw('x00080018') || raw('x00020003'), 'SOPInstanceUID'),
    studyInstanceUid: checkUid(raw('x0020000d'), 'StudyInstanceUID'),
    seriesInstanceUid: checkUid(raw('x0020000e'), 'SeriesInstanceUID'),
    specificCharacterSet: charset,
    charsetKnown: isKnownCharset(charset),
    patient: {
      name: text('x00100010', 'PN'),
      id: text('x00100020'),
      sex: raw('x00100040').trim(),
      birthDate: raw('x00100030').trim(),
    },
    study: {
      date: raw('x00080020').trim(),
      time: raw('x00080030').trim(),
      accessionNumber: text('x00080050'),
      description: text('x00081030'),
      referringPhysician: text('x00080090', 'PN'),
      institution: text('x00080080'),
      id: text('x00200010'),
    },
    series: {
      modality: raw('x00080060').trim(),
      number: int('x00200011'),
      description: text('x0008103e'),
      bodyPart: raw('x00180015').trim(),
      date: raw('x00080021').trim(),
      time: raw('x00080031').trim(),
    },
    instance: { number: int('x00200013'), rows, columns, frames },
    datasetOffset: metaEnd,
  };
}
