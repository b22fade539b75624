import { defineCall } from './call.js';
import {
  addExpertBucketSchema,
  applyFormByCodeSchema,
  applyFormSchema,
  applyFormsSchema,
  applyFormUploadSchema,
  applyRequestSchema,
  billingSourcesSchema,
  cancelOrderSchema,
  deleteApplyFormsSchema,
  examIdQuerySchema,
  expertBucketsSchema,
  orderDetailQuerySchema,
  orderDetailSchema,
  orderSchema,
  ordersExportSchema,
  ordersPageParamsSchema,
  ordersPageQuerySchema,
  ordersPageSchema,
  productInputSchema,
  productSchema,
  productsQuerySchema,
  productsSchema,
  productUpdateSchema,
  remoteReportSchema,
} from './order.js';
import { idParams } from './report-calls.js';

const orderParams = idParams('id');
const groupParams = idParams('groupId');

/**
 * Orders for remote and expert reads (spec 001 §7 "Charging, requests and payments": products,
 * request/apply*, request/remote-report, request/{id}/cancel-remote, detail and delete, orders/*;
 * groups' expert-buckets, billing-sources and rads). The server's routes are in
 * modules/orders/orders.routes.ts. request/{id} paid-confirm, pre-paid-order and payment-status and
 * charge/* are the payments' (payment-calls.ts); orders/publish-reports is report-sharing's.
 */
export const orderCalls = {
  products: defineCall({ method: 'GET', path: 'products', query: productsQuerySchema, answer: productsSchema }),
  addProduct: defineCall({
    method: 'POST',
    path: 'products',
    body: productInputSchema,
    answer: productSchema,
    status: 201,
  }),
  updateProduct: defineCall({
    method: 'PUT',
    path: 'products/:id',
    params: orderParams,
    body: productUpdateSchema,
    answer: productSchema,
  }),
  deleteProduct: defineCall({ method: 'DELETE', path: 'products/:id', params: orderParams, status: 204 }),

  expertBuckets: defineCall({
    method: 'GET',
    path: 'groups/:groupId/expert-buckets',
    params: groupParams,
    answer: expertBucketsSchema,
  }),
  addExpertBucket: defineCall({
    method: 'POST',
    path: 'groups/:groupId/expert-buckets',
    params: groupParams,
    body: addExpertBucketSchema,
    answer: expertBucketsSchema,
  }),
  deleteExpertBucket: defineCall({
    method: 'DELETE',
    path: 'groups/:groupId/expert-buckets/:bucketId',
    params: idParams('groupId', 'bucketId'),
    answer: expertBucketsSchema,
  }),
  billingSources: defineCall({
    method: 'GET',
    path: 'groups/:groupId/billing-sources',
    params: groupParams,
    answer: billingSourcesSchema,
  }),
  rads: defineCall({ method: 'GET', path: 'groups/:groupId/rads', params: groupParams, answer: billingSourcesSchema }),

  apply: defineCall({
    method: 'POST',
    path: 'request/apply',
    body: applyRequestSchema,
    answer: orderSchema,
    status: 201,
  }),
  applyRemote: defineCall({
    method: 'POST',
    path: 'request/apply-remote-report',
    body: applyRequestSchema,
    answer: orderSchema,
    status: 201,
  }),
  remoteReport: defineCall({
    method: 'GET',
    path: 'request/remote-report',
    query: examIdQuerySchema,
    answer: remoteReportSchema,
  }),
  cancelRemote: defineCall({
    method: 'POST',
    path: 'request/:id/cancel-remote',
    params: orderParams,
    body: cancelOrderSchema,
    answer: orderSchema,
  }),
  requestDetail: defineCall({ method: 'GET', path: 'request/:id/detail', params: orderParams, answer: orderSchema }),
  deleteRequest: defineCall({ method: 'DELETE', path: 'request/:id/delete', params: orderParams, status: 204 }),

  pageQuery: defineCall({
    method: 'POST',
    path: 'orders/page-query',
    query: ordersPageParamsSchema,
    body: ordersPageQuerySchema,
    answer: ordersPageSchema,
  }),
  /** the list's orders with its filters as .xlsx (binary answer; at most 1,000) */
  exportExcel: defineCall({
    method: 'POST',
    path: 'orders/export-excel',
    query: ordersPageParamsSchema,
    body: ordersExportSchema,
  }),
  detail: defineCall({
    method: 'GET',
    path: 'orders/detail',
    query: orderDetailQuerySchema,
    answer: orderDetailSchema,
  }),
  uploadApplyForms: defineCall({
    method: 'POST',
    path: 'orders/:id/upload-applyforms',
    params: orderParams,
    body: applyFormUploadSchema,
    answer: applyFormsSchema,
  }),
  deleteApplyForms: defineCall({
    method: 'POST',
    path: 'orders/:id/applyforms/delete',
    params: orderParams,
    body: deleteApplyFormsSchema,
    answer: applyFormsSchema,
  }),
  /** public: the exam's form code is the credential; answers the file recorded (no list to a stranger) */
  uploadApplyFormsByCode: defineCall({
    method: 'POST',
    path: 'orders/upload-applyforms-by-code',
    body: applyFormByCodeSchema,
    answer: applyFormSchema,
  }),
  applyForms: defineCall({
    method: 'GET',
    path: 'orders/:id/applyforms',
    params: orderParams,
    answer: applyFormsSchema,
  }),
} as const;

export type OrderCalls = typeof orderCalls;
