import { z } from 'zod';
import { paymentChannelSchema, paymentStatusSchema, invoiceStatusSchema, MAX_ORDERS_EXPORT } from './billing.js';
import { CHARGE_PAGE_SIZE, MAX_CHARGE_PAGE, TOPUP_MAX_FEN, TOPUP_MIN_FEN } from './limits.js';
import { currencySchema, fenSchema, positiveFenSchema } from './money.js';

/**
 * Payments, refunds and invoices (spec 000 §3 "Order / charge", §4 payment and invoice states, §5
 * invoice rules; spec 001 §7 "Charging, requests and payments", §8 the charge token; issue 24).
 * A charge is one payment row (one attempt to pay an order through a channel); its payment no is
 * WeChat's out_trade_no and the id of payments/{no}/refund. Amounts are integer fen.
 */

/** A payment row's own state: waiting for the payer, paid, or closed (expired, replaced, deleted). */
export const PAYMENT_ROW_STATUSES = ['pending', 'paid', 'closed'] as const;
export const paymentRowStatusSchema = z.enum(PAYMENT_ROW_STATUSES);
export type PaymentRowStatus = z.infer<typeof paymentRowStatusSchema>;

/**
 * The public /charge/{id} page's credential (spec 001 §8: kept in session storage), sent as
 * `Authorization: Charge <token>`: signed, bound to one charge, valid for CHARGE_TOKEN_TTL_MINUTES.
 */
export const CHARGE_TOKEN_SCHEME = 'Charge';
export const CHARGE_TOKEN_TTL_MINUTES = 120;

/** POST charge/apply-charge: a charge (weixin) for an order of the caller's organization. */
export const chargeApplySchema = z.object({ orderId: z.string().min(1).max(64) }).strict();
export type ChargeApply = z.infer<typeof chargeApplySchema>;
export const chargeCreatedSchema = z.object({
  id: z.string(),
  token: z.string(),
  /** the token's expiry, epoch seconds (spec 001 §8: token expiry compared in seconds) */
  tokenExpires: z.number().int(),
});
export type ChargeCreated = z.infer<typeof chargeCreatedSchema>;

/**
 * A charge as the payer's page shows it: what is paid for and to whom, never the patient (the
 * public page's token is no reason to show PHI).
 */
export const chargeDetailSchema = z.object({
  id: z.string(),
  paymentNo: z.string(),
  orderId: z.string(),
  orderNo: z.string(),
  productName: z.string(),
  expertBucketName: z.string(),
  amountFen: fenSchema,
  currency: currencySchema,
  channel: paymentChannelSchema,
  status: paymentRowStatusSchema,
  /** the order's payment status (0 unpaid … 4 partially refunded) */
  paymentStatus: paymentStatusSchema,
  expiresAt: z.string().nullable(),
  paidAt: z.string().nullable(),
  created: z.string(),
});
export type ChargeDetail = z.infer<typeof chargeDetailSchema>;

/**
 * GET …/payment-status and POST …/paid-confirm (polled by the payer's page). On request/{id}/*
 * an order with no charge yet answers id, paymentNo and status null.
 */
export const chargeStatusSchema = z.object({
  id: z.string().nullable(),
  paymentNo: z.string().nullable(),
  status: paymentRowStatusSchema.nullable(),
  paymentStatus: paymentStatusSchema,
  paidAt: z.string().nullable(),
});
export type ChargeStatus = z.infer<typeof chargeStatusSchema>;

/** GET …/pre-paid-order (?refresh=1 makes a new QR once the last one expired). */
export const prePaidOrderQuerySchema = z.object({ refresh: z.enum(['0', '1']).optional() }).strict();
export const prePaidOrderSchema = z.object({
  id: z.string(),
  paymentNo: z.string(),
  /** WeChat Native code_url, shown as a QR code; null once expired (ask again with refresh=1) */
  codeUrl: z.string().nullable(),
  expiresAt: z.string().nullable(),
  expired: z.boolean(),
  amountFen: fenSchema,
  currency: currencySchema,
  /** with the loopback simulator only (YYP_WECHATPAY=sim): its page that "scans" the code */
  simScanUrl: z.string().optional(),
});
export type PrePaidOrder = z.infer<typeof prePaidOrderSchema>;

/** POST credits/charge (Charge-Authorization: Bearer <credits/create-token>): pays the token's order. */
export const creditChargeSchema = z.object({ orderId: z.string().min(1).max(64) }).strict();
export const creditChargeResultSchema = z.object({
  paymentNo: z.string(),
  orderId: z.string(),
  amountFen: fenSchema,
  currency: currencySchema,
  /** the group's balance after the charge */
  balanceFen: z.number().int(),
});
export type CreditChargeResult = z.infer<typeof creditChargeResultSchema>;

export const REFUND_STATUSES = ['processing', 'success', 'abnormal', 'closed'] as const;
export const refundStatusSchema = z.enum(REFUND_STATUSES);

/** POST payments/{no}/refund (Idempotency-Key header). */
export const refundInputSchema = z
  .object({ amountFen: positiveFenSchema, reason: z.string().trim().min(1).max(256) })
  .strict();
export type RefundInput = z.infer<typeof refundInputSchema>;
export const refundSchema = z.object({
  refundNo: z.string(),
  paymentNo: z.string(),
  orderId: z.string().nullable(),
  amountFen: fenSchema,
  currency: currencySchema,
  status: refundStatusSchema,
  reason: z.string(),
  operatorId: z.string().nullable(),
  created: z.string(),
  finishedAt: z.string().nullable(),
  /** the order's payment status after it (2 while pending, 3 all refunded, 4 partly) */
  paymentStatus: paymentStatusSchema,
});
export type Refund = z.infer<typeof refundSchema>;

/** An expert organization's invoice settings (buckets/{id}/invoice-config). */
export const invoiceConfigInputSchema = z
  .object({
    supportsInvoice: z.boolean(),
    issuerName: z.string().trim().max(128).default(''),
    taxNo: z.string().trim().max(32).default(''),
    note: z.string().trim().max(512).default(''),
    /**
     * The version the change is based on (the one GET answered; 0 while nothing is saved): a stale
     * one answers Conflict (409) and changes nothing.
     */
    version: z.number().int().min(0),
  })
  .strict();
export type InvoiceConfigInput = z.input<typeof invoiceConfigInputSchema>;
export const invoiceConfigSchema = z.object({
  bucketId: z.string(),
  supportsInvoice: z.boolean(),
  issuerName: z.string(),
  taxNo: z.string(),
  note: z.string(),
  updated: z.string().nullable(),
  /** 0 until first saved */
  version: z.number().int(),
});
export type InvoiceConfig = z.infer<typeof invoiceConfigSchema>;

/** A mainland mobile (1xxxxxxxxxx) or a landline with its area code (010-12345678, 0571-1234567-89). */
export const INVOICE_PHONE_PATTERN = /^(?:1[3-9]\d{9}|0\d{2,3}-?\d{7,8}(?:-\d{1,6})?)$/;
export const MAX_INVOICE_ORDERS = 100;

/** POST payments/apply-invoice (spec 000 §5 invoice rules). */
export const invoiceApplySchema = z
  .object({
    orderIds: z.array(z.string().min(1).max(64)).min(1).max(MAX_INVOICE_ORDERS),
    title: z.string().trim().min(1).max(128),
    taxNo: z.string().trim().max(32).default(''),
    phone: z.string().trim().regex(INVOICE_PHONE_PATTERN),
    email: z.union([z.literal(''), z.string().trim().email().max(128)]).default(''),
  })
  .strict();
export type InvoiceApply = z.input<typeof invoiceApplySchema>;

/** POST payments/issue-invoice: issuing is irreversible (spec 000 §4). */
export const invoiceIssueSchema = z
  .object({ invoiceId: z.string().min(1).max(64), invoiceNo: z.string().trim().min(1).max(64) })
  .strict();
export type InvoiceIssue = z.infer<typeof invoiceIssueSchema>;

export const invoiceSchema = z.object({
  id: z.string(),
  bucketId: z.string(),
  requestBucketId: z.string().nullable(),
  status: invoiceStatusSchema.exclude(['none']),
  title: z.string(),
  taxNo: z.string(),
  phone: z.string(),
  email: z.string(),
  amountFen: fenSchema,
  currency: currencySchema,
  invoiceNo: z.string().nullable(),
  orderIds: z.array(z.string()),
  appliedAt: z.string(),
  issuedAt: z.string().nullable(),
});
export type Invoice = z.infer<typeof invoiceSchema>;

/** Whose payments a list shows: those the organization paid, or those paid to it (the experts). */
export const PAYMENT_SIDES = ['payer', 'expert'] as const;
export const paymentSideSchema = z.enum(PAYMENT_SIDES);

export const paymentFiltersSchema = z
  .object({
    status: paymentRowStatusSchema.optional(),
    channel: paymentChannelSchema.optional(),
    paymentStatus: paymentStatusSchema.optional(),
    /** created from / before, ISO dates or instants */
    from: z.string().datetime({ offset: true }).or(z.string().date()).optional(),
    to: z.string().datetime({ offset: true }).or(z.string().date()).optional(),
    /** a payment no or an order no, exactly */
    no: z.string().trim().min(1).max(64).optional(),
  })
  .strict();
export type PaymentFilters = z.infer<typeof paymentFiltersSchema>;

export const PAYMENT_SORT_FIELDS = ['created', 'amountFen', 'paidAt'] as const;
export const paymentSortSchema = z.object({
  field: z.enum(PAYMENT_SORT_FIELDS),
  order: z.enum(['asc', 'desc']).default('desc'),
});

/** POST payments/page-query?bucketId&side. */
export const paymentsQuerySchema = z.object({ bucketId: z.string().min(1), side: paymentSideSchema.default('payer') });
export const paymentsPageQuerySchema = z
  .object({
    filters: paymentFiltersSchema.default({}),
    limit: z.number().int().min(1).max(100).default(10),
    skip: z.number().int().min(0).max(1_000_000).default(0),
    sorts: z.array(paymentSortSchema).max(3).default([]),
  })
  .strict();
export type PaymentsPageQuery = z.input<typeof paymentsPageQuerySchema>;

/** GET payments/export-excel?bucketId&side&… (at most MAX_ORDERS_EXPORT rows, else ExportLimitExceeded). */
export const paymentsExportQuerySchema = paymentsQuerySchema.extend({
  status: paymentRowStatusSchema.optional(),
  channel: paymentChannelSchema.optional(),
  from: z.string().datetime({ offset: true }).or(z.string().date()).optional(),
  to: z.string().datetime({ offset: true }).or(z.string().date()).optional(),
  no: z.string().trim().min(1).max(64).optional(),
  language: z.enum(['chs', 'en', 'tib']).default('chs'),
});
export const MAX_PAYMENTS_EXPORT = MAX_ORDERS_EXPORT;

export const paymentItemSchema = z.object({
  id: z.string(),
  paymentNo: z.string(),
  orderId: z.string().nullable(),
  orderNo: z.string().nullable(),
  productName: z.string(),
  requestBucketId: z.string().nullable(),
  expertBucketId: z.string().nullable(),
  channel: paymentChannelSchema,
  amountFen: fenSchema,
  currency: currencySchema,
  refundedFen: fenSchema,
  status: paymentRowStatusSchema,
  paymentStatus: paymentStatusSchema,
  transactionId: z.string().nullable(),
  invoiceStatus: invoiceStatusSchema,
  /** the order's invoice once applied for (payments/issue-invoice takes it) */
  invoiceId: z.string().nullable(),
  created: z.string(),
  paidAt: z.string().nullable(),
  refunds: z.array(refundSchema.omit({ paymentStatus: true })),
});
export type PaymentItem = z.infer<typeof paymentItemSchema>;
export const paymentsPageSchema = z.object({ data: z.array(paymentItemSchema), count: z.number().int() });
export type PaymentsPage = z.infer<typeof paymentsPageSchema>;

/** What the WeChat Pay notification routes answer (APIv3: 200/204 on success, 4xx/5xx with this body on failure). */
export const wechatNotifyAnswerSchema = z.object({ code: z.string(), message: z.string() });

/**
 * What a payment row pays for: an order ('duplicate': one that found its order paid already, kept
 * and refunded in full), a top-up of the group's balance, or a plan package for an organization.
 */
export const PAYMENT_PURPOSES = ['order', 'duplicate', 'topup', 'plan'] as const;
export const paymentPurposeSchema = z.enum(PAYMENT_PURPOSES);
export type PaymentPurpose = z.infer<typeof paymentPurposeSchema>;

/**
 * POST credits/weixin-top-up: a group's admin tops up its balance by WeChat Native (CNY). Answers a
 * charge (its id and the charge token) whose QR, status and paid-confirm are charge/{id}/*; the
 * balance rises when WeChat's notification settles it. A top-up is not refundable through
 * payments/{no}/refund (TopUpNotRefundable).
 */
export const weixinTopUpSchema = z
  .object({ groupId: z.string().min(1).max(64), amountFen: z.number().int().min(TOPUP_MIN_FEN).max(TOPUP_MAX_FEN) })
  .strict();
export type WeixinTopUp = z.infer<typeof weixinTopUpSchema>;

/** GET charge/request?limit&skip: the caller's own charges (payments it created), newest first. */
export const ownChargesQuerySchema = z
  .object({
    limit: z.coerce.number().int().min(1).max(MAX_CHARGE_PAGE).default(CHARGE_PAGE_SIZE),
    skip: z.coerce.number().int().min(0).max(1_000_000).default(0),
  })
  .strict();
export type OwnChargesQuery = z.input<typeof ownChargesQuerySchema>;

/** One of the caller's charges: what it paid for (an order no, a top-up, a package), never a patient. */
export const ownChargeSchema = z.object({
  id: z.string(),
  paymentNo: z.string(),
  purpose: paymentPurposeSchema,
  orderId: z.string().nullable(),
  orderNo: z.string().nullable(),
  /** purpose plan: the package bought */
  packageId: z.string().nullable(),
  groupId: z.string(),
  /** the paying organization (purpose plan: the one the package is for) */
  bucketId: z.string().nullable(),
  bucketName: z.string().nullable(),
  amountFen: fenSchema,
  currency: currencySchema,
  refundedFen: fenSchema,
  channel: paymentChannelSchema,
  status: paymentRowStatusSchema,
  created: z.string(),
  paidAt: z.string().nullable(),
});
export type OwnCharge = z.infer<typeof ownChargeSchema>;
export const ownChargesSchema = z.object({ data: z.array(ownChargeSchema), count: z.number().int() });
export type OwnCharges = z.infer<typeof ownChargesSchema>;
