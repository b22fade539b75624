import type {
  ApplyForm,
  ApplyRequest,
  ExpertBucket,
  Order,
  OrderDetail,
  OrdersExport,
  OrdersPage,
  OrdersPageQuery,
  Product,
  ProductType,
  ProductInput,
  ProductUpdate,
} from '@yyp/contracts';
import { orderCalls } from '@yyp/contracts';
import { callApi } from './call';

/** Orders for remote and expert reads (issue 24; contracts order-calls.ts). */

export function fetchExpertBuckets(groupId: string, signal?: AbortSignal): Promise<ExpertBucket[]> {
  return callApi(orderCalls.expertBuckets, { params: { groupId } }, { signal });
}

export function fetchProducts(bucketId: string, signal?: AbortSignal, type: ProductType = 1): Promise<Product[]> {
  return callApi(orderCalls.products, { query: { bucketId, type } }, { signal });
}

export function addProduct(body: ProductInput): Promise<Product> {
  return callApi(orderCalls.addProduct, { body });
}

export function updateProduct(id: string, body: ProductUpdate): Promise<Product> {
  return callApi(orderCalls.updateProduct, { params: { id }, body });
}

export function deleteProduct(id: string): Promise<void> {
  return callApi(orderCalls.deleteProduct, { params: { id } }) as Promise<void>;
}

/** request/apply (an expert read) or request/apply-remote-report (the remote read). */
export function applyForReport(type: 'expert' | 'remote', body: ApplyRequest): Promise<Order> {
  return callApi(type === 'remote' ? orderCalls.applyRemote : orderCalls.apply, { body });
}

export function fetchRemoteReport(examId: string, signal?: AbortSignal): Promise<{ order: Order | null }> {
  return callApi(orderCalls.remoteReport, { query: { examId } }, { signal });
}

export function fetchRequestDetail(id: string, signal?: AbortSignal): Promise<Order> {
  return callApi(orderCalls.requestDetail, { params: { id } }, { signal });
}

export function cancelRequest(id: string, reason: string, version?: number): Promise<Order> {
  return callApi(orderCalls.cancelRemote, { params: { id }, body: { reason, version } });
}

export function deleteRequest(id: string): Promise<void> {
  return callApi(orderCalls.deleteRequest, { params: { id } }) as Promise<void>;
}

/** orders/page-query: one side's list (the requesting organization's, or the experts' received orders). */
export function queryOrders(
  side: { requestBucketId: string } | { targetBucketId: string },
  body: OrdersPageQuery,
  signal?: AbortSignal,
): Promise<OrdersPage> {
  return callApi(orderCalls.pageQuery, { query: side, body }, { signal });
}

/** orders/export-excel: one side's list with its filters as .xlsx (at most 1,000: ExportLimitExceeded beyond). */
export function exportOrders(
  side: { requestBucketId: string } | { targetBucketId: string },
  body: OrdersExport,
): Promise<Blob> {
  return callApi(
    orderCalls.exportExcel,
    { query: side, body },
    { as: 'blob', timeoutMs: 120_000 },
  ) as Promise<unknown> as Promise<Blob>;
}

export function fetchOrderDetail(orderId: string, signal?: AbortSignal): Promise<OrderDetail> {
  return callApi(orderCalls.detail, { query: { orderId } }, { signal });
}

export function fetchApplyForms(id: string, signal?: AbortSignal): Promise<ApplyForm[]> {
  return callApi(orderCalls.applyForms, { params: { id } }, { signal });
}

export function deleteApplyForms(id: string, ids: string[]): Promise<ApplyForm[]> {
  return callApi(orderCalls.deleteApplyForms, { params: { id }, body: { ids } });
}

/** Records on the order an apply form uploaded with GET policies/forms (its key). */
export function recordApplyForm(
  id: string,
  body: { key: string; name: string; contentType?: string },
): Promise<ApplyForm[]> {
  return callApi(orderCalls.uploadApplyForms, { params: { id }, body });
}
