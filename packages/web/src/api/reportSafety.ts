import type {
  CriticalValue,
  CriticalValueList,
  CriticalValueStats,
  HandleCriticalValueBody,
  QualityPage,
  QualityPageBody,
  QualityUpsertBody,
  ReceiveCriticalValueBody,
  ReportComment,
  ReportCommentBody,
  ReportComments,
  ReportCriticalValueBody,
  ReportQuality,
  ReportQualityAnswer,
  ReportRating,
  ReportRatingBody,
  ReportRatings,
  ReportTableColor,
  ReportTableColorBody,
} from '@yyp/contracts';
import { apiRequest } from './client';

/**
 * Clinical safety around a report (spec 001 §7 "Reports": critical-value, quality, rating,
 * comment; report-table-color; statistics critical-value). A report's id is its exam's id.
 */

const report = (id: string) => `reports/${encodeURIComponent(id)}`;
const critical = (reportId: string, criticalId: string) =>
  `${report(reportId)}/critical-values/${encodeURIComponent(criticalId)}`;

/* ---------- critical values ---------- */

export function fetchCriticalValues(reportId: string, signal?: AbortSignal): Promise<CriticalValueList> {
  return apiRequest<CriticalValueList>(`${report(reportId)}/critical-values`, { signal });
}

export function reportCriticalValue(reportId: string, body: ReportCriticalValueBody): Promise<CriticalValue> {
  return apiRequest<CriticalValue>(`${report(reportId)}/critical-value`, { method: 'POST', body });
}

export function receiveCriticalValue(
  reportId: string,
  criticalId: string,
  body: ReceiveCriticalValueBody,
): Promise<CriticalValue> {
  return apiRequest<CriticalValue>(`${critical(reportId, criticalId)}/receive`, { method: 'POST', body });
}

export function handleCriticalValue(
  reportId: string,
  criticalId: string,
  body: HandleCriticalValueBody,
): Promise<CriticalValue> {
  return apiRequest<CriticalValue>(`${critical(reportId, criticalId)}/handle`, { method: 'POST', body });
}

export function fetchCriticalValueStats(
  query: { bucketId: string; from: string; to: string },
  signal?: AbortSignal,
): Promise<CriticalValueStats> {
  return apiRequest<CriticalValueStats>('statistics/critical-value', { query, signal });
}

/* ---------- quality ---------- */

export function fetchReportQuality(reportId: string, signal?: AbortSignal): Promise<ReportQualityAnswer> {
  return apiRequest<ReportQualityAnswer>(`${report(reportId)}/quality`, { signal });
}

export function saveReportQuality(reportId: string, body: QualityUpsertBody): Promise<ReportQuality> {
  return apiRequest<ReportQuality>(`${report(reportId)}/quality`, { method: 'POST', body });
}

export function deleteReportQuality(reportId: string): Promise<void> {
  return apiRequest<void>(`${report(reportId)}/quality`, { method: 'DELETE' });
}

/** A page of graded reports of one organization, or of every one where the caller reviews quality. */
export function queryQuality(
  bucketId: string | undefined,
  body: QualityPageBody,
  signal?: AbortSignal,
): Promise<QualityPage> {
  return apiRequest<QualityPage>('quality/page-query', { method: 'POST', query: { bucketId }, body, signal });
}

/* ---------- ratings and comments ---------- */

export function fetchReportRatings(reportId: string, signal?: AbortSignal): Promise<ReportRatings> {
  return apiRequest<ReportRatings>(`${report(reportId)}/ratings`, { signal });
}

export function rateReport(reportId: string, body: ReportRatingBody): Promise<ReportRating> {
  return apiRequest<ReportRating>(`${report(reportId)}/rating`, { method: 'POST', body });
}

export function fetchReportComments(reportId: string, signal?: AbortSignal): Promise<ReportComments> {
  return apiRequest<ReportComments>(`${report(reportId)}/comments`, { signal });
}

export function commentReport(reportId: string, body: ReportCommentBody): Promise<ReportComment> {
  return apiRequest<ReportComment>(`${report(reportId)}/comment`, { method: 'POST', body });
}

export function deleteReportComment(reportId: string, commentId: string): Promise<void> {
  return apiRequest<void>(`${report(reportId)}/comments/${encodeURIComponent(commentId)}`, { method: 'DELETE' });
}

/* ---------- report table colours ---------- */

export function fetchReportTableColors(groupId: string, signal?: AbortSignal): Promise<{ items: ReportTableColor[] }> {
  return apiRequest<{ items: ReportTableColor[] }>('report-table-color', { query: { groupId }, signal });
}

export function addReportTableColor(groupId: string, body: ReportTableColorBody): Promise<ReportTableColor> {
  return apiRequest<ReportTableColor>('report-table-color', { method: 'POST', query: { groupId }, body });
}

export function updateReportTableColor(colorId: string, body: ReportTableColorBody): Promise<ReportTableColor> {
  return apiRequest<ReportTableColor>(`report-table-color/${encodeURIComponent(colorId)}`, { method: 'PUT', body });
}

export function deleteReportTableColor(colorId: string): Promise<void> {
  return apiRequest<void>(`report-table-color/${encodeURIComponent(colorId)}`, { method: 'DELETE' });
}
