import {
  API_BASE,
  VIEWER_TOKEN_HEADER,
  type ReportImage,
  type ReportImages,
  type ViewerContext,
  type ViewerPrior,
  type ViewerPriorPath,
} from '@yyp/contracts';
import { apiRequest } from './client';

/**
 * Calls of the viewer page. Every one carries the signed openpath of its study and no session
 * token, so a shared viewer works without an account and a viewer tab never signs anyone out.
 */
const as = (openpath: string) => ({ anonymous: true, headers: { [VIEWER_TOKEN_HEADER]: openpath } });

export const fetchViewerContext = (openpath: string): Promise<ViewerContext> =>
  apiRequest<ViewerContext>('viewer/context', as(openpath));

export const fetchPriors = (openpath: string): Promise<ViewerPrior[]> =>
  apiRequest<{ priors: ViewerPrior[] }>('viewer/priors', as(openpath)).then((r) => r.priors);

export const priorPath = (openpath: string, examId: string): Promise<ViewerPriorPath> =>
  apiRequest<ViewerPriorPath>(`viewer/priors/${encodeURIComponent(examId)}`, { ...as(openpath), method: 'POST' });

export const sendKeyImage = (openpath: string, image: Blob, desc?: string): Promise<ReportImage> =>
  apiRequest<ReportImage>('viewer/key-images', {
    ...as(openpath),
    method: 'POST',
    body: image,
    query: { desc },
    timeoutMs: 60_000,
  });

export const fetchReportImages = (reportId: string): Promise<ReportImages> =>
  apiRequest<ReportImages>(`reports/${encodeURIComponent(reportId)}/images`);

/** The WADO-RS root the viewer's image loader reads (the token goes in a header, not the URL). */
export const VIEWER_WADO_ROOT = `${API_BASE}viewer`;

/** WADO-RS metadata of one series (DICOM JSON), read with the openpath. */
export async function fetchSeriesMetadata(
  openpath: string,
  studyUid: string,
  seriesUid: string,
): Promise<Record<string, unknown>[]> {
  return apiRequest<Record<string, unknown>[]>(
    `viewer/studies/${encodeURIComponent(studyUid)}/series/${encodeURIComponent(seriesUid)}/metadata`,
    { ...as(openpath), timeoutMs: 60_000 },
  );
}
