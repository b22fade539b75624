import { defineCall } from './call.js';
import { idParams } from './report-calls.js';
import {
  createImageDescTemplateSchema,
  createKbItemSchema,
  createReportTemplateSchema,
  imageDescTemplateListQuerySchema,
  imageDescTemplateListSchema,
  imageDescTemplateSchema,
  kbItemSchema,
  kbQuerySchema,
  kbTreesSchema,
  reportTemplateLayoutListSchema,
  reportTemplateLayoutQuerySchema,
  reportTemplateListQuerySchema,
  reportTemplateListSchema,
  reportTemplateSchema,
  resortKbItemSchema,
  sampleGraphListQuerySchema,
  sampleGraphListSchema,
  sampleGraphSchema,
  sampleGraphUploadQuerySchema,
  updateImageDescTemplateSchema,
  updateKbItemSchema,
  updateReportTemplateSchema,
} from './report-library.js';
import { reportViewSchema, reportViewUpdateSchema } from './report-view.js';

const templateParams = idParams('templateId');
const descTemplateParams = idParams('descTemplateId');
const kbItemParams = idParams('kbItemId');

/**
 * The report library's calls (spec 001 §7 "Reports": report-templates, report-template-layouts,
 * image-desc-templates, sample-graphs; "Knowledge base": kb-items) and the caller's report-view
 * settings: the server's routes (modules/report-library) and the web's client (api/reports.ts,
 * api/reportLibrary.ts …) are built from these.
 */
export const reportLibraryCalls = {
  templates: defineCall({
    method: 'GET',
    path: 'report-templates',
    query: reportTemplateListQuerySchema,
    answer: reportTemplateListSchema,
  }),
  createTemplate: defineCall({
    method: 'POST',
    path: 'report-templates',
    body: createReportTemplateSchema,
    answer: reportTemplateSchema,
    status: 201,
  }),
  template: defineCall({
    method: 'GET',
    path: 'report-templates/:templateId',
    params: templateParams,
    answer: reportTemplateSchema,
  }),
  updateTemplate: defineCall({
    method: 'PUT',
    path: 'report-templates/:templateId',
    params: templateParams,
    body: updateReportTemplateSchema,
    answer: reportTemplateSchema,
  }),
  deleteTemplate: defineCall({
    method: 'DELETE',
    path: 'report-templates/:templateId',
    params: templateParams,
    status: 204,
  }),
  layouts: defineCall({
    method: 'GET',
    path: 'report-template-layouts/query',
    query: reportTemplateLayoutQuerySchema,
    answer: reportTemplateLayoutListSchema,
  }),

  descTemplates: defineCall({
    method: 'GET',
    path: 'image-desc-templates/find-by-org',
    query: imageDescTemplateListQuerySchema,
    answer: imageDescTemplateListSchema,
  }),
  createDescTemplate: defineCall({
    method: 'POST',
    path: 'image-desc-templates',
    body: createImageDescTemplateSchema,
    answer: imageDescTemplateSchema,
    status: 201,
  }),
  updateDescTemplate: defineCall({
    method: 'PATCH',
    path: 'image-desc-templates/:descTemplateId',
    params: descTemplateParams,
    body: updateImageDescTemplateSchema,
    answer: imageDescTemplateSchema,
  }),
  deleteDescTemplate: defineCall({
    method: 'DELETE',
    path: 'image-desc-templates/:descTemplateId',
    params: descTemplateParams,
    status: 204,
  }),

  kbQuery: defineCall({ method: 'GET', path: 'kb-items/query', query: kbQuerySchema, answer: kbTreesSchema }),
  createKbItem: defineCall({
    method: 'POST',
    path: 'kb-items',
    body: createKbItemSchema,
    answer: kbItemSchema,
    status: 201,
  }),
  updateKbItem: defineCall({
    method: 'PATCH',
    path: 'kb-items/:kbItemId',
    params: kbItemParams,
    body: updateKbItemSchema,
    answer: kbItemSchema,
  }),
  deleteKbItem: defineCall({ method: 'DELETE', path: 'kb-items/:kbItemId', params: kbItemParams, status: 204 }),
  resortKbItem: defineCall({
    method: 'POST',
    path: 'kb-items/:kbItemId/resort',
    params: kbItemParams,
    body: resortKbItemSchema,
    answer: kbItemSchema,
  }),

  sampleGraphs: defineCall({
    method: 'GET',
    path: 'sample-graphs/query',
    query: sampleGraphListQuerySchema,
    answer: sampleGraphListSchema,
  }),
  deleteSampleGraph: defineCall({
    method: 'DELETE',
    path: 'sample-graphs/:sampleGraphId',
    params: idParams('sampleGraphId'),
    status: 204,
  }),
  /** the body is the image itself (PNG or JPEG), not JSON */
  addSampleGraph: defineCall({
    method: 'POST',
    path: 'sample-graphs/new',
    query: sampleGraphUploadQuerySchema,
    answer: sampleGraphSchema,
    status: 201,
  }),

  reportView: defineCall({ method: 'GET', path: 'report-view', answer: reportViewSchema }),
  updateReportView: defineCall({
    method: 'POST',
    path: 'report-view',
    body: reportViewUpdateSchema,
    answer: reportViewSchema,
  }),
} as const;
