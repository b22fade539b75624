import { z } from 'zod';
import type { Action } from './permissions.js';

/**
 * The marketplace's shared vocabulary (spec 000 §3 "Order / charge", §4 payment and invoice states,
 * §9 channels; spec 001 §9; issue 24). Amounts and currencies are in money.ts; the ledger's rules in
 * ledger-rules.ts; each area's calls in its own *-calls.ts.
 */

/** Payment status codes (spec 001 §9). */
export const PAYMENT_STATUS = { unpaid: 0, paid: 1, refunding: 2, refunded: 3, partiallyRefunded: 4 } as const;
export type PaymentStatus = (typeof PAYMENT_STATUS)[keyof typeof PAYMENT_STATUS];
export const paymentStatusSchema = z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3), z.literal(4)]);

/** Payment channels (spec 000 §9): WeChat Pay and the group's credit balance. */
export const PAYMENT_CHANNELS = ['weixin', 'credit'] as const;
export const paymentChannelSchema = z.enum(PAYMENT_CHANNELS);
export type PaymentChannel = z.infer<typeof paymentChannelSchema>;

/** Invoice status (spec 000 §4): none → applied → issued; issued is irreversible. */
export const INVOICE_STATUSES = ['none', 'applied', 'issued'] as const;
export const invoiceStatusSchema = z.enum(INVOICE_STATUSES);
export type InvoiceStatus = z.infer<typeof invoiceStatusSchema>;

/**
 * What an order asks for: an expert report (product type 1), a remote report (type 2), or a paid
 * consultation (type 3: the fee of a consultation whose target organization sells one, issue 25).
 */
export const ORDER_TYPES = ['expert', 'remote', 'consultation'] as const;
export const orderTypeSchema = z.enum(ORDER_TYPES);
export type OrderType = z.infer<typeof orderTypeSchema>;
export const PRODUCT_TYPE = { expert: 1, remote: 2, consultation: 3 } as const;
export type ProductType = (typeof PRODUCT_TYPE)[OrderType];
/** The action that orders, and so pays for, an order of each type in the requesting organization (spec 000 §6). */
export const ORDER_APPLY_ACTION = {
  expert: 'apply_expert_report',
  remote: 'apply_remote_report',
  consultation: 'consultation_create',
} as const satisfies Record<OrderType, Action>;

/**
 * An order's progress: applied (waiting for the experts; cancellable), reporting (an expert has
 * started), reported (the approved report is back with the requester), cancelled (by the requester
 * before the experts started).
 */
export const ORDER_STATUSES = ['applied', 'reporting', 'reported', 'cancelled'] as const;
export const orderStatusSchema = z.enum(ORDER_STATUSES);
export type OrderStatus = z.infer<typeof orderStatusSchema>;

/** Orders page size (spec 001 §9) and the export limit (spec 000 §5). */
export const ORDERS_PAGE_SIZE = 10;
export const MAX_ORDERS_EXPORT = 1000;

/** How long a WeChat Native QR (code_url) may be paid, and a credits/create-token bearer used. */
export const PAYMENT_QR_TTL_MINUTES = 30;
export const CREDIT_TOKEN_TTL_SECONDS = 300;

/** The Idempotency-Key header every money-changing call accepts (a retried request answers once). */
export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const idempotencyKeySchema = z
  .string()
  .min(8)
  .max(128)
  .regex(/^[A-Za-z0-9_.:-]+$/);
