import { z } from 'zod';
import { MAX_ORDERS_EXPORT } from './billing.js';
import { currencySchema } from './money.js';

/**
 * An expert organization's earnings statement (issue 24): per month of a date range, the orders paid
 * to it, what they brought (gross), what it refunded, the turnaround credits it paid (SLA breaches)
 * and the net. Every figure is a sum of its ledger account revenue:<bucketId> (ledger-rules.ts),
 * never a stored number. Days and months are China time (UTC+8, no daylight saving).
 */
export const EARNINGS_UTC_OFFSET_MINUTES = 480;
/** Who reads an expert organization's earnings (any of these there): its refunders, invoice issuers and admins. */
export const EARNINGS_READER_ACTIONS = ['payment_refund', 'issue_invoice', 'bucket_manage'] as const;
/** The longest range one statement or export may cover. */
export const MAX_EARNINGS_DAYS = 366;
/** The most order lines one export may hold (spec 000 §5's export limit). */
export const MAX_EARNINGS_EXPORT = MAX_ORDERS_EXPORT;
export const EARNINGS_PAGE_SIZE = 10;

const DAY_MS = 86_400_000;
const day = z.string().date();

/** The instants a range of China-time days covers: [from 00:00, the day after `to` 00:00). */
export function earningsInstants(from: string, to: string): { from: Date; to: Date } {
  const offset = EARNINGS_UTC_OFFSET_MINUTES * 60_000;
  const start = Date.parse(`${from}T00:00:00Z`) - offset;
  const end = Date.parse(`${to}T00:00:00Z`) - offset + DAY_MS;
  return { from: new Date(start), to: new Date(end) };
}

/** The China-time month (YYYY-MM) of an instant. */
export function earningsMonthOf(instant: Date): string {
  return new Date(instant.getTime() + EARNINGS_UTC_OFFSET_MINUTES * 60_000).toISOString().slice(0, 7);
}

/** Why a range is refused: `to` before `from`, or longer than MAX_EARNINGS_DAYS. */
export function earningsRangeRefusal(from: string, to: string): 'order' | 'tooLong' | null {
  const days = (Date.parse(to) - Date.parse(from)) / DAY_MS + 1;
  if (days < 1) return 'order';
  return days > MAX_EARNINGS_DAYS ? 'tooLong' : null;
}

const rangeFields = { from: day, to: day };
const checkRange = (v: { from: string; to: string }, ctx: z.RefinementCtx) => {
  const refusal = earningsRangeRefusal(v.from, v.to);
  if (refusal) {
    ctx.addIssue({
      code: 'custom',
      path: ['to'],
      message: refusal === 'order' ? 'to is before from' : `at most ${MAX_EARNINGS_DAYS} days`,
    });
  }
};

/** ?bucketId: the expert organization. */
export const earningsQuerySchema = z.object({ bucketId: z.string().min(1).max(64) });

/** POST earnings/page-query: the range's months and totals, and one page of its order lines. */
export const earningsPageQuerySchema = z
  .object({
    ...rangeFields,
    limit: z.number().int().min(1).max(100).default(EARNINGS_PAGE_SIZE),
    skip: z.number().int().min(0).max(1_000_000).default(0),
  })
  .strict()
  .superRefine(checkRange);
export type EarningsPageQuery = z.input<typeof earningsPageQuerySchema>;

/** GET earnings/export-excel?bucketId&from&to&language (at most MAX_EARNINGS_EXPORT order lines). */
export const earningsExportQuerySchema = earningsQuerySchema
  .extend({ ...rangeFields, language: z.enum(['chs', 'en', 'tib']).default('chs') })
  .superRefine(checkRange);

/** Sums of one currency: gross − refunds − credits = net (fen; refunds and credits positive). */
export const earningsSumsSchema = z.object({
  currency: currencySchema,
  /** orders paid in the period (payments posted to the organization) */
  orders: z.number().int(),
  grossFen: z.number().int(),
  refundsFen: z.number().int(),
  creditsFen: z.number().int(),
  netFen: z.number().int(),
});
export type EarningsSums = z.infer<typeof earningsSumsSchema>;
export const earningsMonthSchema = earningsSumsSchema.extend({ month: z.string().regex(/^\d{4}-\d{2}$/) });
export type EarningsMonth = z.infer<typeof earningsMonthSchema>;

/** One order's postings in the range (an order refunded in a later month appears there too). */
export const earningsOrderSchema = z.object({
  orderId: z.string(),
  orderNo: z.string(),
  productName: z.string(),
  requestBucketName: z.string(),
  currency: currencySchema,
  /** its first posting in the range */
  postedAt: z.string(),
  grossFen: z.number().int(),
  refundsFen: z.number().int(),
  creditsFen: z.number().int(),
  netFen: z.number().int(),
});
export type EarningsOrder = z.infer<typeof earningsOrderSchema>;

export const earningsPageSchema = z.object({
  bucketId: z.string(),
  from: z.string(),
  to: z.string(),
  /** oldest first; months with no posting are left out */
  months: z.array(earningsMonthSchema),
  totals: z.array(earningsSumsSchema),
  /** the order lines, newest first */
  data: z.array(earningsOrderSchema),
  count: z.number().int(),
});
export type EarningsPage = z.infer<typeof earningsPageSchema>;
