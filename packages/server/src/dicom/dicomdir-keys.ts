/**
 * The keys of DICOMDIR records (PS3.3 F.5), read from the instances they describe: each value is
 * copied as the file holds it (its bytes, in its Specific Character Set, which the record then
 * names), as dcmmkdir copies them, so a record and its file never disagree. A type 1 key the file
 * lacks is filled in (the study date from the series, acquisition or content date, an instance
 * number from the caller…), as dcmmkdir +I invents them; a type 2 key it lacks is written empty.
 */
import dicomParser from 'dicom-parser';
import { tag, type VR } from './dataset-writer.js';
import { keyText, textValue, type KeyElement, type RecordType } from './dicomdir.js';

type Need = '1' | '1C' | '2' | '3';
interface KeySpec {
  tag: number;
  vr: VR;
  need: Need;
}

const k = (group: number, element: number, vr: VR, need: Need): KeySpec => ({ tag: tag(group, element), vr, need });

export const TAGS = {
  charset: tag(0x0008, 0x0005),
  studyDate: tag(0x0008, 0x0020),
  seriesDate: tag(0x0008, 0x0021),
  acquisitionDate: tag(0x0008, 0x0022),
  contentDate: tag(0x0008, 0x0023),
  studyTime: tag(0x0008, 0x0030),
  seriesTime: tag(0x0008, 0x0031),
  acquisitionTime: tag(0x0008, 0x0032),
  contentTime: tag(0x0008, 0x0033),
  modality: tag(0x0008, 0x0060),
  patientName: tag(0x0010, 0x0010),
  patientId: tag(0x0010, 0x0020),
  studyUid: tag(0x0020, 0x000d),
  seriesUid: tag(0x0020, 0x000e),
  studyId: tag(0x0020, 0x0010),
  seriesNumber: tag(0x0020, 0x0011),
  instanceNumber: tag(0x0020, 0x0013),
  verifyingObserver: tag(0x0040, 0xa073),
  verificationDateTime: tag(0x0040, 0xa030),
  conceptName: tag(0x0040, 0xa043),
  referencedSeries: tag(0x0008, 0x1115),
} as const;

const CONTENT_DATE_TIME = [k(0x0008, 0x0023, 'DA', '1'), k(0x0008, 0x0033, 'TM', '1')];
const INSTANCE_NUMBER = k(0x0020, 0x0013, 'IS', '1');
const CONTENT_IDENTIFICATION = [
  k(0x0070, 0x0080, 'CS', '1'),
  k(0x0070, 0x0081, 'LO', '2'),
  k(0x0070, 0x0084, 'PN', '2'),
];

/** The keys of each record type (Specific Character Set apart), PS3.3 F.5. */
export const RECORD_KEYS: Record<RecordType, KeySpec[]> = {
  PATIENT: [
    k(0x0010, 0x0010, 'PN', '2'),
    k(0x0010, 0x0020, 'LO', '1'),
    k(0x0010, 0x0030, 'DA', '3'),
    k(0x0010, 0x0040, 'CS', '3'),
  ],
  STUDY: [
    k(0x0008, 0x0020, 'DA', '1'),
    k(0x0008, 0x0030, 'TM', '1'),
    k(0x0008, 0x0050, 'SH', '2'),
    k(0x0008, 0x1030, 'LO', '2'),
    k(0x0020, 0x000d, 'UI', '1C'),
    k(0x0020, 0x0010, 'SH', '1'),
  ],
  SERIES: [
    k(0x0008, 0x0060, 'CS', '1'),
    k(0x0008, 0x103e, 'LO', '3'),
    k(0x0020, 0x000e, 'UI', '1'),
    k(0x0020, 0x0011, 'IS', '1'),
  ],
  IMAGE: [k(0x0008, 0x0008, 'CS', '3'), INSTANCE_NUMBER],
  'SR DOCUMENT': [
    INSTANCE_NUMBER,
    ...CONTENT_DATE_TIME,
    k(0x0040, 0xa043, 'SQ', '1'),
    k(0x0040, 0xa491, 'CS', '1'),
    k(0x0040, 0xa493, 'CS', '1'),
    k(0x0040, 0xa030, 'DT', '1C'),
  ],
  'KEY OBJECT DOC': [INSTANCE_NUMBER, ...CONTENT_DATE_TIME, k(0x0040, 0xa043, 'SQ', '1')],
  PRESENTATION: [
    INSTANCE_NUMBER,
    ...CONTENT_IDENTIFICATION,
    k(0x0070, 0x0082, 'DA', '1'),
    k(0x0070, 0x0083, 'TM', '1'),
    k(0x0008, 0x1115, 'SQ', '1C'),
  ],
  'ENCAP DOC': [
    k(0x0008, 0x0023, 'DA', '2'),
    k(0x0008, 0x0033, 'TM', '2'),
    INSTANCE_NUMBER,
    k(0x0042, 0x0010, 'ST', '2'),
    k(0x0040, 0xe001, 'ST', '1C'),
    k(0x0040, 0xa043, 'SQ', '2'),
    k(0x0042, 0x0012, 'LO', '1'),
  ],
  WAVEFORM: [INSTANCE_NUMBER, ...CONTENT_DATE_TIME],
  'RAW DATA': [INSTANCE_NUMBER, ...CONTENT_DATE_TIME],
  REGISTRATION: [INSTANCE_NUMBER, ...CONTENT_DATE_TIME, ...CONTENT_IDENTIFICATION],
  FIDUCIAL: [INSTANCE_NUMBER, ...CONTENT_DATE_TIME, ...CONTENT_IDENTIFICATION],
  'VALUE MAP': [INSTANCE_NUMBER, ...CONTENT_DATE_TIME, ...CONTENT_IDENTIFICATION],
  SURFACE: [INSTANCE_NUMBER, ...CONTENT_DATE_TIME, ...CONTENT_IDENTIFICATION],
  TRACT: [INSTANCE_NUMBER, ...CONTENT_DATE_TIME, ...CONTENT_IDENTIFICATION],
  'RT DOSE': [INSTANCE_NUMBER, k(0x3004, 0x000a, 'CS', '1')],
  'RT STRUCTURE SET': [
    INSTANCE_NUMBER,
    k(0x3006, 0x0002, 'SH', '1'),
    k(0x3006, 0x0008, 'DA', '2'),
    k(0x3006, 0x0009, 'TM', '2'),
  ],
  'RT PLAN': [
    INSTANCE_NUMBER,
    k(0x300a, 0x0002, 'SH', '1'),
    k(0x300a, 0x0006, 'DA', '2'),
    k(0x300a, 0x0007, 'TM', '2'),
  ],
  'RT TREAT RECORD': [INSTANCE_NUMBER, k(0x3008, 0x0250, 'DA', '2'), k(0x3008, 0x0251, 'TM', '2')],
};

/** VRs of the attributes copied inside sequence items (code sequences, referenced series and images). */
const ITEM_VRS = new Map<number, VR>([
  [tag(0x0008, 0x0100), 'SH'],
  [tag(0x0008, 0x0102), 'SH'],
  [tag(0x0008, 0x0103), 'SH'],
  [tag(0x0008, 0x0104), 'LO'],
  [tag(0x0008, 0x0119), 'UC'],
  [tag(0x0008, 0x0120), 'UR'],
  [tag(0x0020, 0x000e), 'UI'],
  [tag(0x0008, 0x1140), 'SQ'],
  [tag(0x0008, 0x1150), 'UI'],
  [tag(0x0008, 0x1155), 'UI'],
  [tag(0x0008, 0x1160), 'IS'],
]);

/** Top-level tags read from a file: every record's keys and the alternatives of the invented ones. */
const READ_TAGS = new Set<number>([
  ...Object.values(RECORD_KEYS).flatMap((specs) => specs.map((s) => s.tag)),
  ...Object.values(TAGS),
]);

const TEXT_VRS: ReadonlySet<VR> = new Set(['PN', 'LO', 'SH', 'ST', 'LT', 'UT', 'UC', 'SQ']);

/** What a file says: its raw values of the keys' attributes, its character set and UIDs. */
export interface InstanceFacts {
  values: Map<number, KeyElement>;
  /** the file's Specific Character Set, as written ('' for the default repertoire) */
  charset: string;
  sopClassUid: string;
  sopInstanceUid: string;
  transferSyntaxUid: string;
  studyInstanceUid: string;
  seriesInstanceUid: string;
  /** false when the bytes ended before the header did (a longer prefix may say more) */
  complete: boolean;
  /** an attribute's text (padding trimmed), '' when absent */
  text(t: number): string;
}

/** VRs of the attributes read only to invent a missing key (and the character set). */
const OTHER_VRS = new Map<number, VR>([
  [TAGS.charset, 'CS'],
  [TAGS.seriesDate, 'DA'],
  [TAGS.acquisitionDate, 'DA'],
  [TAGS.seriesTime, 'TM'],
  [TAGS.acquisitionTime, 'TM'],
]);

const PIXEL_DATA = 'x7fe00010';
const tagName = (t: number) => `x${t.toString(16).padStart(8, '0')}`;
const refuseInflate = (): never => {
  throw new Error('deflated');
};

function valueOf(ds: dicomParser.DataSet, el: dicomParser.Element): Buffer {
  const bytes = ds.byteArray;
  return Buffer.from(bytes.buffer, bytes.byteOffset + el.dataOffset, Math.max(0, el.length)).subarray();
}

function copyItem(item: dicomParser.DataSet): KeyElement[] {
  const out: KeyElement[] = [];
  for (const [t, vr] of ITEM_VRS) {
    const el = item.elements[tagName(t)];
    if (!el) continue;
    out.push(copyElement(item, el, t, vr));
  }
  return out;
}

function copyElement(ds: dicomParser.DataSet, el: dicomParser.Element, t: number, vr: VR): KeyElement {
  if (vr === 'SQ') return { tag: t, vr: 'SQ', items: (el.items ?? []).map((i) => copyItem(i.dataSet!)) };
  return { tag: t, vr, value: textValue(vr, Buffer.from(valueOf(ds, el))) };
}

/**
 * Reads a Part 10 file's facts from its first bytes (up to the pixel data; a prefix that ends
 * earlier gives what it holds). Null when the bytes are no readable Part 10 file (or deflated).
 */
export function readInstanceFacts(bytes: Uint8Array): InstanceFacts | null {
  let ds: dicomParser.DataSet | undefined;
  let complete = true;
  try {
    ds = dicomParser.parseDicom(bytes, { untilTag: PIXEL_DATA, inflater: refuseInflate });
  } catch (err) {
    // A prefix ends inside the header: dicom-parser hands over what it read, without group 0002.
    complete = false;
    ds = (err as { dataSet?: dicomParser.DataSet } | undefined)?.dataSet;
    if (ds && !ds.elements.x00020010) {
      try {
        Object.assign(ds.elements, dicomParser.readPart10Header(bytes).elements);
      } catch {
        return null;
      }
    }
  }
  if (!ds || !ds.elements.x00020010) return null;
  const values = new Map<number, KeyElement>();
  const vrOf = new Map<number, VR>();
  for (const specs of Object.values(RECORD_KEYS)) for (const s of specs) vrOf.set(s.tag, s.vr);
  for (const t of READ_TAGS) {
    const el = ds.elements[tagName(t)];
    if (!el || el.length < 0) continue;
    const vr: VR = vrOf.get(t) ?? OTHER_VRS.get(t) ?? 'CS';
    if (t === TAGS.verifyingObserver) {
      values.set(t, { tag: t, vr: 'SQ', items: (el.items ?? []).map((i) => verifierItem(i.dataSet!)) });
      continue;
    }
    if (vr === 'SQ' && !el.items) continue;
    if (vr !== 'SQ' && el.dataOffset + el.length > ds.byteArray.length) continue;
    values.set(t, copyElement(ds, el, t, vr));
  }
  const str = (name: string) => (ds.string(name) ?? '').replace(/[\0 ]+$/, '');
  const text = (t: number) => {
    const v = values.get(t);
    return v && v.vr !== 'SQ' ? v.value.toString('latin1').replace(/^[ \0]+|[ \0]+$/g, '') : '';
  };
  return {
    values,
    charset: text(TAGS.charset),
    sopClassUid: str('x00020002') || str('x00080016'),
    sopInstanceUid: str('x00020003') || str('x00080018'),
    transferSyntaxUid: str('x00020010'),
    studyInstanceUid: text(TAGS.studyUid),
    seriesInstanceUid: text(TAGS.seriesUid),
    complete,
    text,
  };
}

function verifierItem(item: dicomParser.DataSet): KeyElement[] {
  const el = item.elements[tagName(TAGS.verificationDateTime)];
  return el ? [copyElement(item, el, TAGS.verificationDateTime, 'DT')] : [];
}

/** What the archive's index knows, for keys a file lacks. */
export interface KeyDefaults {
  patientId: string;
  studyId: string;
  modality: string;
  seriesNumber: number;
  instanceNumber: number;
  /** the build's date and time (YYYYMMDD, HHMMSS), for dates nothing else gives */
  today: string;
  now: string;
}

const INVENTED_CS: Record<number, string> = {
  [tag(0x0040, 0xa491)]: 'PARTIAL',
  [tag(0x0040, 0xa493)]: 'UNVERIFIED',
  [tag(0x0070, 0x0080)]: 'UNNAMED',
  [tag(0x3004, 0x000a)]: 'PLAN',
};

/** The first of `tags` the file holds with a value. */
function firstText(facts: InstanceFacts, tags: number[]): string {
  for (const t of tags) {
    const v = facts.text(t);
    if (v) return v;
  }
  return '';
}

function invented(spec: KeySpec, facts: InstanceFacts, d: KeyDefaults): string {
  const dates = [TAGS.studyDate, TAGS.seriesDate, TAGS.acquisitionDate, TAGS.contentDate];
  const times = [TAGS.studyTime, TAGS.seriesTime, TAGS.acquisitionTime, TAGS.contentTime];
  switch (spec.tag) {
    case TAGS.patientId:
      return d.patientId;
    case TAGS.studyId:
      return d.studyId;
    case TAGS.modality:
      return d.modality || 'OT';
    case TAGS.seriesNumber:
      return String(d.seriesNumber);
    case TAGS.instanceNumber:
      return String(d.instanceNumber);
  }
  if (spec.vr === 'DA') return firstText(facts, dates) || d.today;
  if (spec.vr === 'TM') return firstText(facts, times) || d.now;
  return INVENTED_CS[spec.tag] ?? 'UNKNOWN';
}

/** The latest Verification DateTime of the Verifying Observer Sequence (the SR record's 1C key). */
function verificationDateTime(facts: InstanceFacts): KeyElement | undefined {
  const seq = facts.values.get(TAGS.verifyingObserver);
  if (!seq || seq.vr !== 'SQ') return undefined;
  const all = seq.items.flat().flatMap((e) => (e.vr === 'SQ' ? [] : [e.value.toString('latin1').trim()]));
  const latest = all.filter(Boolean).sort().at(-1);
  return latest ? keyText(TAGS.verificationDateTime, 'DT', latest) : undefined;
}

/** The keys of a record of `type` describing `facts`' file (for PATIENT, STUDY and SERIES, its first file's). */
export function recordKeys(type: RecordType, facts: InstanceFacts, defaults: KeyDefaults): KeyElement[] {
  const keys: KeyElement[] = [];
  // Specific Character Set (1C): in the records with keys of the VRs it applies to (PS3.5 §6.1.2.3).
  if (facts.charset && RECORD_KEYS[type].some((s) => TEXT_VRS.has(s.vr))) {
    keys.push(keyText(TAGS.charset, 'CS', facts.charset));
  }
  for (const spec of RECORD_KEYS[type]) {
    if (spec.tag === TAGS.verificationDateTime) {
      const verified = facts.text(tag(0x0040, 0xa493)) === 'VERIFIED';
      const v = verified ? verificationDateTime(facts) : undefined;
      if (v) keys.push(v);
      continue;
    }
    const v = facts.values.get(spec.tag);
    const present = v && (v.vr === 'SQ' ? v.items.length > 0 : v.value.toString('latin1').replace(/[ \0]/g, '') !== '');
    if (present) keys.push(v);
    else if (spec.need === '1' && spec.vr === 'SQ') keys.push({ tag: spec.tag, vr: 'SQ', items: [] });
    else if (spec.need === '1') {
      keys.push(keyText(spec.tag, spec.vr as Exclude<VR, 'SQ'>, invented(spec, facts, defaults)));
    } else if (spec.need === '2') {
      keys.push(spec.vr === 'SQ' ? { tag: spec.tag, vr: 'SQ', items: [] } : keyText(spec.tag, spec.vr, ''));
    } else if (spec.need === '1C' && spec.tag === TAGS.studyUid && facts.studyInstanceUid) {
      keys.push(keyText(spec.tag, 'UI', facts.studyInstanceUid));
    }
  }
  return keys;
}
