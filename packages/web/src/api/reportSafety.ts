import {
  reportSafetyCalls as calls,
  type CriticalValue,
  type CriticalValueList,
  type CriticalValueStats,
  type HandleCriticalValueBody,
  type QualityPage,
  type QualityPageBody,
  type QualityUpsertBody,
  type ReceiveCriticalValueBody,
  type ReportComment,
  type ReportCommentBody,
  type ReportComments,
  type ReportCriticalValueBody,
  type ReportQuality,
  type ReportQualityAnswer,
  type ReportRating,
  type ReportRatingBody,
  type ReportRatings,
  type ReportTableColor,
  type ReportTableColorBody,
} from '@yyp/contracts';
import { callApi } from './call';

/**
 * Clinical safety around a report (spec 001 §7 "Reports": critical-value, quality, rating,
 * comment; report-table-color; statistics critical-value), from contracts reportSafetyCalls. A
 * report's id is its exam's id.
 */

const of = (reportId: string) => ({ params: { reportId } });

/* ---------- critical values ---------- */

export function fetchCriticalValues(reportId: string, signal?: AbortSignal): Promise<CriticalValueList> {
  return callApi(calls.criticals, of(reportId), { signal });
}

export function reportCriticalValue(reportId: string, body: ReportCriticalValueBody): Promise<CriticalValue> {
  return callApi(calls.reportCritical, { ...of(reportId), body });
}

export function receiveCriticalValue(
  reportId: string,
  criticalId: string,
  body: ReceiveCriticalValueBody,
): Promise<CriticalValue> {
  return callApi(calls.receiveCritical, { params: { reportId, criticalId }, body });
}

export function handleCriticalValue(
  reportId: string,
  criticalId: string,
  body: HandleCriticalValueBody,
): Promise<CriticalValue> {
  return callApi(calls.handleCritical, { params: { reportId, criticalId }, body });
}

export function fetchCriticalValueStats(
  query: { bucketId: string; from: string; to: string },
  signal?: AbortSignal,
): Promise<CriticalValueStats> {
  return callApi(calls.criticalStats, { query }, { signal });
}

/* ---------- quality ---------- */

export function fetchReportQuality(reportId: string, signal?: AbortSignal): Promise<ReportQualityAnswer> {
  return callApi(calls.quality, of(reportId), { signal });
}

export function saveReportQuality(reportId: string, body: QualityUpsertBody): Promise<ReportQuality> {
  return callApi(calls.saveQuality, { ...of(reportId), body });
}

export function deleteReportQuality(reportId: string): Promise<void> {
  return callApi(calls.deleteQuality, of(reportId));
}

/** A page of graded reports of one organization, or of every one where the caller reviews quality. */
export function queryQuality(
  bucketId: string | undefined,
  body: QualityPageBody,
  signal?: AbortSignal,
): Promise<QualityPage> {
  return callApi(calls.qualityPage, { query: { bucketId }, body }, { signal });
}

/* ---------- ratings and comments ---------- */

export function fetchReportRatings(reportId: string, signal?: AbortSignal): Promise<ReportRatings> {
  return callApi(calls.ratings, of(reportId), { signal });
}

export function rateReport(reportId: string, body: ReportRatingBody): Promise<ReportRating> {
  return callApi(calls.rate, { ...of(reportId), body });
}

export function fetchReportComments(reportId: string, signal?: AbortSignal): Promise<ReportComments> {
  return callApi(calls.comments, of(reportId), { signal });
}

export function commentReport(reportId: string, body: ReportCommentBody): Promise<ReportComment> {
  return callApi(calls.comment, { ...of(reportId), body });
}

export function deleteReportComment(reportId: string, commentId: string): Promise<void> {
  return callApi(calls.deleteComment, { params: { reportId, commentId } });
}

/* ---------- report table colours ---------- */

export function fetchReportTableColors(groupId: string, signal?: AbortSignal): Promise<{ items: ReportTableColor[] }> {
  return callApi(calls.tableColors, { query: { groupId } }, { signal });
}

export function addReportTableColor(groupId: string, body: ReportTableColorBody): Promise<ReportTableColor> {
  return callApi(calls.addTableColor, { query: { groupId }, body });
}

export function updateReportTableColor(colorId: string, body: ReportTableColorBody): Promise<ReportTableColor> {
  return callApi(calls.updateTableColor, { params: { colorId }, body });
}

export function deleteReportTableColor(colorId: string): Promise<void> {
  return callApi(calls.deleteTableColor, { params: { colorId } });
}
