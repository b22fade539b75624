import { tagOf } from '../../dicom/json-model.js';
import { AppError } from '../../platform/errors.js';

/**
 * The query of a QIDO-RS search (PS3.18 8.3.4, 10.6.1.2), read before anything is searched: every
 * matching key is one the archive applies at the resource's level, with a value of its VR's form,
 * or the search is refused (400 with a Warning header) — never answered with a broader result.
 */

export type Query = Record<string, string | string[] | undefined>;

/** The level a search answers: studies, series or instances (PS3.18 Table 10.6.1-5). */
export type Level = 'study' | 'series' | 'instance';

/**
 * How a key's value matches (PS3.4 C.2.2.2): text and person names take wildcards (* and ?);
 * UIDs a list; dates and times a range; integers one value; ModalitiesInStudy any of a list.
 */
export type MatchKind = 'text' | 'pn' | 'uid' | 'date' | 'time' | 'int' | 'modalities';

export interface MatchingKey {
  keyword: string;
  tag: string;
  level: Level;
  kind: MatchKind;
}

/**
 * The matching keys the archive applies: every key of PS3.18 Table 10.6.1-5 it keeps, and the
 * other study and series attributes its rows hold. Attributes of the patient count as the study's
 * (study root). The keys of the table it does not keep (PerformedProcedureStepStartDate/Time and
 * RequestAttributesSequence items, series level) are refused as any other attribute is.
 */
export const MATCHING_KEYS: readonly MatchingKey[] = [
  { keyword: 'StudyDate', tag: '00080020', level: 'study', kind: 'date' },
  { keyword: 'StudyTime', tag: '00080030', level: 'study', kind: 'time' },
  { keyword: 'AccessionNumber', tag: '00080050', level: 'study', kind: 'text' },
  { keyword: 'ModalitiesInStudy', tag: '00080061', level: 'study', kind: 'modalities' },
  { keyword: 'ReferringPhysicianName', tag: '00080090', level: 'study', kind: 'pn' },
  { keyword: 'StudyDescription', tag: '00081030', level: 'study', kind: 'text' },
  { keyword: 'PatientName', tag: '00100010', level: 'study', kind: 'pn' },
  { keyword: 'PatientID', tag: '00100020', level: 'study', kind: 'text' },
  { keyword: 'PatientBirthDate', tag: '00100030', level: 'study', kind: 'date' },
  { keyword: 'PatientSex', tag: '00100040', level: 'study', kind: 'text' },
  { keyword: 'StudyInstanceUID', tag: '0020000D', level: 'study', kind: 'uid' },
  { keyword: 'StudyID', tag: '00200010', level: 'study', kind: 'text' },
  { keyword: 'Modality', tag: '00080060', level: 'series', kind: 'text' },
  { keyword: 'SeriesDate', tag: '00080021', level: 'series', kind: 'date' },
  { keyword: 'SeriesTime', tag: '00080031', level: 'series', kind: 'time' },
  { keyword: 'SeriesDescription', tag: '0008103E', level: 'series', kind: 'text' },
  { keyword: 'BodyPartExamined', tag: '00180015', level: 'series', kind: 'text' },
  { keyword: 'SeriesInstanceUID', tag: '0020000E', level: 'series', kind: 'uid' },
  { keyword: 'SeriesNumber', tag: '00200011', level: 'series', kind: 'int' },
  { keyword: 'SOPClassUID', tag: '00080016', level: 'instance', kind: 'uid' },
  { keyword: 'SOPInstanceUID', tag: '00080018', level: 'instance', kind: 'uid' },
  { keyword: 'InstanceNumber', tag: '00200013', level: 'instance', kind: 'int' },
];

const BY_NAME = new Map<string, MatchingKey>(
  MATCHING_KEYS.flatMap((k) => [[k.keyword, k] as const, [k.tag, k] as const]),
);

/** The query parameters that are not matching keys (PS3.18 8.3.4). */
const CONTROLS = new Set(['limit', 'offset', 'includefield', 'includeField', 'fuzzymatching']);

/** Which levels' keys a search of a level may use: its own and those above it (PS3.18 10.6.1.2.1). */
const LEVELS: Record<Level, readonly Level[]> = {
  study: ['study'],
  series: ['study', 'series'],
  instance: ['study', 'series', 'instance'],
};

/** One condition of a search: a key and its value, already checked against its VR's form. */
export type Condition =
  | { key: MatchingKey; kind: 'text' | 'pn'; value: string }
  | { key: MatchingKey; kind: 'uid' | 'modalities'; values: string[] }
  | { key: MatchingKey; kind: 'date' | 'time'; from?: string; to?: string }
  | { key: MatchingKey; kind: 'int'; value: number };

const first = (q: Query, key: string): string | undefined => {
  const v = q[key];
  return Array.isArray(v) ? v[0] : v;
};

/**
 * includefield (PS3.18 8.3.4.3): 'all', or the tags asked for (keywords or 8-digit tags, repeated
 * or comma-separated). An unknown keyword is a 400, not silently ignored.
 */
export function includeFields(q: Query): 'all' | string[] {
  const raw = q.includefield ?? q.includeField;
  const values = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).flatMap((v) => v.split(','));
  const tags: string[] = [];
  for (const v of values.map((x) => x.trim()).filter(Boolean)) {
    if (v === 'all') return 'all';
    const tag = tagOf(v);
    if (!tag) throw new AppError('ValidationError', `includefield: unknown attribute "${v.slice(0, 64)}"`);
    tags.push(tag);
  }
  return [...new Set(tags)];
}

/** Searches fetch limit + 1 rows: the extra one only says that more results exist. */
export function paging(q: Query): { limit: number; offset: number } {
  const limit = Number.parseInt(first(q, 'limit') ?? '100', 10);
  const offset = Number.parseInt(first(q, 'offset') ?? '0', 10);
  return {
    limit: Number.isFinite(limit) && limit > 0 ? Math.min(limit, 1000) : 100,
    offset: Number.isFinite(offset) && offset > 0 ? offset : 0,
  };
}

export interface SearchQuery {
  /** by keyword; a key with universal matching (empty or "*") is left out */
  conditions: Map<string, Condition>;
  /** Warning header values to answer with (fuzzymatching=true is not applied) */
  warnings: string[];
  limit: number;
  offset: number;
  /**
   * Person names and wildcard text compared with case (DIMSE C-FIND by default, PS3.4 C.2.2.2);
   * QIDO-RS compares them without (its documented behaviour).
   */
  caseSensitive?: boolean;
}

/** A refused query: 400, with the reason also in a Warning header (PS3.18 8.3.4, 8.10.3). */
export class QueryRefused extends AppError {
  readonly warning: string;

  constructor(reason: string) {
    super('ValidationError', reason);
    this.warning = `299 yyp "${reason.replaceAll('"', "'")}"`;
  }
}

/** The Warning PS3.18 8.3.4.3 names for a fuzzy search answered with literal matching. */
export const FUZZY_WARNING =
  '299 yyp "The fuzzymatching parameter is not supported. Only literal matching has been performed."';

const shown = (s: string) => JSON.stringify(s.length > 64 ? `${s.slice(0, 64)}…` : s);

const UID = /^[0-9]+(\.[0-9]+)*$/;
const DATE = /^\d{8}$/;
/** HH, HHMM, HHMMSS or HHMMSS.F to .FFFFFF (PS3.5 TM). */
const TIME = /^\d{2}(\d{2}(\d{2}(\.\d{1,6})?)?)?$/;

/** A DA or TM bound as the archive compares it: dates as YYYYMMDD, times as HHMMSS (fraction cut). */
function bound(kind: 'date' | 'time', keyword: string, raw: string): string {
  // DA values of the ACR-NEMA form (YYYY.MM.DD) are still sent by old clients (PS3.5 6.2 note).
  const value = kind === 'date' ? raw.replace(/^(\d{4})\.(\d{2})\.(\d{2})$/, '$1$2$3') : raw;
  if (!(kind === 'date' ? DATE : TIME).test(value)) {
    throw new QueryRefused(
      `${keyword}: ${shown(raw)} is not a ${kind === 'date' ? 'date (YYYYMMDD)' : 'time (HHMMSS)'}`,
    );
  }
  return kind === 'date' ? value : value.split('.')[0]!.padEnd(6, '0');
}

function condition(key: MatchingKey, value: string): Condition | null {
  const { keyword } = key;
  if (value === '' || (value === '*' && key.kind !== 'int')) return null; // universal matching
  switch (key.kind) {
    case 'text':
    case 'pn':
      return { key, kind: key.kind, value };
    case 'uid':
    case 'modalities': {
      const values = value.split(/[\\,]/);
      for (const v of values) {
        const ok = key.kind === 'uid' ? UID.test(v) && v.length <= 64 : /^[A-Za-z0-9_ ]{1,16}$/.test(v);
        if (!ok) throw new QueryRefused(`${keyword}: ${shown(v)} is not a ${key.kind === 'uid' ? 'UID' : 'modality'}`);
      }
      // Modalities are upper-case defined terms; 'ct' is meant as 'CT'.
      const list = key.kind === 'modalities' ? values.map((v) => v.toUpperCase()) : values;
      return { key, kind: key.kind, values: [...new Set(list)] };
    }
    case 'date':
    case 'time': {
      const dash = value.indexOf('-');
      if (dash < 0) {
        const at = bound(key.kind, keyword, value);
        return { key, kind: key.kind, from: at, to: at };
      }
      const [from, to] = [value.slice(0, dash), value.slice(dash + 1)];
      if (from === '' && to === '') throw new QueryRefused(`${keyword}: a range needs at least one end`);
      return {
        key,
        kind: key.kind,
        ...(from ? { from: bound(key.kind, keyword, from) } : {}),
        ...(to ? { to: bound(key.kind, keyword, to) } : {}),
      };
    }
    case 'int': {
      const n = /^[+-]?\d{1,10}$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
      if (!Number.isSafeInteger(n) || n > 2 ** 31 - 1 || n < -(2 ** 31)) {
        throw new QueryRefused(`${keyword}: ${shown(value)} is not an integer`);
      }
      return { key, kind: 'int', value: n };
    }
  }
}

/**
 * The query of a search at `level`, checked whole: a parameter that is neither a matching key
 * the archive applies at that level nor a control (limit, offset, includefield, fuzzymatching)
 * refuses the search, as does a value not of its key's form or a key given twice. Keys are named
 * by keyword (PatientID) or tag (00100020, either case).
 */
export function parseSearchQuery(level: Level, q: Query): SearchQuery {
  const conditions = new Map<string, Condition>();
  const warnings: string[] = [];
  const seen = new Set<string>();
  for (const [name, raw] of Object.entries(q)) {
    if (raw === undefined) continue;
    if (CONTROLS.has(name)) {
      if (name === 'fuzzymatching') {
        const v = Array.isArray(raw) ? raw.at(-1) : raw;
        if (v !== 'true' && v !== 'false') throw new QueryRefused('fuzzymatching is true or false');
        if (v === 'true') warnings.push(FUZZY_WARNING);
      }
      continue;
    }
    const key = BY_NAME.get(/^[0-9a-fA-F]{8}$/.test(name) ? name.toUpperCase() : name);
    if (!key) {
      throw new QueryRefused(`The search parameter ${shown(name)} is not supported`);
    }
    if (!LEVELS[level].includes(key.level)) {
      throw new QueryRefused(
        `${key.keyword} is an attribute of the ${key.level}, not a matching key of a ${level} search`,
      );
    }
    const values = Array.isArray(raw) ? raw : [raw];
    if (seen.has(key.keyword) || values.length > 1) {
      throw new QueryRefused(`${key.keyword} is given more than once`);
    }
    seen.add(key.keyword);
    const c = condition(key, values[0]!);
    if (c) conditions.set(key.keyword, c);
  }
  return { conditions, warnings, ...paging(q) };
}
