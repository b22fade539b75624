import { defineCall } from './call.js';
import { idParams } from './report-calls.js';
import {
  printSheetsSchema,
  printTemplateAnswerSchema,
  printTemplateInputSchema,
  printTimeSchema,
  printViewSchema,
  reportPdfQuerySchema,
} from './report-print.js';

const params = idParams('reportId');

/**
 * Report printing and the report PDF (spec 000 §3, §5, §6; spec 001 §7 update-print-time, §8): the
 * server's routes (modules/report-print/report-print.routes.ts) and the web's client
 * (features/reports/print/printApi.ts) are built from these.
 */
export const reportPrintCalls = {
  template: defineCall({
    method: 'GET',
    path: 'buckets/:bucketId/print-template',
    params: idParams('bucketId'),
    answer: printTemplateAnswerSchema,
  }),
  saveTemplate: defineCall({
    method: 'PUT',
    path: 'buckets/:bucketId/print-template',
    params: idParams('bucketId'),
    body: printTemplateInputSchema,
    answer: printTemplateAnswerSchema,
  }),
  printView: defineCall({ method: 'GET', path: 'reports/:reportId/print-view', params, answer: printViewSchema }),
  updatePrintTime: defineCall({
    method: 'POST',
    path: 'reports/:reportId/update-print-time',
    params,
    answer: printTimeSchema,
  }),
  /** answered with the PDF file itself (application/pdf, as an attachment) */
  pdf: defineCall({ method: 'GET', path: 'reports/:reportId/pdf', params, query: reportPdfQuerySchema }),
  printSheets: defineCall({
    method: 'POST',
    path: 'reports/print-sheets',
    body: printSheetsSchema,
    answer: printViewSchema,
  }),
} as const;
