import {
  API_BASE,
  callPath,
  VIEWER_TOKEN_HEADER,
  viewingCalls,
  type ReportImage,
  type ReportImages,
  type ViewerContext,
  type ViewerPrior,
  type ViewerPriorPath,
} from '@yyp/contracts';
import { callApi } from './call';
import { apiRequest } from './client';

/**
 * Calls of the viewer page (viewingCalls). Every one carries the signed openpath of its study and
 * no session token, so a shared viewer works without an account and a viewer tab never signs anyone out.
 */
const as = (openpath: string) => ({ anonymous: true, headers: { [VIEWER_TOKEN_HEADER]: openpath } });

export const fetchViewerContext = (openpath: string): Promise<ViewerContext> =>
  callApi(viewingCalls.context, {}, as(openpath));

export const fetchPriors = (openpath: string): Promise<ViewerPrior[]> =>
  callApi(viewingCalls.priors, {}, as(openpath)).then((r) => r.priors);

export const priorPath = (openpath: string, examId: string): Promise<ViewerPriorPath> =>
  callApi(viewingCalls.priorPath, { params: { examId } }, as(openpath));

/** The body is the image itself, not JSON, so it goes through apiRequest at the entry's path. */
export const sendKeyImage = (openpath: string, image: Blob, desc?: string): Promise<ReportImage> =>
  apiRequest<ReportImage>(callPath(viewingCalls.keyImage, {}), {
    ...as(openpath),
    method: viewingCalls.keyImage.method,
    body: image,
    query: { desc },
    timeoutMs: 60_000,
  });

export const fetchReportImages = (reportId: string): Promise<ReportImages> =>
  callApi(viewingCalls.reportImages, { params: { reportId } });

/** The WADO-RS root the viewer's image loader reads (the token goes in a header, not the URL). */
export const VIEWER_WADO_ROOT = `${API_BASE}viewer`;

/** WADO-RS metadata of one series (DICOM JSON, which the entry leaves unchecked), read with the openpath. */
export function fetchSeriesMetadata(
  openpath: string,
  studyUid: string,
  seriesUid: string,
): Promise<Record<string, unknown>[]> {
  const path = callPath(viewingCalls.seriesMetadata, { study: studyUid, series: seriesUid });
  return apiRequest<Record<string, unknown>[]>(path, { ...as(openpath), timeoutMs: 60_000 });
}
