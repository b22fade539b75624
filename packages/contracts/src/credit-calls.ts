import {
  bucketCreditSchema,
  createCreditTokenSchema,
  creditExportSchema,
  creditPageQuerySchema,
  creditPageSchema,
  creditStatementParamsSchema,
  creditSumQuerySchema,
  creditSumsSchema,
  creditTokenSchema,
  creditTopUpResultSchema,
  creditTopUpSchema,
  groupCreditQuerySchema,
  groupCreditSchema,
} from './credit.js';
import { defineCall } from './call.js';
import { z } from 'zod';

/**
 * Group credits (spec 001 §7 "Charging, requests and payments": Credits; issue 24). credits/charge
 * itself is payments' (payment-calls.ts creditChargeCalls); its bearer comes from createToken. The
 * server's routes are modules/credits/credits.routes.ts.
 */
export const creditCalls = {
  groupCredit: defineCall({
    method: 'GET',
    path: 'credits/group-credit',
    query: groupCreditQuerySchema,
    answer: groupCreditSchema,
  }),
  bucketCredit: defineCall({
    method: 'GET',
    path: 'buckets/:bucketId/credit',
    params: z.object({ bucketId: z.string().min(1).max(64) }),
    answer: bucketCreditSchema,
  }),
  createToken: defineCall({
    method: 'POST',
    path: 'credits/create-token',
    body: createCreditTokenSchema,
    answer: creditTokenSchema,
  }),
  /** an offline transfer recorded by a platform admin (Idempotency-Key header required) */
  topUp: defineCall({
    method: 'POST',
    path: 'credits/top-up',
    body: creditTopUpSchema,
    answer: creditTopUpResultSchema,
  }),
  pageQuery: defineCall({
    method: 'POST',
    path: 'credits/page-query',
    query: creditStatementParamsSchema,
    body: creditPageQuerySchema,
    answer: creditPageSchema,
  }),
  pageQuerySum: defineCall({
    method: 'POST',
    path: 'credits/page-query-sum',
    query: creditStatementParamsSchema,
    body: creditSumQuerySchema,
    answer: creditSumsSchema,
  }),
  /** the statement's lines as .xlsx (at most MAX_CREDIT_EXPORT) */
  exportExcel: defineCall({
    method: 'POST',
    path: 'credits/export-excel',
    query: creditStatementParamsSchema,
    body: creditExportSchema,
  }),
  /** the statement's sums per kind as .xlsx */
  exportExcelSum: defineCall({
    method: 'POST',
    path: 'credits/export-excel-sum',
    query: creditStatementParamsSchema,
    body: creditExportSchema,
  }),
};
