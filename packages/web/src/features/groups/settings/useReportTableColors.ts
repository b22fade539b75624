import { useQuery } from '@tanstack/react-query';
import { REPORT_TABLE_COLOR_FIELDS, type ReportTableColorField } from '@yyp/contracts';
import { isApiError } from '../../../api/errors';
import { fetchReportTableColors } from '../../../api/reportSafety';

export const reportTableColorsKey = (groupId: string) => ['groups', groupId, 'report-table-colors'] as const;

/** The group's report table colours, lower priority first (as the server orders them). */
export function useReportTableColors(groupId: string) {
  return useQuery({
    queryKey: reportTableColorsKey(groupId),
    queryFn: ({ signal }) => fetchReportTableColors(groupId, signal),
  });
}

export function isReportColorField(field: string): field is ReportTableColorField {
  return (REPORT_TABLE_COLOR_FIELDS as readonly string[]).includes(field);
}

/** The form fields a ValidationError's issues name (paths like "body.value"), to mark them in the form. */
export function invalidBodyFields(error: unknown): string[] {
  if (!isApiError(error) || error.code !== 'ValidationError') {
    return [];
  }
  const issues = (error.details as { issues?: { path?: unknown }[] } | null)?.issues ?? [];
  const fields = issues
    .map((i) => (typeof i.path === 'string' ? /^body\.(\w+)/.exec(i.path)?.[1] : undefined))
    .filter((f): f is string => f !== undefined);
  return [...new Set(fields)];
}
