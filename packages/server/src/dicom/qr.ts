/**
 * Query/Retrieve (PS3.4 Annex C) as the SCP reads and answers it, protocol only: the information
 * models' SOP classes, a C-FIND identifier read into a query (the level, the matching keys by
 * keyword, the keys to return, the request's character set), each match written back as an
 * identifier, and a C-MOVE or C-GET identifier read into what to retrieve. Who matches what is the
 * archive's business (DimseHandlers.queryRetrieve).
 */
import { charsetOf, readDataset, textOf, type Dataset } from './dataset-reader.js';
import { DatasetBuilder, EXPLICIT_VR_LE, VRS, type VR } from './dataset-writer.js';
import type { RequestedKey } from './mwl.js';
import { DicomError } from './parse.js';
import type { Charset } from './text-encode.js';

export const QR_SOP_CLASS = {
  patientRootFind: '1.2.840.10008.5.1.4.1.2.1.1',
  patientRootMove: '1.2.840.10008.5.1.4.1.2.1.2',
  patientRootGet: '1.2.840.10008.5.1.4.1.2.1.3',
  studyRootFind: '1.2.840.10008.5.1.4.1.2.2.1',
  studyRootMove: '1.2.840.10008.5.1.4.1.2.2.2',
  studyRootGet: '1.2.840.10008.5.1.4.1.2.2.3',
} as const;

export type QrModel = 'patient' | 'study';
export type QrOperation = 'find' | 'move' | 'get';

/** The model and operation of a Query/Retrieve SOP class, undefined for any other abstract syntax. */
export function qrService(sopClass: string): { model: QrModel; operation: QrOperation } | undefined {
  for (const [name, uid] of Object.entries(QR_SOP_CLASS)) {
    if (uid !== sopClass) continue;
    const model = name.startsWith('patient') ? 'patient' : 'study';
    const operation = name.endsWith('Find') ? 'find' : name.endsWith('Move') ? 'move' : 'get';
    return { model, operation };
  }
  return undefined;
}

export type QrLevel = 'PATIENT' | 'STUDY' | 'SERIES' | 'IMAGE';
const LEVEL_ORDER: readonly QrLevel[] = ['PATIENT', 'STUDY', 'SERIES', 'IMAGE'];

/** An attribute the archive matches on or answers, with the level it belongs to (PS3.4 C.6). */
export interface QrKey {
  tag: number;
  keyword: string;
  vr: VR;
  level: QrLevel;
}

const key = (tag: number, keyword: string, vr: VR, level: QrLevel): QrKey => ({ tag, keyword, vr, level });

/**
 * The keys yyp keeps, by level. Those QIDO-RS matches on (modules/dicomweb qido-query.ts, the
 * same keywords) are the matching keys; the counts and image attributes are return keys only.
 */
export const QR_KEYS: readonly QrKey[] = [
  key(0x00100010, 'PatientName', 'PN', 'PATIENT'),
  key(0x00100020, 'PatientID', 'LO', 'PATIENT'),
  key(0x00100030, 'PatientBirthDate', 'DA', 'PATIENT'),
  key(0x00100040, 'PatientSex', 'CS', 'PATIENT'),
  key(0x00201200, 'NumberOfPatientRelatedStudies', 'IS', 'PATIENT'),
  key(0x00201202, 'NumberOfPatientRelatedSeries', 'IS', 'PATIENT'),
  key(0x00201204, 'NumberOfPatientRelatedInstances', 'IS', 'PATIENT'),
  key(0x00080020, 'StudyDate', 'DA', 'STUDY'),
  key(0x00080030, 'StudyTime', 'TM', 'STUDY'),
  key(0x00080050, 'AccessionNumber', 'SH', 'STUDY'),
  key(0x00080061, 'ModalitiesInStudy', 'CS', 'STUDY'),
  key(0x00080090, 'ReferringPhysicianName', 'PN', 'STUDY'),
  key(0x00081030, 'StudyDescription', 'LO', 'STUDY'),
  key(0x0020000d, 'StudyInstanceUID', 'UI', 'STUDY'),
  key(0x00200010, 'StudyID', 'SH', 'STUDY'),
  key(0x00201206, 'NumberOfStudyRelatedSeries', 'IS', 'STUDY'),
  key(0x00201208, 'NumberOfStudyRelatedInstances', 'IS', 'STUDY'),
  key(0x00080060, 'Modality', 'CS', 'SERIES'),
  key(0x00080021, 'SeriesDate', 'DA', 'SERIES'),
  key(0x00080031, 'SeriesTime', 'TM', 'SERIES'),
  key(0x0008103e, 'SeriesDescription', 'LO', 'SERIES'),
  key(0x00180015, 'BodyPartExamined', 'CS', 'SERIES'),
  key(0x0020000e, 'SeriesInstanceUID', 'UI', 'SERIES'),
  key(0x00200011, 'SeriesNumber', 'IS', 'SERIES'),
  key(0x00201209, 'NumberOfSeriesRelatedInstances', 'IS', 'SERIES'),
  key(0x00080016, 'SOPClassUID', 'UI', 'IMAGE'),
  key(0x00080018, 'SOPInstanceUID', 'UI', 'IMAGE'),
  key(0x00200013, 'InstanceNumber', 'IS', 'IMAGE'),
  key(0x00280008, 'NumberOfFrames', 'IS', 'IMAGE'),
  key(0x00280010, 'Rows', 'US', 'IMAGE'),
  key(0x00280011, 'Columns', 'US', 'IMAGE'),
];
const BY_TAG = new Map(QR_KEYS.map((k) => [k.tag, k]));

export const QR_TAG = {
  specificCharacterSet: 0x00080005,
  queryRetrieveLevel: 0x00080052,
  retrieveAeTitle: 0x00080054,
  studyInstanceUid: 0x0020000d,
  seriesInstanceUid: 0x0020000e,
  sopInstanceUid: 0x00080018,
  patientId: 0x00100020,
  failedSopInstanceUidList: 0x00080058,
} as const;

/** A C-FIND, C-MOVE or C-GET identifier that is not one of its SOP class (answered 0xA900). */
export class QrIdentifierError extends DicomError {
  constructor(message: string) {
    super(message, 'identifierDoesNotMatch');
  }
}

/** What a C-FIND asks of the archive. */
export interface QrQuery {
  model: QrModel;
  level: QrLevel;
  /** The matching keys with a value (universal matching left out), by keyword, decoded to Unicode. */
  matching: Map<string, string>;
  /** The keys to return, as written (QueryRetrieveLevel and SpecificCharacterSet left out). */
  requested: RequestedKey[];
  /** The request's SpecificCharacterSet ('' for the default repertoire). */
  charset: string;
}

function readIdentifier(identifier: Buffer, transferSyntax: string): Dataset {
  try {
    return readDataset(identifier, transferSyntax);
  } catch (err) {
    throw new QrIdentifierError(err instanceof Error ? err.message : 'unreadable identifier');
  }
}

function levelOf(ds: Dataset, model: QrModel): QrLevel {
  const level = textOf(ds, QR_TAG.queryRetrieveLevel, '').toUpperCase() as QrLevel;
  if (!LEVEL_ORDER.includes(level)) throw new QrIdentifierError(`QueryRetrieveLevel "${level}" is not a level`);
  if (model === 'study' && level === 'PATIENT') {
    throw new QrIdentifierError('the Study Root information model has no PATIENT level');
  }
  return level;
}

const below = (a: QrLevel, b: QrLevel) => LEVEL_ORDER.indexOf(a) > LEVEL_ORDER.indexOf(b);

/**
 * Reads a C-FIND identifier (`transferSyntax`: Explicit or Implicit VR Little Endian). A key of a
 * level below the one queried, with a value, makes it no query of the model (0xA900); the same
 * key without a value is a return key and is answered empty. Values are decoded in the request's
 * character set; sequence keys are answered empty (nothing yyp keeps is a sequence).
 */
export function parseQrQuery(identifier: Buffer, transferSyntax: string, model: QrModel): QrQuery {
  const ds = readIdentifier(identifier, transferSyntax);
  const level = levelOf(ds, model);
  const charset = charsetOf(ds);
  const matching = new Map<string, string>();
  const requested: RequestedKey[] = [];
  for (const [tag, el] of ds) {
    if (tag === QR_TAG.specificCharacterSet || tag === QR_TAG.queryRetrieveLevel) continue;
    requested.push({ tag, vr: el.vr, sequence: el.items !== undefined });
    const known = BY_TAG.get(tag);
    if (!known || el.items) continue;
    const kind = known.vr === 'PN' ? 'PN' : known.vr === 'LO' || known.vr === 'SH' ? 'text' : 'ascii';
    const value = textOf(ds, tag, charset, kind).trim();
    if (value === '' || value === '*') continue;
    if (below(known.level, level)) {
      throw new QrIdentifierError(`${known.keyword} is a ${known.level} key, below the ${level} level queried`);
    }
    matching.set(known.keyword, value);
  }
  return { model, level, matching, requested, charset };
}

/** One match: the attributes yyp keeps by keyword, multiple values joined by "\", person names "A=I=P". */
export type QrMatch = Readonly<Record<string, string | undefined>>;

/** The character set an answer is written in: the request's when yyp can write it, else UTF-8. */
function answerCharset(requested: string): Charset {
  const first = requested.split('\\')[0]?.trim() ?? '';
  return first === 'GB18030' || first === 'GBK' || first === 'ISO_IR 100' ? first : 'ISO_IR 192';
}

function build(match: QrMatch, query: QrQuery, charset: Charset, retrieveAe: string): DatasetBuilder {
  const ds = new DatasetBuilder(charset);
  ds.text(QR_TAG.specificCharacterSet, 'CS', charset);
  ds.text(QR_TAG.queryRetrieveLevel, 'CS', query.level);
  ds.text(QR_TAG.retrieveAeTitle, 'AE', retrieveAe);
  for (const asked of query.requested) {
    if (asked.tag === QR_TAG.retrieveAeTitle) continue;
    const known = BY_TAG.get(asked.tag);
    const value = known ? match[known.keyword] : undefined;
    if (asked.sequence) ds.sequence(asked.tag, []);
    else if (!known || value === undefined || value === '' || below(known.level, query.level)) {
      ds.empty(asked.tag, known?.vr ?? VRS.find((vr) => vr === asked.vr) ?? 'UN');
    } else if (known.vr === 'US') ds.uint16(asked.tag, Number(value));
    else ds.text(asked.tag, known.vr, value);
  }
  return ds;
}

/**
 * The identifier of one C-FIND-RSP: SpecificCharacterSet, QueryRetrieveLevel, Retrieve AE Title
 * and every key asked for, with the match's value or empty. Written in the request's character
 * set where yyp writes it (GB18030, GBK, Latin-1) and the values fit, otherwise in UTF-8.
 */
export function qrAnswer(match: QrMatch, query: QrQuery, transferSyntax: string, retrieveAe: string): Buffer {
  const explicit = transferSyntax === EXPLICIT_VR_LE;
  const charset = answerCharset(query.charset);
  try {
    return build(match, query, charset, retrieveAe).toBuffer(explicit);
  } catch {
    return build(match, query, 'ISO_IR 192', retrieveAe).toBuffer(explicit);
  }
}

/** What a C-MOVE or C-GET asks for: the unique keys of its level and those above it. */
export interface QrRetrieve {
  model: QrModel;
  level: QrLevel;
  patientId?: string;
  studyUids: string[];
  seriesUids: string[];
  sopInstanceUids: string[];
}

const UID = /^[0-9]+(\.[0-9]+)*$/;

function uidList(ds: Dataset, tag: number, what: string): string[] {
  const raw = textOf(ds, tag, '');
  if (raw === '') return [];
  const list = raw.split('\\').map((v) => v.trim());
  for (const uid of list) {
    if (!UID.test(uid) || uid.length > 64) throw new QrIdentifierError(`${what} "${uid.slice(0, 64)}" is not a UID`);
  }
  return [...new Set(list)];
}

/**
 * Reads a C-MOVE or C-GET identifier: the level and the unique keys (PS3.4 C.4.2.1.4, C.4.3.1.3).
 * The level's own unique key is required (a list of UIDs is allowed); Patient ID is required at
 * the PATIENT level.
 */
export function parseQrRetrieve(identifier: Buffer, transferSyntax: string, model: QrModel): QrRetrieve {
  const ds = readIdentifier(identifier, transferSyntax);
  const level = levelOf(ds, model);
  const request: QrRetrieve = {
    model,
    level,
    studyUids: uidList(ds, QR_TAG.studyInstanceUid, 'StudyInstanceUID'),
    seriesUids: uidList(ds, QR_TAG.seriesInstanceUid, 'SeriesInstanceUID'),
    sopInstanceUids: uidList(ds, QR_TAG.sopInstanceUid, 'SOPInstanceUID'),
  };
  const patientId = textOf(ds, QR_TAG.patientId, charsetOf(ds), 'text');
  if (/[*?\\]/.test(patientId)) throw new QrIdentifierError('PatientID of a retrieve is one value, without wildcards');
  if (patientId) request.patientId = patientId;
  const required: Record<QrLevel, [number, string]> = {
    PATIENT: [patientId ? 1 : 0, 'PatientID'],
    STUDY: [request.studyUids.length, 'StudyInstanceUID'],
    SERIES: [request.seriesUids.length, 'SeriesInstanceUID'],
    IMAGE: [request.sopInstanceUids.length, 'SOPInstanceUID'],
  };
  const [count, name] = required[level];
  if (count === 0) throw new QrIdentifierError(`a ${level} level retrieve needs ${name}`);
  return request;
}
