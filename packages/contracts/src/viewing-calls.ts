import { z } from 'zod';
import { defineCall } from './call.js';
import {
  keyImageQuerySchema,
  reportImageSchema,
  reportImagesSchema,
  viewerContextSchema,
  viewerPriorPathSchema,
  viewerPriorsSchema,
} from './viewer.js';

const uid = z.string();
const series = z.object({ study: uid, series: uid });
const instance = series.extend({ instance: uid });
const id = z.string().max(64);
const imageParams = z.object({ reportId: id, imageId: id });

/**
 * The viewer's calls (spec 000 §2 /viewer/{openpath}), public at the HTTP level: the signed openpath
 * in the x-yyp-viewer header is the credential. The WADO-RS calls answer DICOM JSON or multipart
 * bytes, so they have no answer schema; their path parameters are DICOM UIDs (and frame numbers,
 * checked by the route). Also the report's key images, read and removed by signed-in users.
 * Server: modules/viewing/viewing.routes.ts; web: api/viewer.ts.
 */
export const viewingCalls = {
  context: defineCall({ method: 'GET', path: 'viewer/context', answer: viewerContextSchema }),
  studyMetadata: defineCall({
    method: 'GET',
    path: 'viewer/studies/:study/metadata',
    params: z.object({ study: uid }),
  }),
  seriesMetadata: defineCall({ method: 'GET', path: 'viewer/studies/:study/series/:series/metadata', params: series }),
  frames: defineCall({
    method: 'GET',
    path: 'viewer/studies/:study/series/:series/instances/:instance/frames/:frames',
    params: instance.extend({ frames: z.string() }),
  }),
  bulkData: defineCall({
    method: 'GET',
    path: 'viewer/studies/:study/series/:series/instances/:instance/bulkdata/:tag',
    params: instance.extend({ tag: z.string() }),
  }),
  priors: defineCall({ method: 'GET', path: 'viewer/priors', answer: viewerPriorsSchema }),
  priorPath: defineCall({
    method: 'POST',
    path: 'viewer/priors/:examId',
    params: z.object({ examId: id }),
    answer: viewerPriorPathSchema,
  }),
  /** the body is the image itself (PNG or JPEG), not JSON */
  keyImage: defineCall({
    method: 'POST',
    path: 'viewer/key-images',
    query: keyImageQuerySchema,
    answer: reportImageSchema,
    status: 201,
  }),
  reportImages: defineCall({
    method: 'GET',
    path: 'reports/:reportId/images',
    params: z.object({ reportId: id }),
    answer: reportImagesSchema,
  }),
  removeReportImage: defineCall({
    method: 'DELETE',
    path: 'reports/:reportId/images/:imageId',
    params: imageParams,
    status: 204,
  }),
} as const;
