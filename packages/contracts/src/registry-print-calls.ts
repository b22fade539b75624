import { z } from 'zod';
import { defineCall } from './call.js';
import {
  labelsRequestSchema,
  orderTemplateInputSchema,
  orderTemplateSchema,
  referralFormsRequestSchema,
} from './registry-print.js';

const bucketParams = z.object({ bucketId: z.string() });

/**
 * The front desk's printing (spec 001 §7 "Registry" orders/labels, "Buckets" order-template;
 * issue 22). The server's routes (modules/registry-print/registry-print.routes.ts) and the web's
 * client (api/registryPrint.ts) are built from these.
 */
export const registryPrintCalls = {
  /** answered with the PDF itself (application/pdf): 80×50 mm labels with the accession number's barcode */
  labels: defineCall({ method: 'POST', path: 'orders/labels', body: labelsRequestSchema }),
  /** answered with the PDF itself: the referral forms, exams of one organization and one day only */
  referralForms: defineCall({ method: 'POST', path: 'orders/referral-forms', body: referralFormsRequestSchema }),
  orderTemplate: defineCall({
    method: 'GET',
    path: 'buckets/:bucketId/order-template',
    params: bucketParams,
    answer: orderTemplateSchema,
  }),
  saveOrderTemplate: defineCall({
    method: 'PUT',
    path: 'buckets/:bucketId/order-template',
    params: bucketParams,
    body: orderTemplateInputSchema,
    answer: orderTemplateSchema,
  }),
} as const;
