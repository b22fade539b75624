import { hospitalDayStart, type ExamFilter } from '@yyp/contracts';
import { and, inArray, sql, type SQL } from 'drizzle-orm';
import { exams, reports } from '../../db/schema.js';
import { APPROVED_STATUSES } from '../reports/index.js';

/**
 * The study list's filters on an exam's report (issue 26: a statistic's drill-down lands on the
 * list with them): writer, approver, approval time and the positive flag. A report's id is its
 * exam's, so each is an EXISTS on the report of the row (its primary key); an exam without a report
 * matches none of them. Lists without these filters are planned as before.
 */

const DAY_RE = /^(\d{4})-?(\d{2})-?(\d{2})$/;
/** A bare date as the start of that hospital day (UTC+8); `end` makes it the start of the next one. */
function hospitalInstant(v: string, end: boolean): Date {
  const m = DAY_RE.exec(v);
  if (!m) return new Date(v);
  const start = hospitalDayStart(`${m[1]}-${m[2]}-${m[3]}`).getTime();
  return new Date(end ? start + 86_400_000 : start);
}

const ofReport = (condition: SQL | undefined) =>
  sql`exists (select 1 from ${reports} where ${reports.id} = ${exams.id} and ${condition})`;

export type ReportFilterField = 'reportWriterId' | 'reportApproverId' | 'reportApproved' | 'reportPositive';

/** One report filter (already checked against the contract) as SQL. */
export function reportFilterSql(f: ExamFilter & { field: ReportFilterField }): SQL {
  const values = f.operator === 'in' || f.operator === 'range' ? f.values : [f.values[0] ?? ''];
  switch (f.field) {
    case 'reportWriterId':
      return ofReport(inArray(reports.creatorId, values));
    case 'reportApproverId':
      return ofReport(inArray(reports.approverId, values));
    case 'reportApproved': {
      const [from, to] = [values[0] ?? '', values[1] ?? ''];
      return ofReport(
        and(
          inArray(reports.status, [...APPROVED_STATUSES]),
          sql`${reports.approvedAt} is not null`,
          from ? sql`${reports.approvedAt} >= ${hospitalInstant(from, false).toISOString()}::timestamptz` : undefined,
          to ? sql`${reports.approvedAt} < ${hospitalInstant(to, true).toISOString()}::timestamptz` : undefined,
        ),
      );
    }
    case 'reportPositive':
      return ofReport(
        sql`jsonb_typeof(${reports.content} -> 'positive') = 'boolean'
          and (${reports.content} ->> 'positive')::boolean = ${values[0] === 'true' ? sql`true` : sql`false`}`,
      );
  }
}
