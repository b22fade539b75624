import { EMPTY_REPORT_CONTENT, type Report, type ReportAction, type ReportState } from '@yyp/contracts';
import type { ReportRow } from '../../db/schema.js';
import type { ReportFacts } from './report-machine.js';
import type { ReportOrigin } from './report-hooks.js';

/** What the answer of a report is made of, read by ReportsService.present. */
export interface ReportView {
  reportId: string;
  bucketId: string;
  callerId: string;
  row: ReportRow | undefined;
  facts: ReportFacts;
  transitions: ReportAction[];
  names: Map<string, string>;
  coExams: string[];
  combinable: Report['combinable'];
  /** when the live lock lapses (null without one) */
  lockExpires: Date | null;
  canTrace: boolean;
  canForceUnlock: boolean;
  /** a remote read's organizations (report-hooks.ts), null for the organization's own report */
  origin?: ReportOrigin | null;
}

/** The report as the API answers it (status none and empty content before anyone wrote). */
export function presentReport(v: ReportView): Report {
  const { row, facts, names } = v;
  const person = (id: string | null | undefined) => (id ? { id, name: names.get(id) ?? '' } : null);
  return {
    id: v.reportId,
    examId: v.reportId,
    bucketId: v.bucketId,
    status: facts.status,
    transitions: v.transitions,
    creator: person(row?.creatorId),
    lastUpdater: person(row?.lastUpdaterId),
    issuer: person(row?.issuerId),
    approver: person(row?.approverId),
    noteTaker: person(row?.noteTakerId),
    rejectReason: row?.rejectReason ?? '',
    recallReason: row?.recallReason ?? '',
    version: row?.version ?? 0,
    content: row?.content ?? EMPTY_REPORT_CONTENT,
    lock:
      facts.lockedBy && row?.lockedAt && v.lockExpires
        ? {
            lockedBy: { id: facts.lockedBy, name: names.get(facts.lockedBy) ?? '' },
            since: row.lockedAt.toISOString(),
            expires: v.lockExpires.toISOString(),
            mine: facts.lockedBy === v.callerId,
          }
        : null,
    adviceExperts: (row?.adviceExpertIds ?? []).map((id) => ({ id, name: names.get(id) ?? '' })),
    savedAt: row?.savedAt?.toISOString() ?? null,
    submittedAt: row?.submittedAt?.toISOString() ?? null,
    approvedAt: row?.approvedAt?.toISOString() ?? null,
    sourceBucketId: v.origin?.sourceBucketId ?? null,
    originBucketId: v.origin?.originBucketId ?? null,
    printApprovedAt: row?.printApprovedAt?.toISOString() ?? null,
    examIds: [v.reportId, ...v.coExams],
    autoCheckCombineReport: v.combinable.length > 0,
    combinable: v.combinable,
    canTrace: v.canTrace,
    canForceUnlock: v.canForceUnlock,
  };
}

/** The state fields alone (the answer of cancelSubmit, reject and recall; spec 000 §4). */
export function stateOf(report: Report): ReportState {
  const { id, status, transitions, creator, lastUpdater, issuer, rejectReason, recallReason } = report;
  return { id, status, transitions, creator, lastUpdater, issuer, rejectReason, recallReason };
}
