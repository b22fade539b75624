import {
  REPORT_VIEW_TIMEOUT_MS,
  type PublishDetail,
  type PublishedCoExam,
  type PublishPage,
  type PublishPageQuery,
  type PublishResult,
  type PublishedPastExam,
  type SharedReport,
  type ShareLink,
  type ShareLinkCreated,
  type ShareReportRequest,
} from '@yyp/contracts';
import { apiRequest } from '../../api/client';
import { sessionStore } from '../../api/sessionStore';

/**
 * Calls of the shared report pages and of the editor's share dialog. The pages a link opens never
 * send the stored token (spec 001 §8: share/report and publishers/* are public): a visitor's own
 * session is no part of what a link shows, and a rejected token must not end it.
 */

const anonymous = { anonymous: true, timeoutMs: REPORT_VIEW_TIMEOUT_MS } as const;

/** GET share/report: the report a share or publish link opens (examId: another of its reports). */
export function fetchSharedReport(link: string, examId?: string, signal?: AbortSignal): Promise<SharedReport> {
  return apiRequest<SharedReport>('share/report', { ...anonymous, query: { link, examId }, signal });
}

/** GET web-report: the report a hospital system's signed /web link names, its query passed as sent. */
export function fetchWebReport(query: Record<string, string>, signal?: AbortSignal): Promise<SharedReport> {
  return apiRequest<SharedReport>('web-report', { ...anonymous, query, signal });
}

/** Spec 001 §8: past and co exams for anonymous viewers answer an empty list on failure. */
export function fetchCoExams(examId: string, shareLinkId: string): Promise<PublishedCoExam[]> {
  return apiRequest<PublishedCoExam[]>('publishers/find-co-exams', {
    anonymous: true,
    query: { examId, shareLinkId },
  }).catch(() => []);
}

export function fetchPastExams(examId: string, shareLinkId: string): Promise<PublishedPastExam[]> {
  return apiRequest<PublishedPastExam[]>('publishers/find-past-exams', {
    anonymous: true,
    query: { examId, shareLinkId },
  }).catch(() => []);
}

const report = (id: string) => `reports/${encodeURIComponent(id)}`;

export function createShareLink(reportId: string, body: ShareReportRequest): Promise<ShareLinkCreated> {
  return apiRequest<ShareLinkCreated>(`${report(reportId)}/share`, { method: 'POST', body });
}

export function fetchShareLinks(reportId: string, signal?: AbortSignal): Promise<ShareLink[]> {
  return apiRequest<{ links: ShareLink[] }>(`${report(reportId)}/shares`, { signal }).then((r) => r.links);
}

export function revokeShareLink(reportId: string, shareId: string): Promise<ShareLink> {
  return apiRequest<ShareLink>(`${report(reportId)}/shares/${encodeURIComponent(shareId)}/revoke`, { method: 'POST' });
}

/* ---------- publishing (signed in, order_report_publish) ---------- */

/**
 * POST orders/publish-reports. Spec 001 §8 lists this path among those the client sends no stored
 * token on; our server needs the caller (publishing is order_report_publish), so the token goes
 * with it explicitly.
 */
export function publishReports(examIds: string[]): Promise<PublishResult> {
  const token = sessionStore.getAccessToken();
  return apiRequest<PublishResult>('orders/publish-reports', {
    method: 'POST',
    body: { examIds },
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
}

export function fetchPublishPage(query: PublishPageQuery, signal?: AbortSignal): Promise<PublishPage> {
  return apiRequest<PublishPage>('report-publish/page-query', { method: 'POST', body: query, signal });
}

export function fetchPublishDetail(examId: string, reportId: string, signal?: AbortSignal): Promise<PublishDetail> {
  return apiRequest<PublishDetail>('report-publish/detail', {
    query: { examId, reportId },
    signal,
    timeoutMs: REPORT_VIEW_TIMEOUT_MS,
  });
}
