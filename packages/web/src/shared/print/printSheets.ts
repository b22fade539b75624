import { PRINT_SHEETS_MAX, type ExamItem, type ReportStatus } from '@yyp/contracts';
import { isApiError } from '../../api/errors';

/** Helpers of printing sheets (several exams' reports printed as one document) that need no React. */

/** An approved report (corrected) or one already printed: what printing sheets prints. */
export const PRINTABLE_STATUSES: readonly ReportStatus[] = ['corrected', 'printed'];

export const PRINT_SHEETS_PATH = '/studies/print-sheets';

/** The print document of these exams' reports. */
export function printSheetsPath(examIds: readonly string[]): string {
  return `${PRINT_SHEETS_PATH}?${new URLSearchParams({ examIds: examIds.join(',') }).toString()}`;
}

/** The exam ids a print-sheets address names, without blanks and repeats, in their order. */
export function sheetExamIds(search: URLSearchParams): string[] {
  const ids = (search.get('examIds') ?? '')
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean);
  return [...new Set(ids)];
}

/** The selected exams split into those that print (approved report, report_print there) and the rest. */
export function splitPrintable(
  exams: readonly ExamItem[],
  canPrint: (bucketId: string) => boolean,
): { printable: ExamItem[]; notApproved: ExamItem[]; notAllowed: ExamItem[] } {
  const out = { printable: [] as ExamItem[], notApproved: [] as ExamItem[], notAllowed: [] as ExamItem[] };
  for (const e of exams) {
    if (!canPrint(e.bucketId)) {
      out.notAllowed.push(e);
    } else if (!PRINTABLE_STATUSES.includes(e.reportStatus)) {
      out.notApproved.push(e);
    } else {
      out.printable.push(e);
    }
  }
  return out;
}

export const tooManySheets = (examIds: readonly string[]) => examIds.length > PRINT_SHEETS_MAX;

/** Why the server would not merge the exams, with the exams grouped by what differs (day or organization). */
export interface SheetsRefusal {
  problem: 'notSameDay' | 'differentOrganizations';
  /** by day (YYYYMMDD) or by organization id, each group's exams in the order asked */
  groups: { key: string; examIds: string[] }[];
}

/** The refusal in a print-sheets error (ValidationError notSameDay / differentOrganizations), else null. */
export function sheetsRefusal(error: unknown, examIds: readonly string[]): SheetsRefusal | null {
  if (!isApiError(error) || error.code !== 'ValidationError') {
    return null;
  }
  const details = (error.details ?? {}) as { problem?: unknown; days?: unknown; organizations?: unknown };
  const problem = details.problem;
  if (problem !== 'notSameDay' && problem !== 'differentOrganizations') {
    return null;
  }
  const by = (problem === 'notSameDay' ? details.days : details.organizations) ?? {};
  const keyOf = by as Record<string, unknown>;
  const groups = new Map<string, string[]>();
  for (const id of examIds) {
    const key = typeof keyOf[id] === 'string' ? keyOf[id] : '';
    groups.set(key, [...(groups.get(key) ?? []), id]);
  }
  return { problem, groups: [...groups].map(([key, ids]) => ({ key, examIds: ids })) };
}
