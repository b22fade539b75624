import { z } from 'zod';
import {
  ORDERS_PAGE_SIZE,
  orderStatusSchema,
  orderTypeSchema,
  paymentChannelSchema,
  paymentStatusSchema,
  invoiceStatusSchema,
} from './billing.js';
import { ledgerEntrySchema } from './ledger-rules.js';
import { currencySchema, fenSchema } from './money.js';

/**
 * Orders for remote and expert reads (spec 000 §3 "Order / charge", products; §5 once per exam and
 * the expert selection rules; spec 001 §7 products, request/*, orders/*; issue 24). Amounts are
 * integer fen with their currency (money.ts); states and codes in billing.ts; the calls in
 * order-calls.ts.
 */

const id = z.string().min(1).max(64);
const isoTime = z.string();

/* ---------- products (what an expert organization sells) ---------- */

/** products?type: 1 expert report, 2 remote report, 3 consultation (billing.ts PRODUCT_TYPE). */
const productTypeValue = z.union([z.literal(1), z.literal(2), z.literal(3)]);
export const productTypeSchema = z.coerce.number().pipe(productTypeValue);

export const productSchema = z.object({
  id: z.string(),
  bucketId: z.string(),
  type: productTypeValue,
  name: z.string(),
  description: z.string(),
  /** null: any modality */
  modality: z.string().nullable(),
  priceFen: fenSchema,
  currency: currencySchema,
  /** the promised turnaround from payment to approved report, minutes; null: none promised */
  turnaroundMinutes: z.number().int().nullable(),
  /** the share of the price credited to the buyer on a breached turnaround, basis points */
  breachCreditBp: z.number().int(),
  active: z.boolean(),
  version: z.number().int(),
});
export type Product = z.infer<typeof productSchema>;
export const productsSchema = z.array(productSchema);

export const productsQuerySchema = z.object({ type: productTypeSchema.default(1), bucketId: id });

const productFields = {
  type: productTypeValue,
  name: z.string().trim().min(1).max(100),
  description: z.string().max(1000),
  modality: z.string().trim().min(1).max(16).nullable(),
  priceFen: fenSchema,
  currency: currencySchema,
  turnaroundMinutes: z
    .number()
    .int()
    .min(1)
    .max(60 * 24 * 60)
    .nullable(),
  breachCreditBp: z.number().int().min(0).max(10_000),
  active: z.boolean(),
};

export const productInputSchema = z
  .object({
    bucketId: id,
    ...productFields,
    type: productFields.type.default(1),
    description: productFields.description.default(''),
    modality: productFields.modality.default(null),
    currency: productFields.currency.default('CNY'),
    turnaroundMinutes: productFields.turnaroundMinutes.default(null),
    breachCreditBp: productFields.breachCreditBp.default(0),
    active: productFields.active.default(true),
  })
  .strict();
export type ProductInput = z.input<typeof productInputSchema>;

/** A product's change: any field but its organization, with the version it was based on. */
export const productUpdateSchema = z
  .object(productFields)
  .partial()
  .extend({ version: z.number().int().min(1) })
  .strict();
export type ProductUpdate = z.input<typeof productUpdateSchema>;

/* ---------- a group's expert organizations ---------- */

export const expertBucketSchema = z.object({
  groupId: z.string(),
  bucketId: z.string(),
  bucketName: z.string(),
  /** reads from it are paid (spec 000 §5: paid and unpaid cannot be mixed in one selection) */
  paid: z.boolean(),
  /** the group's defaultExpertBucketId */
  isDefault: z.boolean(),
});
export type ExpertBucket = z.infer<typeof expertBucketSchema>;
export const expertBucketsSchema = z.array(expertBucketSchema);

export const addExpertBucketSchema = z.object({ bucketId: id, paid: z.boolean().default(true) }).strict();
export type AddExpertBucket = z.input<typeof addExpertBucketSchema>;

/** groups/{id}/billing-sources and groups/{id}/rads: organizations with their names. */
export const billingSourceSchema = z.object({ bucketId: z.string(), bucketName: z.string() });
export type BillingSource = z.infer<typeof billingSourceSchema>;
export const billingSourcesSchema = z.array(billingSourceSchema);

/* ---------- orders ---------- */

export const orderSchema = z.object({
  id: z.string(),
  orderNo: z.string(),
  type: orderTypeSchema,
  groupId: z.string(),
  requestBucketId: z.string(),
  requestBucketName: z.string(),
  targetBucketId: z.string(),
  targetBucketName: z.string(),
  examId: z.string(),
  /** type consultation: the consultation whose fee this is (its page, not an exam's, is where it lives) */
  consultationId: z.string().nullable(),
  /** the exam as the expert organization holds it (only shown to the expert side) */
  targetExamId: z.string().nullable(),
  reportId: z.string().nullable(),
  productId: z.string().nullable(),
  productName: z.string(),
  priceFen: fenSchema,
  currency: currencySchema,
  status: orderStatusSchema,
  paymentStatus: paymentStatusSchema,
  channel: paymentChannelSchema.nullable(),
  paidFen: fenSchema,
  refundedFen: fenSchema,
  paidAt: isoTime.nullable(),
  /** whether the order waits for a payment before it reaches the experts */
  needsPayment: z.boolean(),
  patientName: z.string(),
  patientGender: z.string(),
  patientAge: z.string(),
  applicantMobile: z.string(),
  applicantEmail: z.string(),
  reason: z.string(),
  deadlineAt: isoTime.nullable(),
  reportedAt: isoTime.nullable(),
  breachedAt: isoTime.nullable(),
  slaCreditFen: fenSchema,
  invoiceStatus: invoiceStatusSchema,
  cancelledAt: isoTime.nullable(),
  cancelReason: z.string(),
  created: isoTime,
  version: z.number().int(),
});
export type Order = z.infer<typeof orderSchema>;

const mobile = z
  .string()
  .trim()
  .regex(/^\+?[0-9][0-9 -]{4,19}$/, 'Not a phone number');

/**
 * request/apply and request/apply-remote-report: the exam, the product and who applies (spec 000
 * §3 applicant mobile and {email}). The expert organization is the product's; when no product is
 * named the group's defaultExpertBucketId (or the one named) and its first active product of the type.
 * At least one applicant contact (mobile or email) is needed (spec 000 §5; ExpertSelectionInvalid).
 */
export const applyRequestSchema = z
  .object({
    examId: id,
    productId: id.optional(),
    targetBucketId: id.optional(),
    reason: z.string().max(1000).default(''),
    applicantMobile: z.union([mobile, z.literal('')]).default(''),
    applicantEmail: z.union([z.string().trim().email().max(200), z.literal('')]).default(''),
  })
  .strict();
export type ApplyRequest = z.input<typeof applyRequestSchema>;

export const examIdQuerySchema = z.object({ examId: id });
export const remoteReportSchema = z.object({ order: orderSchema.nullable() });

export const cancelOrderSchema = z
  .object({ reason: z.string().max(500).default(''), version: z.number().int().min(1).optional() })
  .strict();

export const applyFormSchema = z.object({
  id: z.string(),
  orderId: z.string(),
  fileName: z.string(),
  contentType: z.string(),
  size: z.number().int(),
  created: isoTime,
  /** a short-lived link to the file (null where the blob store cannot sign one) */
  url: z.string().nullable(),
});
export type ApplyForm = z.infer<typeof applyFormSchema>;
export const applyFormsSchema = z.array(applyFormSchema);
export const deleteApplyFormsSchema = z.object({ ids: z.array(id).min(1).max(50) }).strict();
/**
 * orders/{id}/upload-applyforms: records a file the caller uploaded with GET policies/forms (an
 * image or PDF of the referral), as attachments do.
 */
export const applyFormUploadSchema = z
  .object({
    key: z.string().min(1).max(512),
    name: z.string().trim().min(1).max(255),
    contentType: z.string().max(255).optional(),
  })
  .strict();
export type ApplyFormUpload = z.infer<typeof applyFormUploadSchema>;
/** orders/upload-applyforms-by-code: a form code of the exam (exams/{id}/attachment-code, kind form) and its upload. */
export const applyFormByCodeSchema = z
  .object({
    code: z.string().min(16).max(128),
    key: z.string().min(1).max(512),
    fileName: z.string().trim().min(1).max(255),
  })
  .strict();

export const orderDetailSchema = z.object({
  order: orderSchema,
  /** the order's ledger lines (payment, refunds, SLA credit) */
  ledger: z.array(ledgerEntrySchema),
  applyForms: applyFormsSchema,
});
export type OrderDetail = z.infer<typeof orderDetailSchema>;
export const orderDetailQuerySchema = z
  .object({ examId: id.optional(), reportId: id.optional(), orderId: id.optional() })
  .refine((q) => q.examId || q.reportId || q.orderId, { message: 'examId, reportId or orderId is required' });

/* ---------- orders/page-query ---------- */

export const ORDER_SORT_FIELDS = ['created', 'paidAt', 'priceFen', 'deadlineAt'] as const;

/** The order list's filters (orders/page-query and orders/export-excel). */
export const ordersFiltersSchema = z
  .object({
    status: z.array(orderStatusSchema).max(4).optional(),
    paymentStatus: z.array(paymentStatusSchema).max(5).optional(),
    type: orderTypeSchema.optional(),
    from: isoTime.optional(),
    to: isoTime.optional(),
    patientName: z.string().trim().max(64).optional(),
    orderNo: z.string().trim().max(64).optional(),
  })
  .strict();
export type OrdersFilters = z.infer<typeof ordersFiltersSchema>;

export const ordersPageQuerySchema = z
  .object({
    filters: ordersFiltersSchema.default({}),
    limit: z.number().int().min(1).max(100).default(ORDERS_PAGE_SIZE),
    skip: z.number().int().min(0).max(1_000_000).default(0),
    sorts: z
      .array(z.object({ field: z.enum(ORDER_SORT_FIELDS), direction: z.enum(['asc', 'desc']) }))
      .max(3)
      .default([]),
  })
  .strict();
export type OrdersPageQuery = z.input<typeof ordersPageQuerySchema>;
/** requestBucketId: the requesting side's list; targetBucketId: the expert side's (received orders). */
export const ordersPageParamsSchema = z
  .object({ requestBucketId: id.optional(), targetBucketId: id.optional() })
  .refine((q) => (q.requestBucketId ? 1 : 0) + (q.targetBucketId ? 1 : 0) === 1, {
    message: 'Exactly one of requestBucketId and targetBucketId',
  });
export const ordersPageSchema = z.object({ data: z.array(orderSchema), count: z.number().int() });
export type OrdersPage = z.infer<typeof ordersPageSchema>;

/**
 * orders/export-excel (beyond spec 001's call list, which exports payments only): the order list
 * with the same filters as .xlsx, at most MAX_ORDERS_EXPORT orders (spec 000 §5; ExportLimitExceeded
 * beyond), its columns in `language`.
 */
export const ordersExportSchema = z
  .object({ filters: ordersFiltersSchema.default({}), language: z.enum(['chs', 'en', 'tib']).default('chs') })
  .strict();
export type OrdersExport = z.input<typeof ordersExportSchema>;
