import type { LabelsRequest, OrderTemplate, OrderTemplateInput, ReferralFormsRequest } from '@yyp/contracts';
import { registryPrintCalls } from '@yyp/contracts';
import { callApi } from './call';

/** The front desk's printing (issue 22): labels and referral forms as PDFs, the referral form template. */

const PDF_TIMEOUT_MS = 60_000;

export function fetchLabelsPdf(body: LabelsRequest): Promise<Blob> {
  return callApi(
    registryPrintCalls.labels,
    { body },
    { as: 'blob', timeoutMs: PDF_TIMEOUT_MS },
  ) as Promise<unknown> as Promise<Blob>;
}

export function fetchReferralFormsPdf(body: ReferralFormsRequest): Promise<Blob> {
  return callApi(
    registryPrintCalls.referralForms,
    { body },
    { as: 'blob', timeoutMs: PDF_TIMEOUT_MS },
  ) as Promise<unknown> as Promise<Blob>;
}

export function fetchOrderTemplate(bucketId: string, signal?: AbortSignal): Promise<OrderTemplate> {
  return callApi(registryPrintCalls.orderTemplate, { params: { bucketId } }, { signal });
}

export function saveOrderTemplate(bucketId: string, body: OrderTemplateInput): Promise<OrderTemplate> {
  return callApi(registryPrintCalls.saveOrderTemplate, { params: { bucketId }, body });
}
