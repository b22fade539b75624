import {
  REPORT_VIEW_TIMEOUT_MS,
  reportSharingCalls as calls,
  type PublishDetail,
  type PublishedCoExam,
  type PublishPage,
  type PublishPageQuery,
  type PublishResult,
  type PublishedPastExam,
  type SharedReport,
  type ShareLink,
  type ShareLinkCreated,
  type CallQuery,
  type ShareReportRequest,
} from '@yyp/contracts';
import { callApi } from '../../api/call';
import { sessionStore } from '../../api/sessionStore';

/**
 * Calls of the shared report pages and of the editor's share dialog. The pages a link opens never
 * send the stored token (spec 001 §8: share/report and publishers/* are public): a visitor's own
 * session is no part of what a link shows, and a rejected token must not end it.
 */

const anonymous = { anonymous: true, timeoutMs: REPORT_VIEW_TIMEOUT_MS } as const;

/** GET share/report: the report a share or publish link opens (examId: another of its reports). */
export function fetchSharedReport(link: string, examId?: string, signal?: AbortSignal): Promise<SharedReport> {
  return callApi(calls.sharedReport, { query: { link, examId } }, { ...anonymous, signal });
}

/** GET web-report: the report a hospital system's signed /web link names, its query passed as sent (unchecked). */
export function fetchWebReport(query: Record<string, string>, signal?: AbortSignal): Promise<SharedReport> {
  return callApi(calls.webReport, { query: query as CallQuery<typeof calls.webReport> }, { ...anonymous, signal });
}

/** Spec 001 §8: past and co exams for anonymous viewers answer an empty list on failure. */
export function fetchCoExams(examId: string, shareLinkId: string): Promise<PublishedCoExam[]> {
  return callApi(calls.coExams, { query: { examId, shareLinkId } }, { anonymous: true }).catch(() => []);
}

export function fetchPastExams(examId: string, shareLinkId: string): Promise<PublishedPastExam[]> {
  return callApi(calls.pastExams, { query: { examId, shareLinkId } }, { anonymous: true }).catch(() => []);
}

const of = (reportId: string) => ({ params: { reportId } });

export function createShareLink(reportId: string, body: ShareReportRequest): Promise<ShareLinkCreated> {
  return callApi(calls.share, { ...of(reportId), body });
}

export function fetchShareLinks(reportId: string, signal?: AbortSignal): Promise<ShareLink[]> {
  return callApi(calls.shares, of(reportId), { signal }).then((r) => r.links);
}

export function revokeShareLink(reportId: string, shareId: string): Promise<ShareLink> {
  return callApi(calls.revokeShare, { params: { reportId, shareId } });
}

/* ---------- publishing (signed in, order_report_publish) ---------- */

/**
 * POST orders/publish-reports. Spec 001 §8 lists this path among those the client sends no stored
 * token on: the body carries its own token (publishing is order_report_publish, so the server
 * needs the caller).
 */
export function publishReports(examIds: string[]): Promise<PublishResult> {
  const token = sessionStore.getAccessToken();
  return callApi(calls.publish, { body: { examIds, ...(token ? { token } : {}) } });
}

export function fetchPublishPage(query: PublishPageQuery, signal?: AbortSignal): Promise<PublishPage> {
  return callApi(calls.publishPage, { body: query }, { signal });
}

export function fetchPublishDetail(examId: string, reportId: string, signal?: AbortSignal): Promise<PublishDetail> {
  return callApi(calls.publishDetail, { query: { examId, reportId } }, { signal, timeoutMs: REPORT_VIEW_TIMEOUT_MS });
}
