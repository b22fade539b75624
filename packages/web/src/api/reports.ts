import {
  callPath,
  examCalls,
  reportCalls,
  reportLibraryCalls,
  viewingCalls,
  type CreateReportTemplate,
  REPORT_VIEW_TIMEOUT_MS,
  type DiffTrace,
  type ImageDescTemplate,
  type KbItem,
  type KbTrees,
  type Report,
  type ReportAction,
  type ReportActionBody,
  type ReportImage,
  type ReportImages,
  type ReportSampleGraph,
  type ReportState,
  type ReportSync,
  type ReportTemplate,
  type ReportTraceDetail,
  type ReportTraceItem,
  type ResortKbItem,
  type SampleGraph,
  type SamplePoint,
  type UpdateReportTemplate,
  type WorklistItem,
} from '@yyp/contracts';
import { callApi } from './call';
import { apiRequest, buildUrl } from './client';
import { sessionStore } from './sessionStore';

/** The report editor's calls (spec 001 §7 "Reports"). A report's id is the id of its exam. */

const view = { timeoutMs: REPORT_VIEW_TIMEOUT_MS };
const of = (reportId: string) => ({ params: { reportId } });

export function fetchReport(reportId: string, signal?: AbortSignal): Promise<Report> {
  return callApi(reportCalls.detail, of(reportId), { ...view, signal });
}

/** Take or renew the edit lock; 409 ReportLocked when someone else holds it. */
export function lockReport(reportId: string): Promise<Report> {
  return callApi(reportCalls.lock, of(reportId));
}

export function unlockReport(reportId: string): Promise<Report> {
  return callApi(reportCalls.unlock, of(reportId));
}

export function forceUnlockReport(reportId: string): Promise<Report> {
  return callApi(reportCalls.forceUnlock, of(reportId));
}

export function resetReport(reportId: string): Promise<Report> {
  return callApi(reportCalls.reset, of(reportId));
}

/** The editor's heartbeat: renews the caller's lock and answers the current state. */
export function syncReport(reportId: string): Promise<ReportSync> {
  return callApi(reportCalls.sync, of(reportId));
}

/** POST reports/{id}/{action}: the whole report, or only its state for cancelSubmit, reject and recall. */
export function runReportAction(
  reportId: string,
  action: ReportAction,
  body: ReportActionBody,
): Promise<Report | ReportState> {
  return callApi(reportCalls[action], { params: { reportId }, body });
}

/**
 * Release the lock while the page goes away (tab closed, reloaded): a keepalive request outlives
 * the page, where an ordinary one would be cancelled. Best effort; the lock lapses anyway.
 */
export function unlockReportOnExit(reportId: string): void {
  const token = sessionStore.getAccessToken();
  void fetch(buildUrl(callPath(reportCalls.unlock, { reportId })), {
    method: reportCalls.unlock.method,
    keepalive: true,
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  }).catch(() => undefined);
}

export function fetchReportTrace(reportId: string, signal?: AbortSignal): Promise<ReportTraceItem[]> {
  return callApi(reportCalls.traces, of(reportId), { signal }).then((r) => r.traces);
}

export function fetchTraceDetail(reportId: string, traceId: string, signal?: AbortSignal): Promise<ReportTraceDetail> {
  return callApi(reportCalls.traceDetail, { params: { reportId, traceId } }, { signal });
}

export function fetchTraceDiff(reportId: string, from: string, to: string, signal?: AbortSignal): Promise<DiffTrace> {
  return callApi(reportCalls.diffTrace, { ...of(reportId), query: { from, to } }, { signal });
}

export function fetchWorklist(reportId: string, signal?: AbortSignal): Promise<WorklistItem[]> {
  return callApi(reportCalls.worklist, of(reportId), { signal }).then((r) => r.items);
}

export interface AdviceExpert {
  id: string;
  name: string;
}

export function fetchAdviceExperts(reportId: string, signal?: AbortSignal): Promise<AdviceExpert[]> {
  return callApi(reportCalls.adviceExperts, of(reportId), { signal });
}

/**
 * Key images. Listing them is shared with the viewer (api/viewer.ts fetchReportImages). Adding one
 * sends the image itself as the body, so it goes through apiRequest at the entry's path.
 */
export function addReportImage(reportId: string, image: Blob, desc?: string): Promise<ReportImage> {
  return apiRequest<ReportImage>(callPath(reportCalls.addImage, { reportId }), {
    method: reportCalls.addImage.method,
    body: image,
    query: { desc: desc || undefined },
    timeoutMs: 60_000,
  });
}

export function patchReportImage(
  reportId: string,
  imageId: string,
  change: { desc?: string; isPrinted?: boolean },
): Promise<ReportImage> {
  return callApi(reportCalls.patchImage, { params: { reportId, imageId }, body: change });
}

export function orderReportImages(reportId: string, imageIds: string[]): Promise<ReportImages> {
  return callApi(reportCalls.orderImages, { ...of(reportId), body: { imageIds } });
}

export function deleteReportImage(reportId: string, imageId: string): Promise<void> {
  return callApi(viewingCalls.removeReportImage, { params: { reportId, imageId } });
}

/* Report library (templates, phrases, image description templates) as the editor reads it. */

const library = reportLibraryCalls;

export function fetchReportTemplates(bucketId: string, signal?: AbortSignal): Promise<ReportTemplate[]> {
  return callApi(library.templates, { query: { bucketId } }, { signal });
}

export function createReportTemplate(body: CreateReportTemplate): Promise<ReportTemplate> {
  return callApi(library.createTemplate, { body });
}

export function updateReportTemplate(templateId: string, change: UpdateReportTemplate): Promise<ReportTemplate> {
  return callApi(library.updateTemplate, { params: { templateId }, body: change });
}

export function deleteReportTemplate(templateId: string): Promise<void> {
  return callApi(library.deleteTemplate, { params: { templateId } });
}

export function fetchKbTrees(bucketId: string, signal?: AbortSignal): Promise<KbTrees> {
  return callApi(library.kbQuery, { query: { bucketId } }, { signal });
}

export function fetchImageDescTemplates(bucketId: string, signal?: AbortSignal): Promise<ImageDescTemplate[]> {
  return callApi(library.descTemplates, { query: { bucketId } }, { signal });
}

/** Save a phrase in the caller's personal knowledge base. */
export function createPersonalPhrase(title: string, content: string): Promise<KbItem> {
  return callApi(library.createKbItem, { body: { type: 'personal', title, content } });
}

export function resortKbItem(kbItemId: string, body: ResortKbItem): Promise<KbItem> {
  return callApi(library.resortKbItem, { params: { kbItemId }, body });
}

/* Sample graphs: the organization's diagrams, and those placed on a report with their marks. */

export function fetchSampleGraphs(bucketId: string, signal?: AbortSignal): Promise<SampleGraph[]> {
  return callApi(library.sampleGraphs, { query: { bucketId } }, { signal });
}

/** Upload a diagram (needs manage_sample_graph): the body is the PNG or JPEG itself, sent at the entry's path. */
export function uploadSampleGraph(bucketId: string, title: string, image: Blob): Promise<SampleGraph> {
  return apiRequest<SampleGraph>(library.addSampleGraph.path, {
    method: library.addSampleGraph.method,
    body: image,
    query: { bucketId, title },
    timeoutMs: 60_000,
  });
}

export function fetchReportSampleGraphs(reportId: string, signal?: AbortSignal): Promise<ReportSampleGraph[]> {
  return callApi(reportCalls.sampleGraphs, of(reportId), { signal }).then((r) => r.graphs);
}

export function placeSampleGraph(
  reportId: string,
  sampleGraphId: string,
  points: SamplePoint[] = [],
): Promise<ReportSampleGraph[]> {
  return callApi(reportCalls.placeSampleGraph, { ...of(reportId), body: { sampleGraphId, points } }).then(
    (r) => r.graphs,
  );
}

export function patchReportSampleGraph(
  reportId: string,
  placementId: string,
  change: { points?: SamplePoint[]; isPrinted?: boolean },
): Promise<ReportSampleGraph[]> {
  return callApi(reportCalls.patchSampleGraph, { params: { reportId, placementId }, body: change }).then(
    (r) => r.graphs,
  );
}

export function removeReportSampleGraph(reportId: string, placementId: string): Promise<ReportSampleGraph[]> {
  return callApi(reportCalls.removeSampleGraph, { params: { reportId, placementId } }).then((r) => r.graphs);
}

/** Write other exams of the same patient in this report, for good (409 CoExamConflict when taken). */
export function addCoExams(reportId: string, examIds: string[]): Promise<void> {
  return callApi(examCalls.addCoExams, { params: { examId: reportId }, body: { examIds } }).then(() => undefined);
}
