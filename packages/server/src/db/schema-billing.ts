import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts } from './columns.js';
import { accounts } from './schema-accounts.js';
import { exams } from './schema-archive.js';
import { consultations } from './schema-consultations.js';
import { buckets, groups } from './schema-tenancy.js';

/*
 * ---------- the teleradiology marketplace and billing (issue 24) ----------
 * Amounts are integer fen (cents) with their currency (spec 001 §9: CNY and USD, two decimals).
 * Balances are never stored: they are sums of ledger_entries.
 */

/** What an expert organization sells (spec 000 §3 "products"): a remote or expert read, its price and turnaround. */
export const products = pgTable(
  'products',
  {
    id: text('id').primaryKey(),
    bucketId: text('bucket_id')
      .notNull()
      .references(() => buckets.id, { onDelete: 'cascade' }),
    /** spec 001 §7 `products?type=1`: 1 expert report, 2 remote report */
    type: integer('type').notNull().default(1),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    /** null: any modality */
    modality: text('modality'),
    priceFen: bigint('price_fen', { mode: 'number' }).notNull(),
    currency: text('currency').notNull().default('CNY'),
    /** the promised turnaround from payment to approved report; null: none promised */
    turnaroundMinutes: integer('turnaround_minutes'),
    /** the share of the price credited to the buyer when the turnaround is breached, in basis points (0–10000) */
    breachCreditBp: integer('breach_credit_bp').notNull().default(0),
    active: boolean('active').notNull().default(true),
    created: ts('created').notNull().defaultNow(),
    updated: ts('updated').notNull().defaultNow(),
    version: integer('version').notNull().default(1),
  },
  (t) => [index('products_bucket_type_idx').on(t.bucketId, t.type)],
);
export type ProductRow = typeof products.$inferSelect;

/** A group's expert organizations (spec 001 §7 groups' expert-buckets): who its members may order reads from. */
export const groupExpertBuckets = pgTable(
  'group_expert_buckets',
  {
    groupId: text('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    bucketId: text('bucket_id')
      .notNull()
      .references(() => buckets.id, { onDelete: 'cascade' }),
    /** whether reads from it are paid (spec 000 §5: paid and unpaid organizations cannot be mixed) */
    paid: boolean('paid').notNull().default(true),
    created: ts('created').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.bucketId] })],
);
export type GroupExpertBucketRow = typeof groupExpertBuckets.$inferSelect;

/**
 * An order for a remote or expert read (spec 000 §3 "Order / charge"): the requesting organization's
 * exam, the expert organization, the product and its price at the time, payment, invoice and the
 * turnaround promise. One live order per exam (the partial unique index); a cancelled one frees it.
 */
export const orders = pgTable(
  'orders',
  {
    id: text('id').primaryKey(),
    /** the request number shown to people */
    orderNo: text('order_no').notNull(),
    /** 'expert' | 'remote' | 'consultation' (a consultation's fee: consultationId set, no report, no shared exam) */
    type: text('type').notNull(),
    groupId: text('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    requestBucketId: text('request_bucket_id')
      .notNull()
      .references(() => buckets.id, { onDelete: 'cascade' }),
    targetBucketId: text('target_bucket_id')
      .notNull()
      .references(() => buckets.id, { onDelete: 'cascade' }),
    examId: text('exam_id')
      .notNull()
      .references(() => exams.id, { onDelete: 'cascade' }),
    /** type consultation: the consultation whose fee this is */
    consultationId: text('consultation_id').references(() => consultations.id, { onDelete: 'set null' }),
    /** the exam as the expert organization sees it, once shared */
    targetExamId: text('target_exam_id'),
    /** the expert organization's report, once started */
    reportId: text('report_id'),
    productId: text('product_id').references(() => products.id, { onDelete: 'set null' }),
    productName: text('product_name').notNull().default(''),
    priceFen: bigint('price_fen', { mode: 'number' }).notNull().default(0),
    currency: text('currency').notNull().default('CNY'),
    /** 'applied' | 'reporting' | 'reported' | 'cancelled' */
    status: text('status').notNull().default('applied'),
    /** spec 001 §9: 0 unpaid, 1 paid, 2 refunding, 3 refunded, 4 partially refunded */
    paymentStatus: integer('payment_status').notNull().default(0),
    /** 'weixin' | 'credit'; null until paid (and for unpaid expert organizations) */
    channel: text('channel'),
    paidFen: bigint('paid_fen', { mode: 'number' }).notNull().default(0),
    refundedFen: bigint('refunded_fen', { mode: 'number' }).notNull().default(0),
    paidAt: ts('paid_at'),
    patientName: text('patient_name').notNull().default(''),
    patientGender: text('patient_gender').notNull().default(''),
    patientAge: text('patient_age').notNull().default(''),
    applicantId: text('applicant_id').references(() => accounts.id, { onDelete: 'set null' }),
    applicantMobile: text('applicant_mobile').notNull().default(''),
    applicantEmail: text('applicant_email').notNull().default(''),
    reason: text('reason').notNull().default(''),
    deadlineAt: ts('deadline_at'),
    reportedAt: ts('reported_at'),
    breachedAt: ts('breached_at'),
    slaCreditFen: bigint('sla_credit_fen', { mode: 'number' }).notNull().default(0),
    /** 'none' | 'applied' | 'issued' */
    invoiceStatus: text('invoice_status').notNull().default('none'),
    invoiceId: text('invoice_id'),
    cancelledAt: ts('cancelled_at'),
    cancelReason: text('cancel_reason').notNull().default(''),
    created: ts('created').notNull().defaultNow(),
    updated: ts('updated').notNull().defaultNow(),
    version: integer('version').notNull().default(1),
    /**
     * The patient name's search keys (registry_search_keys of migration 0031: each character and pair
     * of adjacent characters, lower-cased), so the order list's name search asks a GIN index first.
     */
    searchKeys: text('search_keys')
      .array()
      .notNull()
      .generatedAlwaysAs(sql`registry_search_keys(patient_name, '')`),
  },
  (t) => [
    uniqueIndex('orders_order_no_idx').on(t.orderNo),
    // An order number typed or scanned whole or by its beginning (a day's orders: R20261127…).
    index('orders_order_no_prefix_idx').on(sql`${t.orderNo} text_pattern_ops`),
    index('orders_search_keys_idx').using('gin', t.searchKeys),
    // Spec 000 §5: one live report order per exam; a consultation's fee is not one (one per consultation).
    uniqueIndex('orders_exam_live_idx')
      .on(t.examId)
      .where(sql`${t.status} <> 'cancelled' and ${t.type} <> 'consultation'`),
    uniqueIndex('orders_consultation_live_idx')
      .on(t.consultationId)
      .where(sql`${t.status} <> 'cancelled'`),
    index('orders_request_bucket_created_idx').on(t.requestBucketId, t.created, t.id),
    index('orders_target_bucket_created_idx').on(t.targetBucketId, t.created, t.id),
    index('orders_target_exam_idx').on(t.targetExamId),
    // An exam's orders, cancelled ones too (the statistics' marks when its modality changes).
    index('orders_exam_idx').on(t.examId),
    index('orders_deadline_idx')
      .on(t.deadlineAt)
      .where(sql`${t.breachedAt} is null and ${t.status} <> 'cancelled'`),
  ],
);
export type OrderRow = typeof orders.$inferSelect;

/** A payment through a channel (weixin Native, credit) for an order or a credit top-up. */
export const payments = pgTable(
  'payments',
  {
    id: text('id').primaryKey(),
    /** our out_trade_no: payments/{no}/refund */
    paymentNo: text('payment_no').notNull(),
    /** 'order' | 'duplicate' | 'topup' (the group's balance) | 'plan' (a package for bucketId) */
    purpose: text('purpose').notNull().default('order'),
    /** purpose 'plan': the package bought (contracts PLAN_PACKAGES id) */
    packageId: text('package_id'),
    orderId: text('order_id').references(() => orders.id, { onDelete: 'cascade' }),
    groupId: text('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    /** the paying organization */
    bucketId: text('bucket_id').references(() => buckets.id, { onDelete: 'set null' }),
    channel: text('channel').notNull(),
    amountFen: bigint('amount_fen', { mode: 'number' }).notNull(),
    currency: text('currency').notNull().default('CNY'),
    /** 'pending' | 'paid' | 'closed' */
    status: text('status').notNull().default('pending'),
    /** the channel's transaction id (weixin transaction_id) */
    transactionId: text('transaction_id'),
    codeUrl: text('code_url'),
    expiresAt: ts('expires_at'),
    paidAt: ts('paid_at'),
    refundedFen: bigint('refunded_fen', { mode: 'number' }).notNull().default(0),
    createdBy: text('created_by').references(() => accounts.id, { onDelete: 'set null' }),
    created: ts('created').notNull().defaultNow(),
    updated: ts('updated').notNull().defaultNow(),
    version: integer('version').notNull().default(1),
  },
  (t) => [
    uniqueIndex('payments_payment_no_idx').on(t.paymentNo),
    index('payments_order_idx').on(t.orderId),
    index('payments_group_created_idx').on(t.groupId, t.created, t.id),
    index('payments_bucket_created_idx').on(t.bucketId, t.created, t.id),
    /** charge/request: the caller's own charges, newest first */
    index('payments_created_by_idx').on(t.createdBy, t.created, t.id),
  ],
);
export type PaymentRow = typeof payments.$inferSelect;

/** A refund of (part of) a payment (spec 000 §4: refunding while pending, refunded or partially refunded after). */
export const refunds = pgTable(
  'refunds',
  {
    id: text('id').primaryKey(),
    refundNo: text('refund_no').notNull(),
    paymentId: text('payment_id')
      .notNull()
      .references(() => payments.id, { onDelete: 'cascade' }),
    orderId: text('order_id').references(() => orders.id, { onDelete: 'cascade' }),
    amountFen: bigint('amount_fen', { mode: 'number' }).notNull(),
    currency: text('currency').notNull().default('CNY'),
    /** 'processing' | 'success' | 'abnormal' | 'closed' */
    status: text('status').notNull().default('processing'),
    reason: text('reason').notNull().default(''),
    operatorId: text('operator_id').references(() => accounts.id, { onDelete: 'set null' }),
    channelRefundId: text('channel_refund_id'),
    idempotencyKey: text('idempotency_key'),
    created: ts('created').notNull().defaultNow(),
    finishedAt: ts('finished_at'),
  },
  (t) => [
    uniqueIndex('refunds_refund_no_idx').on(t.refundNo),
    uniqueIndex('refunds_idempotency_idx').on(t.paymentId, t.idempotencyKey),
    index('refunds_payment_idx').on(t.paymentId),
  ],
);
export type RefundRow = typeof refunds.$inferSelect;

/**
 * A ledger transaction (double entry): one business event, posted once (unique kind + ref, so a
 * repeated notification or retried call cannot post twice). Its entries sum to zero per currency.
 */
export const ledgerTxns = pgTable(
  'ledger_txns',
  {
    id: text('id').primaryKey(),
    /** 'charge' | 'payment' | 'refund' | 'topup' | 'sla_credit' | 'credit_charge' | 'adjustment' */
    kind: text('kind').notNull(),
    /** what it posts for: a payment no, refund no, order id… */
    ref: text('ref').notNull(),
    groupId: text('group_id').references(() => groups.id, { onDelete: 'cascade' }),
    orderId: text('order_id'),
    memo: text('memo').notNull().default(''),
    actorId: text('actor_id'),
    created: ts('created').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('ledger_txns_kind_ref_idx').on(t.kind, t.ref), index('ledger_txns_order_idx').on(t.orderId)],
);
export type LedgerTxnRow = typeof ledgerTxns.$inferSelect;

/** One line of a ledger transaction: signed fen on one account (debit positive, credit negative). */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: text('id').primaryKey(),
    txnId: text('txn_id')
      .notNull()
      .references(() => ledgerTxns.id, { onDelete: 'cascade' }),
    /** e.g. `credit:<groupId>`, `receivable:<bucketId>`, `revenue:<bucketId>`, `cash:weixin` */
    account: text('account').notNull(),
    amountFen: bigint('amount_fen', { mode: 'number' }).notNull(),
    currency: text('currency').notNull().default('CNY'),
    created: ts('created').notNull().defaultNow(),
  },
  (t) => [
    index('ledger_entries_account_idx').on(t.account, t.created, t.id),
    index('ledger_entries_txn_idx').on(t.txnId),
  ],
);
export type LedgerEntryRow = typeof ledgerEntries.$inferSelect;

/** A money call's idempotency key (Idempotency-Key header): the first answer is given again. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    accountId: text('account_id').notNull(),
    key: text('key').notNull(),
    /** the call and a hash of its body: the same key with another request is refused */
    requestHash: text('request_hash').notNull(),
    status: integer('status'),
    answer: jsonb('answer'),
    created: ts('created').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.key] }), index('idempotency_keys_created_idx').on(t.created)],
);

/** credits/create-token's Charge-Authorization bearer: short-lived, single use, for one amount. */
export const creditChargeTokens = pgTable('credit_charge_tokens', {
  id: text('id').primaryKey(),
  groupId: text('group_id')
    .notNull()
    .references(() => groups.id, { onDelete: 'cascade' }),
  bucketId: text('bucket_id').references(() => buckets.id, { onDelete: 'cascade' }),
  accountId: text('account_id').references(() => accounts.id, { onDelete: 'cascade' }),
  orderId: text('order_id').references(() => orders.id, { onDelete: 'cascade' }),
  amountFen: bigint('amount_fen', { mode: 'number' }).notNull(),
  currency: text('currency').notNull().default('CNY'),
  expiresAt: ts('expires_at').notNull(),
  usedAt: ts('used_at'),
  created: ts('created').notNull().defaultNow(),
});

/** An expert organization's invoice settings (spec 000 §3 "invoice config"). */
export const invoiceConfigs = pgTable('invoice_configs', {
  bucketId: text('bucket_id')
    .primaryKey()
    .references(() => buckets.id, { onDelete: 'cascade' }),
  supportsInvoice: boolean('supports_invoice').notNull().default(false),
  issuerName: text('issuer_name').notNull().default(''),
  taxNo: text('tax_no').notNull().default(''),
  note: text('note').notNull().default(''),
  updated: ts('updated').notNull().defaultNow(),
  version: integer('version').notNull().default(1),
});

/** An invoice applied for (and later issued, irreversibly) over paid weixin orders of one expert organization. */
export const invoices = pgTable(
  'invoices',
  {
    id: text('id').primaryKey(),
    /** the expert organization issuing it */
    bucketId: text('bucket_id')
      .notNull()
      .references(() => buckets.id, { onDelete: 'cascade' }),
    requestBucketId: text('request_bucket_id').references(() => buckets.id, { onDelete: 'set null' }),
    /** 'applied' | 'issued' */
    status: text('status').notNull().default('applied'),
    title: text('title').notNull(),
    taxNo: text('tax_no').notNull().default(''),
    phone: text('phone').notNull(),
    email: text('email').notNull().default(''),
    amountFen: bigint('amount_fen', { mode: 'number' }).notNull(),
    currency: text('currency').notNull().default('CNY'),
    invoiceNo: text('invoice_no'),
    appliedBy: text('applied_by').references(() => accounts.id, { onDelete: 'set null' }),
    appliedAt: ts('applied_at').notNull().defaultNow(),
    issuedBy: text('issued_by').references(() => accounts.id, { onDelete: 'set null' }),
    issuedAt: ts('issued_at'),
    version: integer('version').notNull().default(1),
  },
  (t) => [
    index('invoices_bucket_idx').on(t.bucketId, t.appliedAt),
    index('invoices_request_bucket_idx').on(t.requestBucketId),
  ],
);
export type InvoiceRow = typeof invoices.$inferSelect;

/** An order's apply forms (spec 000 §3 "Apply forms exist per order"): the referral papers uploaded for the experts. */
export const orderApplyForms = pgTable(
  'order_apply_forms',
  {
    id: text('id').primaryKey(),
    orderId: text('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    blobKey: text('blob_key').notNull(),
    fileName: text('file_name').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    createdBy: text('created_by').references(() => accounts.id, { onDelete: 'set null' }),
    created: ts('created').notNull().defaultNow(),
  },
  (t) => [index('order_apply_forms_order_idx').on(t.orderId)],
);
export type OrderApplyFormRow = typeof orderApplyForms.$inferSelect;

/**
 * Orders per organization and side ('request': placed by it; 'target': received by it, counted once
 * shared with the experts), status, payment status and type, kept by triggers on orders (migration
 * 0037): the order list's count when it filters on nothing else.
 */
export const orderCounts = pgTable(
  'order_counts',
  {
    bucketId: text('bucket_id')
      .notNull()
      .references(() => buckets.id, { onDelete: 'cascade' }),
    side: text('side').notNull(),
    status: text('status').notNull(),
    paymentStatus: integer('payment_status').notNull(),
    type: text('type').notNull(),
    n: bigint('n', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.bucketId, t.side, t.status, t.paymentStatus, t.type] })],
);
