import {
  REPORT_ACTION_PATHS,
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
import { apiRequest, buildUrl } from './client';
import { sessionStore } from './sessionStore';

/** The report editor's calls (spec 001 §7 "Reports"). A report's id is the id of its exam. */

const report = (id: string) => `reports/${encodeURIComponent(id)}`;
const view = { timeoutMs: REPORT_VIEW_TIMEOUT_MS };

export function fetchReport(reportId: string, signal?: AbortSignal): Promise<Report> {
  return apiRequest<Report>(`${report(reportId)}/detail`, { ...view, signal });
}

/** Take or renew the edit lock; 409 ReportLocked when someone else holds it. */
export function lockReport(reportId: string): Promise<Report> {
  return apiRequest<Report>(`${report(reportId)}/lock`, { method: 'POST' });
}

export function unlockReport(reportId: string): Promise<Report> {
  return apiRequest<Report>(`${report(reportId)}/unlock`, { method: 'POST' });
}

export function forceUnlockReport(reportId: string): Promise<Report> {
  return apiRequest<Report>(`${report(reportId)}/force-unlock`, { method: 'POST' });
}

export function resetReport(reportId: string): Promise<Report> {
  return apiRequest<Report>(`${report(reportId)}/reset`, { method: 'POST' });
}

/** The editor's heartbeat: renews the caller's lock and answers the current state. */
export function syncReport(reportId: string): Promise<ReportSync> {
  return apiRequest<ReportSync>(`${report(reportId)}/sync`, { method: 'POST' });
}

/** POST reports/{id}/{action}: the whole report, or only its state for cancelSubmit, reject and recall. */
export function runReportAction(
  reportId: string,
  action: ReportAction,
  body: ReportActionBody,
): Promise<Report | ReportState> {
  return apiRequest<Report | ReportState>(`${report(reportId)}/${REPORT_ACTION_PATHS[action]}`, {
    method: 'POST',
    body,
  });
}

/**
 * Release the lock while the page goes away (tab closed, reloaded): a keepalive request outlives
 * the page, where an ordinary one would be cancelled. Best effort; the lock lapses anyway.
 */
export function unlockReportOnExit(reportId: string): void {
  const token = sessionStore.getAccessToken();
  void fetch(buildUrl(`${report(reportId)}/unlock`), {
    method: 'POST',
    keepalive: true,
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  }).catch(() => undefined);
}

export function fetchReportTrace(reportId: string, signal?: AbortSignal): Promise<ReportTraceItem[]> {
  return apiRequest<{ traces: ReportTraceItem[] }>(`${report(reportId)}/report-trace`, { signal }).then(
    (r) => r.traces,
  );
}

export function fetchTraceDetail(reportId: string, traceId: string, signal?: AbortSignal): Promise<ReportTraceDetail> {
  return apiRequest<ReportTraceDetail>(`${report(reportId)}/traces/${encodeURIComponent(traceId)}`, { signal });
}

export function fetchTraceDiff(reportId: string, from: string, to: string, signal?: AbortSignal): Promise<DiffTrace> {
  return apiRequest<DiffTrace>(`${report(reportId)}/diff-trace`, { query: { from, to }, signal });
}

export function fetchWorklist(reportId: string, signal?: AbortSignal): Promise<WorklistItem[]> {
  return apiRequest<{ items: WorklistItem[] }>(`${report(reportId)}/worklist`, { signal }).then((r) => r.items);
}

export interface AdviceExpert {
  id: string;
  name: string;
}

export function fetchAdviceExperts(reportId: string, signal?: AbortSignal): Promise<AdviceExpert[]> {
  return apiRequest<AdviceExpert[]>(`${report(reportId)}/advice-experts`, { signal });
}

/** Key images. Listing them is shared with the viewer (api/viewer.ts fetchReportImages). */
export function addReportImage(reportId: string, image: Blob, desc?: string): Promise<ReportImage> {
  return apiRequest<ReportImage>(`${report(reportId)}/images`, {
    method: 'POST',
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
  return apiRequest<ReportImage>(`${report(reportId)}/images/${encodeURIComponent(imageId)}`, {
    method: 'PATCH',
    body: change,
  });
}

export function orderReportImages(reportId: string, imageIds: string[]): Promise<ReportImages> {
  return apiRequest<ReportImages>(`${report(reportId)}/image-order`, { method: 'POST', body: { imageIds } });
}

export function deleteReportImage(reportId: string, imageId: string): Promise<void> {
  return apiRequest<void>(`${report(reportId)}/images/${encodeURIComponent(imageId)}`, { method: 'DELETE' });
}

/* Report library (templates, phrases, image description templates) as the editor reads it. */

export function fetchReportTemplates(bucketId: string, signal?: AbortSignal): Promise<ReportTemplate[]> {
  return apiRequest<ReportTemplate[]>('report-templates', { query: { bucketId }, signal });
}

export function createReportTemplate(body: CreateReportTemplate): Promise<ReportTemplate> {
  return apiRequest<ReportTemplate>('report-templates', { method: 'POST', body });
}

export function updateReportTemplate(templateId: string, change: UpdateReportTemplate): Promise<ReportTemplate> {
  return apiRequest<ReportTemplate>(`report-templates/${encodeURIComponent(templateId)}`, {
    method: 'PUT',
    body: change,
  });
}

export function deleteReportTemplate(templateId: string): Promise<void> {
  return apiRequest<void>(`report-templates/${encodeURIComponent(templateId)}`, { method: 'DELETE' });
}

export function fetchKbTrees(bucketId: string, signal?: AbortSignal): Promise<KbTrees> {
  return apiRequest<KbTrees>('kb-items/query', { query: { bucketId }, signal });
}

export function fetchImageDescTemplates(bucketId: string, signal?: AbortSignal): Promise<ImageDescTemplate[]> {
  return apiRequest<ImageDescTemplate[]>('image-desc-templates/find-by-org', { query: { bucketId }, signal });
}

/** Save a phrase in the caller's personal knowledge base. */
export function createPersonalPhrase(title: string, content: string): Promise<KbItem> {
  return apiRequest<KbItem>('kb-items', { method: 'POST', body: { type: 'personal', title, content } });
}

export function resortKbItem(itemId: string, body: ResortKbItem): Promise<KbItem> {
  return apiRequest<KbItem>(`kb-items/${encodeURIComponent(itemId)}/resort`, { method: 'POST', body });
}

/* Sample graphs: the organization's diagrams, and those placed on a report with their marks. */

export function fetchSampleGraphs(bucketId: string, signal?: AbortSignal): Promise<SampleGraph[]> {
  return apiRequest<SampleGraph[]>('sample-graphs/query', { query: { bucketId }, signal });
}

/** Upload a diagram (needs manage_sample_graph): the body is the PNG or JPEG itself. */
export function uploadSampleGraph(bucketId: string, title: string, image: Blob): Promise<SampleGraph> {
  return apiRequest<SampleGraph>('sample-graphs/new', {
    method: 'POST',
    body: image,
    query: { bucketId, title },
    timeoutMs: 60_000,
  });
}

export function fetchReportSampleGraphs(reportId: string, signal?: AbortSignal): Promise<ReportSampleGraph[]> {
  return apiRequest<{ graphs: ReportSampleGraph[] }>(`${report(reportId)}/sample-graphs`, { signal }).then(
    (r) => r.graphs,
  );
}

export function placeSampleGraph(
  reportId: string,
  sampleGraphId: string,
  points: SamplePoint[] = [],
): Promise<ReportSampleGraph[]> {
  return apiRequest<{ graphs: ReportSampleGraph[] }>(`${report(reportId)}/sample-graphs`, {
    method: 'POST',
    body: { sampleGraphId, points },
  }).then((r) => r.graphs);
}

export function patchReportSampleGraph(
  reportId: string,
  placementId: string,
  change: { points?: SamplePoint[]; isPrinted?: boolean },
): Promise<ReportSampleGraph[]> {
  return apiRequest<{ graphs: ReportSampleGraph[] }>(
    `${report(reportId)}/sample-graphs/${encodeURIComponent(placementId)}`,
    { method: 'PATCH', body: change },
  ).then((r) => r.graphs);
}

export function removeReportSampleGraph(reportId: string, placementId: string): Promise<ReportSampleGraph[]> {
  return apiRequest<{ graphs: ReportSampleGraph[] }>(
    `${report(reportId)}/sample-graphs/${encodeURIComponent(placementId)}`,
    { method: 'DELETE' },
  ).then((r) => r.graphs);
}

/** Write other exams of the same patient in this report, for good (409 CoExamConflict when taken). */
export function addCoExams(reportId: string, examIds: string[]): Promise<void> {
  return apiRequest<unknown>(`${report(reportId)}/co-exams/add`, { method: 'POST', body: { examIds } }).then(
    () => undefined,
  );
}
