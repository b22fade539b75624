/**
 * Modality Worklist (PS3.4 annex K): the C-FIND identifier a modality sends read into a typed
 * query, the matching rules (PS3.4 C.2.2.2) as a pure function, and a scheduled procedure step
 * written as the identifier that answers it. No I/O: dimse.ts carries the messages, the module
 * behind DimseHandlers.worklist finds the items (in SQL, with the semantics matchesWorklistQuery
 * states).
 */
import { type Dataset, charsetOf, itemsOf, readDataset, textOf } from './dataset-reader.js';
import { DatasetBuilder, EXPLICIT_VR_LE, VRS, type VR, tag } from './dataset-writer.js';
import { DicomError } from './parse.js';
import { type Charset } from './text-encode.js';

/** Modality Worklist Information Model – FIND. */
export const MWL_FIND_SOP_CLASS = '1.2.840.10008.5.1.4.31';

export const MWL_TAG = {
  specificCharacterSet: tag(0x0008, 0x0005),
  accessionNumber: tag(0x0008, 0x0050),
  modality: tag(0x0008, 0x0060),
  referringPhysicianName: tag(0x0008, 0x0090),
  patientName: tag(0x0010, 0x0010),
  patientId: tag(0x0010, 0x0020),
  patientBirthDate: tag(0x0010, 0x0030),
  patientSex: tag(0x0010, 0x0040),
  patientSpeciesDescription: tag(0x0010, 0x2201),
  patientSexNeutered: tag(0x0010, 0x2203),
  patientBreedDescription: tag(0x0010, 0x2292),
  responsiblePerson: tag(0x0010, 0x2297),
  studyInstanceUid: tag(0x0020, 0x000d),
  requestedProcedureDescription: tag(0x0032, 0x1060),
  scheduledStationAeTitle: tag(0x0040, 0x0001),
  startDate: tag(0x0040, 0x0002),
  startTime: tag(0x0040, 0x0003),
  performingPhysicianName: tag(0x0040, 0x0006),
  stepDescription: tag(0x0040, 0x0007),
  stepId: tag(0x0040, 0x0009),
  scheduledProcedureStepSequence: tag(0x0040, 0x0100),
  requestedProcedureId: tag(0x0040, 0x1001),
  stepStatus: tag(0x0040, 0x0020),
} as const;

/** Sequences a worklist identifier may carry in implicit VR with a defined length. */
export const MWL_SEQUENCES: ReadonlySet<number> = new Set([
  MWL_TAG.scheduledProcedureStepSequence,
  tag(0x0008, 0x1110), // Referenced Study Sequence
  tag(0x0008, 0x1120), // Referenced Patient Sequence
  tag(0x0032, 0x1064), // Requested Procedure Code Sequence
  tag(0x0040, 0x0008), // Scheduled Protocol Code Sequence
]);

/** An inclusive range of DA (YYYYMMDD) or TM (HHMMSS) values; '' for an open end. */
export interface Range {
  from: string;
  to: string;
}

/** A key the modality asked to be returned, with the VR it wrote (undefined in implicit VR). */
export interface RequestedKey {
  tag: number;
  vr: string | undefined;
  sequence: boolean;
}

/** What a modality asks: '' (or '*') matches anything; text keys may hold * and ? wildcards. */
export interface WorklistQuery {
  patientName: string;
  patientId: string;
  accessionNumber: string;
  /** inside ScheduledProcedureStepSequence */
  modality: string;
  scheduledStationAeTitle: string;
  startDate: Range | null;
  startTime: Range | null;
  /** The keys to return, top level and inside the scheduled procedure step item. */
  requested: RequestedKey[];
  stepRequested: RequestedKey[];
}

/** One scheduled procedure step as the registry knows it; '' where unknown. */
export interface WorklistItem {
  /** The hospital's character set, written in SpecificCharacterSet of the answer. */
  charset: Charset;
  patientName: string;
  patientId: string;
  /** YYYYMMDD */
  patientBirthDate: string;
  /** M, F, O or '' */
  patientSex: string;
  accessionNumber: string;
  referringPhysicianName: string;
  studyInstanceUid: string;
  requestedProcedureId: string;
  requestedProcedureDescription: string;
  /** In a pet domain: the animal (PS3.3 C.7.1.1 Patient Module, non-human organism attributes). */
  animal?: {
    species: string;
    breed: string;
    responsiblePerson: string;
    /** ALTERED, UNALTERED or '' */
    sexNeutered: string;
  };
  step: {
    modality: string;
    scheduledStationAeTitle: string;
    /** YYYYMMDD */
    startDate: string;
    /** HHMMSS */
    startTime: string;
    description: string;
    id: string;
    /** SCHEDULED, ARRIVED, READY, STARTED … */
    status: string;
    performingPhysicianName: string;
  };
}

/** A C-FIND identifier that is not a worklist query (answered 0xA900). */
export class WorklistQueryError extends DicomError {
  constructor(message: string) {
    super(message, 'identifierDoesNotMatch');
  }
}

const DATE = /^\d{8}$/;
const TIME = /^\d{2}(\d{2}(\d{2}(\.\d{1,6})?)?)?$/;

/** A DA or TM matching key: a single value, or a range A-B, A- or -B; null when universal. */
function parseRange(value: string, format: RegExp, what: string): Range | null {
  if (value === '' || value === '*') return null;
  const parts = value.split('-');
  if (parts.length > 2) throw new WorklistQueryError(`${what} "${value}" is not a value or a range`);
  const [from, to] = parts.length === 1 ? [value, value] : [parts[0]!, parts[1]!];
  for (const v of [from, to]) {
    if (v !== '' && !format.test(v)) throw new WorklistQueryError(`${what} "${value}" is not a value or a range`);
  }
  if (from === '' && to === '') throw new WorklistQueryError(`${what} "-" is no range`);
  return { from, to };
}

function requestedKeys(ds: Dataset): RequestedKey[] {
  return [...ds.entries()]
    .filter(([t]) => t !== MWL_TAG.specificCharacterSet)
    .map(([t, el]) => ({ tag: t, vr: el.vr, sequence: el.items !== undefined }));
}

/**
 * Reads a C-FIND identifier (`transferSyntax`: the presentation context's, Explicit or Implicit
 * VR Little Endian) into a worklist query. Throws WorklistQueryError (a DicomError) when it is
 * not one: unreadable, several scheduled procedure step items, a date or time that is no value
 * or range.
 */
export function parseWorklistQuery(identifier: Buffer, transferSyntax: string): WorklistQuery {
  let ds: Dataset;
  try {
    ds = readDataset(identifier, transferSyntax, MWL_SEQUENCES);
  } catch (err) {
    throw new WorklistQueryError(err instanceof Error ? err.message : 'unreadable identifier');
  }
  const charset = charsetOf(ds);
  const steps = itemsOf(ds, MWL_TAG.scheduledProcedureStepSequence);
  if (steps.length > 1) throw new WorklistQueryError('more than one scheduled procedure step item');
  const step: Dataset = steps[0] ?? new Map();
  return {
    patientName: textOf(ds, MWL_TAG.patientName, charset, 'PN'),
    patientId: textOf(ds, MWL_TAG.patientId, charset, 'text'),
    accessionNumber: textOf(ds, MWL_TAG.accessionNumber, charset, 'text'),
    modality: textOf(step, MWL_TAG.modality, charset),
    scheduledStationAeTitle: textOf(step, MWL_TAG.scheduledStationAeTitle, charset),
    startDate: parseRange(textOf(step, MWL_TAG.startDate, charset), DATE, 'ScheduledProcedureStepStartDate'),
    startTime: parseRange(textOf(step, MWL_TAG.startTime, charset), TIME, 'ScheduledProcedureStepStartTime'),
    requested: requestedKeys(ds),
    stepRequested: requestedKeys(step),
  };
}

/**
 * Wildcard matching of PS3.4 C.2.2.2.4: `*` any run of characters, `?` one character, anything
 * else itself; '' and '*' match every value. PN keys compare case-insensitively and without
 * trailing empty components (DOE^JOHN^ is DOE^JOHN).
 */
export function matchesText(key: string, value: string, personName = false): boolean {
  if (key === '' || key === '*') return true;
  const norm = (s: string) => (personName ? s.replace(/[\^=\s]+$/, '').toLowerCase() : s);
  const k = [...norm(key)];
  const v = [...norm(value)];
  // Iterative glob with backtracking to the last '*': linear in practice, never exponential.
  let i = 0;
  let j = 0;
  let star = -1;
  let mark = 0;
  while (j < v.length) {
    if (i < k.length && (k[i] === '?' || k[i] === v[j])) {
      i++;
      j++;
    } else if (i < k.length && k[i] === '*') {
      star = i++;
      mark = j;
    } else if (star >= 0) {
      i = star + 1;
      j = ++mark;
    } else {
      return false;
    }
  }
  while (i < k.length && k[i] === '*') i++;
  return i === k.length;
}

/** A TM value as HHMMSS.ffffff text, padded with `fill` (0 for a lower bound, 9 for an upper one). */
function fullTime(t: string, fill: '0' | '9'): string {
  const [hms, fraction = ''] = t.split('.');
  return `${hms!.padEnd(6, fill)}.${fraction.padEnd(6, fill)}`;
}

/** Range matching (PS3.4 C.2.2.2.5): inclusive; an item without the value does not match. */
function inRange(range: Range | null, value: string, time: boolean): boolean {
  if (!range) return true;
  if (value === '') return false;
  const v = time ? fullTime(value, '0') : value;
  const from = range.from === '' ? '' : time ? fullTime(range.from, '0') : range.from;
  const to = range.to === '' ? '' : time ? fullTime(range.to, '9') : range.to;
  return (from === '' || v >= from) && (to === '' || v <= to);
}

/**
 * Whether `item` answers `query`: every key present matches (text keys by matchesText, the AE
 * title and modality case-sensitively as CS/AE values are, start date and time each by its range).
 */
export function matchesWorklistQuery(item: WorklistItem, query: WorklistQuery): boolean {
  return (
    matchesText(query.patientName, item.patientName, true) &&
    matchesText(query.patientId, item.patientId) &&
    matchesText(query.accessionNumber, item.accessionNumber) &&
    matchesText(query.modality, item.step.modality) &&
    matchesText(query.scheduledStationAeTitle, item.step.scheduledStationAeTitle) &&
    inRange(query.startDate, item.step.startDate, false) &&
    inRange(query.startTime, item.step.startTime, true)
  );
}

/** A return key yyp answers: its tag, its VR and its value in an item. */
export type WorklistKey = readonly [number, VR, (item: WorklistItem) => string];
type Key = WorklistKey;

/** The return keys yyp answers (PS3.4 K.6.1.2.2), top level. */
const ITEM_KEYS: Key[] = [
  [MWL_TAG.accessionNumber, 'SH', (i) => i.accessionNumber],
  [MWL_TAG.referringPhysicianName, 'PN', (i) => i.referringPhysicianName],
  [MWL_TAG.patientName, 'PN', (i) => i.patientName],
  [MWL_TAG.patientId, 'LO', (i) => i.patientId],
  [MWL_TAG.patientBirthDate, 'DA', (i) => i.patientBirthDate],
  [MWL_TAG.patientSex, 'CS', (i) => i.patientSex],
  [MWL_TAG.studyInstanceUid, 'UI', (i) => i.studyInstanceUid],
  [MWL_TAG.requestedProcedureDescription, 'LO', (i) => i.requestedProcedureDescription],
  [MWL_TAG.requestedProcedureId, 'SH', (i) => i.requestedProcedureId],
];

/** The animal's keys, answered for an animal only. */
const ANIMAL_KEYS: Key[] = [
  [MWL_TAG.patientSpeciesDescription, 'LO', (i) => i.animal?.species ?? ''],
  [MWL_TAG.patientSexNeutered, 'CS', (i) => i.animal?.sexNeutered ?? ''],
  [MWL_TAG.patientBreedDescription, 'LO', (i) => i.animal?.breed ?? ''],
  [MWL_TAG.responsiblePerson, 'PN', (i) => i.animal?.responsiblePerson ?? ''],
];

/**
 * A pet domain's gender (spec 000 §3 Pet gender M F MS FS U) as DICOM Patient's Sex and Patient's
 * Sex Neutered: MS and FS are an altered male and female.
 */
export function animalSex(gender: string): { patientSex: string; sexNeutered: string } {
  if (gender === 'MS' || gender === 'FS') return { patientSex: gender[0]!, sexNeutered: 'ALTERED' };
  if (gender === 'M' || gender === 'F') return { patientSex: gender, sexNeutered: 'UNALTERED' };
  return { patientSex: '', sexNeutered: '' };
}

/** … and inside the ScheduledProcedureStepSequence item. */
const STEP_KEYS: Key[] = [
  [MWL_TAG.modality, 'CS', (i) => i.step.modality],
  [MWL_TAG.scheduledStationAeTitle, 'AE', (i) => i.step.scheduledStationAeTitle],
  [MWL_TAG.startDate, 'DA', (i) => i.step.startDate],
  [MWL_TAG.startTime, 'TM', (i) => i.step.startTime],
  [MWL_TAG.performingPhysicianName, 'PN', (i) => i.step.performingPhysicianName],
  [MWL_TAG.stepDescription, 'LO', (i) => i.step.description],
  [MWL_TAG.stepId, 'SH', (i) => i.step.id],
  [MWL_TAG.stepStatus, 'CS', (i) => i.step.status],
];

/** The return keys yyp answers: top level, for an animal, in the scheduled procedure step item. */
export const WORKLIST_KEYS = { item: ITEM_KEYS, animal: ANIMAL_KEYS, step: STEP_KEYS } as const;

/** The keys asked for that yyp does not know, answered empty (a sequence with no item). */
export function emptyKeys(ds: DatasetBuilder, requested: readonly RequestedKey[], known: readonly Key[]): void {
  for (const key of requested) {
    if (key.tag === MWL_TAG.scheduledProcedureStepSequence || known.some(([t]) => t === key.tag)) continue;
    if (key.sequence) ds.sequence(key.tag, []);
    else ds.empty(key.tag, VRS.find((vr) => vr === key.vr) ?? 'UN');
  }
}

function build(item: WorklistItem, query: WorklistQuery, charset: Charset): DatasetBuilder {
  const ds = new DatasetBuilder(charset);
  if (charset !== '') ds.text(MWL_TAG.specificCharacterSet, 'CS', charset);
  const keys = item.animal ? [...ITEM_KEYS, ...ANIMAL_KEYS] : ITEM_KEYS;
  for (const [t, vr, value] of keys) ds.text(t, vr, value(item));
  emptyKeys(ds, query.requested, keys);
  const step = new DatasetBuilder(charset);
  for (const [t, vr, value] of STEP_KEYS) step.text(t, vr, value(item));
  emptyKeys(step, query.stepRequested, STEP_KEYS);
  return ds.sequence(MWL_TAG.scheduledProcedureStepSequence, [step]);
}

/**
 * The identifier of one C-FIND-RSP answering `query` with `item`: SpecificCharacterSet (the
 * item's, the hospital's), the standard return keys yyp knows (empty when the item has no value)
 * and every other key the query asked for, empty. Text the hospital's character set cannot hold
 * is answered in UTF-8 (ISO_IR 192) rather than refused.
 */
export function encodeWorklistItem(
  item: WorklistItem,
  query: WorklistQuery,
  charset: Charset = item.charset,
): DatasetBuilder {
  try {
    return build(item, query, charset);
  } catch {
    return build(item, query, 'ISO_IR 192');
  }
}

/** encodeWorklistItem's dataset as bytes in the presentation context's transfer syntax. */
export function worklistAnswer(item: WorklistItem, query: WorklistQuery, transferSyntax: string): Buffer {
  return encodeWorklistItem(item, query).toBuffer(transferSyntax === EXPLICIT_VR_LE);
}
