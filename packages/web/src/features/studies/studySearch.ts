import type { ExamFilter, QuickSearch, QuickSearchCriteria, StudyDatePreset } from '@yyp/contracts';
import { quickSearchFilters, studyDateRange } from '@yyp/contracts';

/**
 * The study list's search state and the filters of POST exams/page-query it stands for. Pure, so
 * the rules are tested without a browser.
 */

export type TriState = 'true' | 'false' | undefined;

/** Fields of the advanced search drawer; empty ones filter nothing. */
export interface AdvancedSearch {
  patientName?: string;
  patientId?: string;
  accessionNumber?: string;
  bodyPart?: string;
  studyDesc?: string;
  applyDept?: string;
  orderPlacer?: string;
  /** YYYY-MM-DD */
  createdFrom?: string;
  createdTo?: string;
  ageFrom?: number | null;
  ageTo?: number | null;
  bucketIds?: string[];
  genders?: string[];
  sources?: string[];
  reportStatuses?: string[];
  /** an account id, or 'none' for unassigned */
  assignees?: string[];
  tagIds?: string[];
  uploadStatus?: string;
  urgentFlag?: TriState;
  teleMedFlag?: TriState;
  printed?: TriState;
  critical?: TriState;
  hasImage?: TriState;
}

export interface StudySearch {
  /** the quick search tab, or null for all exams */
  quickId: string | null;
  /** patient name (or pinyin initials), patient ID or accession number */
  keyword: string;
  modalities: string[];
  /** YYYYMMDD from and to; null: no study date filter (or the tab's) */
  studyDate: [string, string] | null;
  advanced: AdvancedSearch;
}

export const EMPTY_SEARCH: StudySearch = { quickId: null, keyword: '', modalities: [], studyDate: null, advanced: {} };

const text = (field: ExamFilter['field'], value: string | undefined, operator: 'contains' | 'prefix' = 'contains') =>
  value?.trim() ? [{ field, operator, values: [value.trim()] } as ExamFilter] : [];
const list = (field: ExamFilter['field'], values: string[] | undefined) =>
  values?.length ? [{ field, operator: values.length === 1 ? 'eq' : 'in', values } as ExamFilter] : [];
const flag = (field: ExamFilter['field'], value: TriState) =>
  value ? [{ field, operator: 'eq', values: [value] } as ExamFilter] : [];
const range = (
  field: ExamFilter['field'],
  from: string | number | null | undefined,
  to: string | number | null | undefined,
) => {
  const a = from === null || from === undefined ? '' : String(from);
  const b = to === null || to === undefined ? '' : String(to);
  return a || b ? [{ field, operator: 'range', values: [a, b] } as ExamFilter] : [];
};

/** The filters of the search bar and the advanced drawer (not the quick search tab's). */
export function ownFilters(s: StudySearch): ExamFilter[] {
  const a = s.advanced;
  return [
    ...text('keyword', s.keyword),
    ...list('modality', s.modalities),
    ...(s.studyDate ? range('studyDate', s.studyDate[0], s.studyDate[1]) : []),
    ...text('patientName', a.patientName),
    ...text('patientId', a.patientId, 'prefix'),
    ...text('accessionNumber', a.accessionNumber, 'prefix'),
    ...text('bodyPart', a.bodyPart),
    ...text('studyDesc', a.studyDesc),
    ...text('applyDept', a.applyDept),
    ...text('orderPlacer', a.orderPlacer),
    ...range('created', a.createdFrom, a.createdTo),
    ...range('age', a.ageFrom, a.ageTo),
    ...list('bucketId', a.bucketIds),
    ...list('patientGender', a.genders),
    ...list('patientSource', a.sources),
    ...list('reportStatus', a.reportStatuses),
    ...list('assigneeId', a.assignees),
    ...list('tagId', a.tagIds),
    ...(a.uploadStatus ? list('uploadStatus', [a.uploadStatus]) : []),
    ...flag('urgentFlag', a.urgentFlag),
    ...flag('teleMedFlag', a.teleMedFlag),
    ...flag('printed', a.printed),
    ...flag('critical', a.critical),
    ...flag('hasImage', a.hasImage),
  ];
}

/**
 * Every filter of the list: the quick search tab's (its study date unless the user picked dates
 * of their own), then the user's own.
 */
export function searchFilters(s: StudySearch, quick: QuickSearch | undefined, today: Date): ExamFilter[] {
  const fromTab = quick ? quickSearchFilters(quick.criteria, today) : [];
  const tab = s.studyDate ? fromTab.filter((f) => f.field !== 'studyDate') : fromTab;
  return [...tab, ...ownFilters(s)];
}

/** How many advanced fields are set (the badge on the advanced search button). */
export function advancedCount(a: AdvancedSearch): number {
  return ownFilters({ ...EMPTY_SEARCH, advanced: a }).length;
}

/**
 * The criteria saved as a new quick search from what is on screen: the chosen date preset (or the
 * dates picked, as custom), the tab's other filters and the user's own.
 */
export function criteriaFromSearch(
  s: StudySearch,
  quick: QuickSearch | undefined,
  preset: StudyDatePreset,
  today: Date,
): QuickSearchCriteria {
  const dates = s.studyDate ?? (quick ? studyDateRange(quick.criteria.studyDate, today) : ['', '']);
  const studyDate =
    preset === 'custom'
      ? { preset, ...(dates[0] ? { from: dates[0] } : {}), ...(dates[1] ? { to: dates[1] } : {}) }
      : { preset };
  const tabFilters = quick?.criteria.filters ?? [];
  const own = ownFilters({ ...s, studyDate: null });
  return { studyDate, filters: [...tabFilters, ...own], sorts: quick?.criteria.sorts ?? [] };
}
