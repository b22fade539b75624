import {
  API_BASE,
  VIEWER_TOKEN_HEADER,
  viewerObjectCalls as calls,
  type ImageAnnotation,
  type SrDocument,
  type ViewerDocumentLink,
  type ViewerObjects,
} from '@yyp/contracts';
import { callApi } from '../../api/call';

/**
 * The viewer's calls for objects other than images (contracts viewerObjectCalls), each with the
 * study's signed openpath in its header, as the viewer's other calls (api/viewer.ts).
 */
const as = (openpath: string) => ({ anonymous: true, headers: { [VIEWER_TOKEN_HEADER]: openpath } });

export interface InstanceRef {
  studyUid: string;
  seriesUid: string;
  sopUid: string;
}
const params = (i: InstanceRef) => ({ study: i.studyUid, series: i.seriesUid, instance: i.sopUid });

export const fetchViewerObjects = (openpath: string): Promise<ViewerObjects> =>
  callApi(calls.objects, {}, as(openpath));

export const fetchViewerAnnotations = (openpath: string): Promise<ImageAnnotation[]> =>
  callApi(calls.annotations, {}, as(openpath)).then((a) => a.annotations);

export const fetchSrDocument = (openpath: string, i: InstanceRef): Promise<SrDocument> =>
  callApi(calls.srDocument, { params: params(i) }, as(openpath));

/** A short-lived link a frame reads the encapsulated PDF from (an absolute path of this origin). */
export const fetchDocumentLink = async (openpath: string, i: InstanceRef): Promise<ViewerDocumentLink> => {
  const link = await callApi(calls.documentLink, { params: params(i) }, as(openpath));
  return { ...link, url: `${API_BASE}${link.url}` };
};
