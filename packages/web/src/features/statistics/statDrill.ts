import type { ExamFilter, StatDimension, StatKind, StatQueryInput, StatRow, StatTable } from '@yyp/contracts';
import type { StudiesDrill } from '../../shared/links/studyLinks';

/** The dimensions of each statistic whose rows drill into the study list (issue 26). */
const DRILLS: Partial<Record<StatKind, readonly StatDimension[]>> = {
  report: ['doctor', 'modality'],
  'report-positive': ['doctor', 'modality', 'bodyPart'],
};

/** Whether a statistic grouped by this dimension drills from its rows. */
export function drills(kind: StatKind, by: StatDimension): boolean {
  return DRILLS[kind]?.includes(by) ?? false;
}

/** The rows whose doctor's reports the statistics' own list (report-detail, by doctor) shows. */
export function drillsToDoctor(kind: StatKind, by: StatDimension): boolean {
  return by === 'doctor' && drills(kind, by);
}

/**
 * A row's exams as the study list's filters (the row of no doctor, modality, … drills nowhere):
 * reports approved within the statistic's hospital days, in the organizations it counted, of the
 * modality it was asked for; then the row: a doctor as the reports' writer (the workload counts a
 * report under its writer, the drawer of old opened on those written), a modality (with a detailed
 * workload's modality of a doctor's row), or a body part; the positive rate keeps positive reports.
 */
export function drillOf(
  kind: StatKind,
  table: Pick<StatTable, 'from' | 'to' | 'by' | 'buckets'>,
  query: Pick<StatQueryInput, 'modality'>,
  row: StatRow,
): StudiesDrill | null {
  if (!drills(kind, table.by) || !row.key) return null;
  const filters: ExamFilter[] = [
    { field: 'reportApproved', operator: 'range', values: [table.from, table.to] },
    { field: 'bucketId', operator: 'in', values: table.buckets.map((b) => b.id) },
  ];
  const modality = table.by === 'modality' ? row.key : (row.sub ?? query.modality);
  if (table.by === 'doctor') filters.unshift({ field: 'reportWriterId', operator: 'eq', values: [row.key] });
  if (table.by === 'bodyPart') filters.push({ field: 'bodyPart', operator: 'eq', values: [row.key] });
  if (modality) filters.push({ field: 'modality', operator: 'eq', values: [modality] });
  if (kind === 'report-positive') filters.push({ field: 'reportPositive', operator: 'eq', values: ['true'] });
  if (table.buckets.length === 0) return null;
  return { filters, from: row.label || row.key };
}
