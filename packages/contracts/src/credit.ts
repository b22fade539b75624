import { z } from 'zod';
import { LEDGER_KINDS, ledgerKindSchema } from './ledger-rules.js';
import { LANGUAGES } from './limits.js';
import { currencySchema, fenSchema, positiveFenSchema } from './money.js';

/*
 * Group credits (spec 000 §3 "Credits and group credits", §6 "Group flags gate credit"; spec 001 §7
 * Credits; issue 24): a group's prepaid balance, read as minus the sum of its ledger account
 * credit:<groupId> (ledger-rules.ts). Top-ups add to it, credit payments spend it, credit refunds and
 * SLA breach credits give back.
 */

const id = z.string().min(1).max(64);

/** The largest statement export (lines or sums) one request may take. */
export const MAX_CREDIT_EXPORT = 5000;
export const CREDIT_PAGE_SIZE = 10;

export const balanceSchema = z.object({ currency: currencySchema, amountFen: z.number().int() });
export type Balance = z.infer<typeof balanceSchema>;

/** GET credits/group-credit?groupId: the group's balance (CNY first; every currency in balances). */
export const groupCreditQuerySchema = z.object({ groupId: id });
export const groupCreditSchema = z.object({
  groupId: z.string(),
  /** the group's enableCredit flag: off, no top-up or credit payment is possible */
  enabled: z.boolean(),
  /** the balance in CNY, in fen */
  amountFen: z.number().int(),
  currency: currencySchema,
  balances: z.array(balanceSchema),
});
export type GroupCredit = z.infer<typeof groupCreditSchema>;

/** GET buckets/{id}/credit: the organization's group balance, for the apply page's credit option. */
export const bucketCreditSchema = groupCreditSchema.extend({ bucketId: z.string() });
export type BucketCredit = z.infer<typeof bucketCreditSchema>;

/**
 * POST credits/create-token: a short-lived single-use bearer for credits/charge's
 * Charge-Authorization. For an order (its price) or, for a known amount, an organization of the group.
 */
export const createCreditTokenSchema = z.union([
  z.object({ orderId: id }).strict(),
  z.object({ bucketId: id, amountFen: positiveFenSchema, currency: currencySchema.default('CNY') }).strict(),
]);
export type CreateCreditToken = z.input<typeof createCreditTokenSchema>;
export const creditTokenSchema = z.object({
  token: z.string(),
  expiresAt: z.string(),
  amountFen: fenSchema,
  currency: currencySchema,
  /** the balance when issued (credits/charge checks it again) */
  balanceFen: z.number().int(),
});
export type CreditToken = z.infer<typeof creditTokenSchema>;

/** POST credits/top-up (platform admins; an offline transfer recorded by hand; Idempotency-Key required). */
export const creditTopUpSchema = z
  .object({
    groupId: id,
    amountFen: positiveFenSchema,
    currency: currencySchema.default('CNY'),
    /** the transfer's reference or a note, kept with the ledger txn */
    memo: z.string().trim().max(200).default(''),
  })
  .strict();
export type CreditTopUp = z.input<typeof creditTopUpSchema>;
export const creditTopUpResultSchema = z.object({
  txnId: z.string(),
  groupId: z.string(),
  amountFen: fenSchema,
  currency: currencySchema,
  /** the group's balance in that currency after the top-up */
  balanceFen: z.number().int(),
  created: z.string(),
});
export type CreditTopUpResult = z.infer<typeof creditTopUpResultSchema>;

/* ---------- the statement: credits/page-query, page-query-sum, export-excel, export-excel-sum ---------- */

/** groupId in the query so authorization resolves the group before the body is read. */
export const creditStatementParamsSchema = z.object({ groupId: id });
export const creditFiltersSchema = z
  .object({
    /** created ≥ from (ISO instant) */
    from: z.iso.datetime({ offset: true }).optional(),
    /** created < to (ISO instant) */
    to: z.iso.datetime({ offset: true }).optional(),
    kinds: z.array(ledgerKindSchema).max(LEDGER_KINDS.length).optional(),
    currency: currencySchema.optional(),
  })
  .strict();
export type CreditFilters = z.infer<typeof creditFiltersSchema>;

export const creditPageQuerySchema = z
  .object({
    filters: creditFiltersSchema.default({}),
    limit: z.number().int().min(1).max(100).default(CREDIT_PAGE_SIZE),
    skip: z.number().int().min(0).max(1_000_000).default(0),
  })
  .strict();
export type CreditPageQuery = z.input<typeof creditPageQuerySchema>;

/** One line of the group's statement: the change of its balance (top-up +, credit payment −). */
export const creditLineSchema = z.object({
  txnId: z.string(),
  kind: ledgerKindSchema,
  ref: z.string(),
  orderId: z.string().nullable(),
  memo: z.string(),
  currency: currencySchema,
  /** signed change of the balance in fen */
  amountFen: z.number().int(),
  created: z.string(),
});
export type CreditLine = z.infer<typeof creditLineSchema>;
export const creditPageSchema = z.object({ data: z.array(creditLineSchema), count: z.number().int() });
export type CreditPage = z.infer<typeof creditPageSchema>;

export const creditSumQuerySchema = z.object({ filters: creditFiltersSchema.default({}) }).strict();
export const creditSumSchema = z.object({
  kind: ledgerKindSchema,
  currency: currencySchema,
  /** the signed change of the balance from these lines */
  amountFen: z.number().int(),
  count: z.number().int(),
});
export type CreditSum = z.infer<typeof creditSumSchema>;
export const creditSumsSchema = z.object({
  data: z.array(creditSumSchema),
  /** the net change per currency over the filtered lines */
  totals: z.array(balanceSchema),
});
export type CreditSums = z.infer<typeof creditSumsSchema>;

export const creditExportSchema = z
  .object({
    filters: creditFiltersSchema.default({}),
    /** the headers' language; the caller's preference when absent */
    language: z.enum(LANGUAGES).optional(),
  })
  .strict();
export type CreditExport = z.input<typeof creditExportSchema>;
