import { z } from 'zod';
import { UPLOAD_STATUSES } from './archive.js';

/**
 * The study list (spec 000 §2, §5, §9; spec 001 §7 "Exams"): POST exams/page-query,
 * exams/query/count and exams/deleted-query take the same body. Filter and sort fields come from
 * closed lists, and each filter field accepts only the operators listed for it, so the server
 * never sees a field name it did not define.
 */

/** Largest page the list answers; a larger `limit` is capped to it (the UI pages by 20). */
export const EXAM_QUERY_MAX_LIMIT = 200;
export const EXAM_FILTER_OPERATORS = ['eq', 'in', 'contains', 'prefix', 'range'] as const;
export type ExamFilterOperator = (typeof EXAM_FILTER_OPERATORS)[number];

/** Patient gender codes of spec 000 §3. */
export const PATIENT_GENDERS = ['M', 'F', 'O', 'U'] as const;
/** Patient source codes of spec 000 §3: inpatient, outpatient, emergency, physical exam, night clinic. */
export const PATIENT_SOURCES = ['I', 'O', 'E', 'P', 'NO'] as const;
export type PatientSource = (typeof PATIENT_SOURCES)[number];
/** Report status values of spec 000 §4 ('none' until a report exists). */
export const REPORT_STATUSES = [
  'none',
  'locked',
  'partial',
  'final',
  'hold',
  'cancelled',
  'advised',
  'printed',
  'corrected',
  'preliminary',
] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];
/** AI task status of an exam: '' none, queued (job waiting), sent (the AI service took it), done, failed. */
export const AI_STATUSES = ['', 'queued', 'sent', 'done', 'failed'] as const;
export type AiStatus = (typeof AI_STATUSES)[number];

export const EXAM_FILTER_FIELDS = [
  /** free text: patient name (or its pinyin initials), patient id or accession number */
  'keyword',
  'patientName',
  'patientId',
  'accessionNumber',
  /** one modality of the study's ModalitiesInStudy list (CT matches CT\SR) */
  'modality',
  'bodyPart',
  'studyDesc',
  /** YYYYMMDD (YYYY-MM-DD is accepted) */
  'studyDate',
  /** ISO 8601 instant; a bare date is a UTC day (a `to` date includes that whole day) */
  'created',
  /** whole years at the study date */
  'age',
  'bucketId',
  'patientGender',
  'uploadStatus',
  /** 'true' or 'false' */
  'hasImage',
  'patientSource',
  'applyDept',
  'orderPlacer',
  /** 'true' or 'false' */
  'urgentFlag',
  'teleMedFlag',
  'printed',
  'critical',
  'reportStatus',
  /** an account id, or 'none' for unassigned exams */
  'assigneeId',
  /** an item of the organization's tags dictionary */
  'tagId',
  /**
   * The report source (spec 000 §6; issue 24), one of REPORT_SOURCE_VALUES: '0' all, '1' the
   * organization's own exams, '2' the remote copies an expert read brought in (exams.source 'remote').
   */
  'reportSource',
  /** the report's writer (reports.creator_id): an account id */
  'reportWriterId',
  /** the report's approver (reports.approver_id): an account id */
  'reportApproverId',
  /**
   * An approved report's approval time (status corrected or printed, as the statistics count it):
   * ISO 8601 instants, or bare dates as hospital days (UTC+8; a `to` date includes that whole day)
   */
  'reportApproved',
  /** the report content's positive flag, 'true' or 'false' (a report without the flag matches neither) */
  'reportPositive',
] as const;
export type ExamFilterField = (typeof EXAM_FILTER_FIELDS)[number];

const TEXT_OPERATORS = ['eq', 'in', 'contains', 'prefix'] as const;
/** Which operators each filter field takes. */
export const examFilterOperators: Record<ExamFilterField, readonly ExamFilterOperator[]> = {
  keyword: ['contains', 'prefix'],
  patientName: TEXT_OPERATORS,
  patientId: TEXT_OPERATORS,
  accessionNumber: TEXT_OPERATORS,
  modality: ['eq', 'in'],
  bodyPart: TEXT_OPERATORS,
  studyDesc: ['contains', 'prefix'],
  studyDate: ['eq', 'in', 'range'],
  created: ['range'],
  age: ['eq', 'range'],
  bucketId: ['eq', 'in'],
  patientGender: ['eq', 'in'],
  uploadStatus: ['eq', 'in'],
  hasImage: ['eq'],
  patientSource: ['eq', 'in'],
  applyDept: TEXT_OPERATORS,
  orderPlacer: TEXT_OPERATORS,
  urgentFlag: ['eq'],
  teleMedFlag: ['eq'],
  printed: ['eq'],
  critical: ['eq'],
  reportStatus: ['eq', 'in'],
  assigneeId: ['eq', 'in'],
  tagId: ['eq', 'in'],
  reportSource: ['eq'],
  reportWriterId: ['eq', 'in'],
  reportApproverId: ['eq', 'in'],
  reportApproved: ['range'],
  reportPositive: ['eq'],
};

/** The report-source filter's values (REPORT_SOURCE of permissions.ts as text): '0' all, '1' own reports, '2' remote. */
export const REPORT_SOURCE_VALUES = ['0', '1', '2'] as const;
export type ReportSourceValue = (typeof REPORT_SOURCE_VALUES)[number];

export const EXAM_SORT_FIELDS = [
  'created',
  'studyDate',
  'patientName',
  'patientId',
  'accessionNumber',
  'modality',
  'bodyPart',
  'instanceCount',
  'patientGender',
  'bucketName',
  'urgentFlag',
  'reportStatus',
  'assigneeName',
  /** the deleted-exams view's default */
  'deletedTime',
] as const;
export type ExamSortField = (typeof EXAM_SORT_FIELDS)[number];

const MAX_FILTER_VALUES = 100;
const filterValue = z.union([z.string().max(128), z.number(), z.boolean()]).transform((v) => String(v).trim());

export const examFilterSchema = z.object({
  field: z.enum(EXAM_FILTER_FIELDS, {
    error: (issue) => `Unknown filter field ${JSON.stringify(issue.input)}`,
  }),
  values: z.array(filterValue).max(MAX_FILTER_VALUES),
  operator: z.enum(EXAM_FILTER_OPERATORS, {
    error: (issue) => `Unknown filter operator ${JSON.stringify(issue.input)}`,
  }),
});
export type ExamFilter = z.infer<typeof examFilterSchema>;

export const examSortSchema = z.object({
  field: z.enum(EXAM_SORT_FIELDS, { error: (issue) => `Unknown sort field ${JSON.stringify(issue.input)}` }),
  direction: z.enum(['asc', 'desc']).default('desc'),
});
export type ExamSort = z.infer<typeof examSortSchema>;

const DATE_RE = /^(\d{4})-?(\d{2})-?(\d{2})$/;
const validDate = (v: string) => {
  const m = DATE_RE.exec(v);
  if (!m) {
    return false;
  }
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
};
const validInstant = (v: string) => validDate(v) || (/^\d{4}-\d{2}-\d{2}T/.test(v) && !Number.isNaN(Date.parse(v)));
const validAge = (v: string) => /^\d{1,3}$/.test(v);

const booleanValue = { ok: (v: string) => v === 'true' || v === 'false', expected: 'true or false' };

/** What one value of a field must look like ('' is allowed only as an open end of a range). */
const valueCheck: Partial<Record<ExamFilterField, { ok: (v: string) => boolean; expected: string }>> = {
  studyDate: { ok: validDate, expected: 'a date YYYYMMDD' },
  created: { ok: validInstant, expected: 'an ISO 8601 date or time' },
  reportApproved: { ok: validInstant, expected: 'an ISO 8601 date or time' },
  reportPositive: booleanValue,
  age: { ok: validAge, expected: 'whole years 0–999' },
  patientGender: {
    ok: (v) => (PATIENT_GENDERS as readonly string[]).includes(v.toUpperCase()),
    expected: 'M, F, O or U',
  },
  uploadStatus: {
    ok: (v) => (UPLOAD_STATUSES as readonly string[]).includes(v),
    expected: UPLOAD_STATUSES.join(' or '),
  },
  hasImage: booleanValue,
  urgentFlag: booleanValue,
  teleMedFlag: booleanValue,
  printed: booleanValue,
  critical: booleanValue,
  patientSource: {
    ok: (v) => (PATIENT_SOURCES as readonly string[]).includes(v.toUpperCase()),
    expected: PATIENT_SOURCES.join(', '),
  },
  reportStatus: {
    ok: (v) => (REPORT_STATUSES as readonly string[]).includes(v),
    expected: 'a report status',
  },
  reportSource: {
    ok: (v) => (REPORT_SOURCE_VALUES as readonly string[]).includes(v),
    expected: '0 (all), 1 (own reports) or 2 (remote reports)',
  },
};

/**
 * The problem with one filter, or null: the operator must be one its field takes, with one value
 * (eq, contains, prefix), one or more (in) or two, [from, to], either of which may be empty (range).
 */
export function examFilterProblem(f: ExamFilter): string | null {
  const allowed = examFilterOperators[f.field];
  if (!allowed.includes(f.operator)) {
    return `Filter field ${f.field} takes the operators ${allowed.join(', ')}, not ${f.operator}`;
  }
  const check = valueCheck[f.field];
  switch (f.operator) {
    case 'eq':
    case 'contains':
    case 'prefix':
      if (f.values.length !== 1 || f.values[0] === '') {
        return `Filter ${f.field} ${f.operator} takes one non-empty value`;
      }
      break;
    case 'in':
      if (f.values.length === 0 || f.values.some((v) => v === '')) {
        return `Filter ${f.field} in takes one or more non-empty values`;
      }
      break;
    case 'range':
      if (f.values.length !== 2 || (f.values[0] === '' && f.values[1] === '')) {
        return `Filter ${f.field} range takes two values [from, to]; one of them may be empty`;
      }
      break;
  }
  if (check) {
    const bad = f.values.find((v) => v !== '' && !check.ok(v));
    if (bad !== undefined) {
      return `Filter ${f.field}: ${JSON.stringify(bad)} is not ${check.expected}`;
    }
  }
  return null;
}

/**
 * POST exams/page-query (and query/count, deleted-query). `skip` below 0 counts as 0; a `limit`
 * that is missing or not positive falls back to 50 (spec 000 §5), one above 200 is capped; without
 * sorts the list is newest first (created descending), ties broken by id.
 */
export const examQuerySchema = z
  .object({
    filters: z.array(examFilterSchema).max(30).default([]),
    skip: z.number().optional(),
    limit: z.number().optional(),
    sorts: z.array(examSortSchema).max(5).default([]),
  })
  .superRefine((body, ctx) => {
    body.filters.forEach((f, i) => {
      const problem = examFilterProblem(f);
      if (problem) {
        ctx.addIssue({ code: 'custom', path: ['filters', i], message: problem });
      }
    });
  });
export type ExamQuery = z.input<typeof examQuerySchema>;

/** A tag on an exam, with the colour its organization gave it. */
export const examTagSchema = z.object({ id: z.string(), name: z.string(), color: z.string().nullable() });
export type ExamTag = z.infer<typeof examTagSchema>;

/** One row of the study list; private fields are masked when `masked` is true. */
/** A report table colour as a list paints the report status with it ('' keeps the default). */
export const reportColorSchema = z.object({ color: z.string(), background: z.string() });
export type ReportColor = z.infer<typeof reportColorSchema>;

/** The study's fields of an exam, as the study list and the printed report show them. */
export const examStudyFields = {
  accessionNumber: z.string(),
  modality: z.string(),
  bodyPart: z.string(),
  studyDate: z.string(),
  studyTime: z.string(),
  studyDesc: z.string(),
};

export const examItemSchema = z.object({
  id: z.string(),
  storeUid: z.string(),
  bucketId: z.string(),
  bucketName: z.string(),
  patientName: z.string(),
  patientId: z.string(),
  patientGender: z.string(),
  /** YYYYMMDD; empty when masked (the age still shows) */
  patientDob: z.string(),
  /** at the study date, as DICOM AS: 045Y, 006M, 003W, 005D; null when unknown */
  age: z.string().nullable(),
  ...examStudyFields,
  created: z.string(),
  hasImage: z.boolean(),
  uploadStatus: z.enum(UPLOAD_STATUSES),
  /** films printed */
  printed: z.boolean(),
  seriesCount: z.number().int(),
  instanceCount: z.number().int(),
  /** patient source code (I, O, E, P, NO) or '' */
  patientSource: z.string(),
  applyDept: z.string(),
  orderPlacer: z.string(),
  urgentFlag: z.boolean(),
  teleMedFlag: z.boolean(),
  /** confidential: private fields are masked for callers without view_privacy, whatever the group flag */
  isPrivacy: z.boolean(),
  /** a critical value was reported */
  critical: z.boolean(),
  reportStatus: z.enum(REPORT_STATUSES),
  assigneeId: z.string().nullable(),
  assigneeName: z.string().nullable(),
  aiStatus: z.enum(AI_STATUSES),
  tags: z.array(examTagSchema),
  /** the first matching colour rule of the exam's group, or null */
  rowColor: z.object({ foreColor: z.string(), backgroundColor: z.string() }).nullable(),
  /** the report status cell's colours: the first matching report table colour of the exam's group, or null */
  reportColor: reportColorSchema.nullable(),
  /** patient name, patient id, accession number and birth date are masked (contracts privateFieldsMasked) */
  masked: z.boolean(),
  /** set in the deleted-exams view */
  deletedTime: z.string().nullable(),
  /** the last moment it can be recovered (deleted time + 30 days), in the deleted-exams view */
  recoverableUntil: z.string().nullable(),
  /**
   * A remote or expert read was applied for (spec 000 §3 exam targetBucketId, isRemoteReportRequested;
   * issue 24): the expert organization of its live order. Absent when none.
   */
  targetBucketId: z.string().optional(),
  isRemoteReportRequested: z.boolean().optional(),
});
export type ExamItem = z.infer<typeof examItemSchema>;

export const examPageSchema = z.object({ exams: z.array(examItemSchema), count: z.number().int() });
export type ExamPage = z.infer<typeof examPageSchema>;
export const examCountSchema = z.object({ count: z.number().int() });

/** POST exams/newly (the 30 s new-exam poll): exams created within 7 days, after `since` if given, newest 5. */
export const NEWLY_DAYS = 7;
export const NEWLY_LIMIT = 5;
export const examsNewlySchema = z.object({ since: z.iso.datetime({ offset: true }).optional() }).strict();

/**
 * DELETE exams/{id}/delete answers this; the exam shows in the deleted-exams view until it is
 * recovered (POST reports/{id}/recovery) or purged 30 days (RECOVERY_DAYS) after deletion.
 */
export const examDeletedSchema = z.object({
  id: z.string(),
  deletedTime: z.string(),
  recoverableUntil: z.string(),
});
export type ExamDeleted = z.infer<typeof examDeletedSchema>;

/** POST exams/{id}/past and past/count: the patient's other exams, 15 to a page (spec 000 §9). */
export const PAST_EXAMS_PAGE = 15;
export const pastExamsQuerySchema = z.object({ skip: z.number().optional(), limit: z.number().optional() }).strict();

/** POST exams/modify-print-status: mark studies' films printed or not (exam_update in each one's organization). */
export const MAX_PRINT_STATUS_STUDIES = 100;
export const modifyPrintStatusSchema = z
  .object({
    storeUids: z.array(z.string().min(1).max(64)).min(1).max(MAX_PRINT_STATUS_STUDIES),
    printed: z.boolean(),
  })
  .strict();
export const modifyPrintStatusResultSchema = z.object({ updated: z.number().int() });
