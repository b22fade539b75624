import { z } from 'zod';
import type { PaymentChannel } from './billing.js';
import { currencySchema, type Currency } from './money.js';

/*
 * The double-entry ledger's rules (issue 24: "balances are sums of the ledger, never a stored number
 * that can drift"). Debit positive, credit negative; a transaction's lines sum to zero per currency.
 * Accounts are strings:
 *   credit:<groupId>    a group's prepaid balance (a liability: the balance shown is minus its sum)
 *   revenue:<bucketId>  an expert organization's earnings (shown as minus its sum)
 *   cash:weixin         money held at WeChat Pay
 *   cash:manual         top-ups recorded by a platform admin (offline transfers)
 *   platform:plans      the platform's earnings from plan packages bought by private organizations
 * The posting builders are pure, so the server (modules/ledger), the web and the property tests
 * (ledger-rules.test.ts, against the in-memory ledger below) share one definition of each event.
 */

export const LEDGER_KINDS = ['payment', 'refund', 'topup', 'sla_credit', 'plan'] as const;
export const ledgerKindSchema = z.enum(LEDGER_KINDS);
export type LedgerKind = z.infer<typeof ledgerKindSchema>;

/** Where a top-up's money came from: a WeChat payment or an offline transfer recorded by a platform admin. */
export const TOPUP_SOURCES = ['weixin', 'manual'] as const;
export type TopupSource = (typeof TOPUP_SOURCES)[number];

export const ledgerAccount = {
  groupCredit: (groupId: string) => `credit:${groupId}`,
  revenue: (bucketId: string) => `revenue:${bucketId}`,
  cash: (source: TopupSource) => `cash:${source}`,
  cashWeixin: 'cash:weixin',
  cashManual: 'cash:manual',
  platformPlans: 'platform:plans',
} as const;

/** A well-formed account name: one of the families above (credit and revenue with a non-empty id). */
export const LEDGER_ACCOUNT_RE = /^(?:credit:[^\s:]+|revenue:[^\s:]+|cash:(?:weixin|manual)|platform:plans)$/;
export const ledgerAccountSchema = z.string().max(200).regex(LEDGER_ACCOUNT_RE);

/** One line of a posting: signed fen on one account. */
export const ledgerLineSchema = z.object({
  account: ledgerAccountSchema,
  amountFen: z.number().int(),
  currency: currencySchema,
});
export type LedgerLine = z.infer<typeof ledgerLineSchema>;

/** A posted line as read back (an order's detail, a statement): the line with its transaction. */
export const ledgerEntrySchema = ledgerLineSchema.extend({
  txnId: z.string(),
  kind: ledgerKindSchema,
  ref: z.string(),
  orderId: z.string().nullable(),
  memo: z.string(),
  created: z.string(),
});
export type LedgerEntry = z.infer<typeof ledgerEntrySchema>;

function requireAmount(amountFen: number): void {
  if (!Number.isSafeInteger(amountFen) || amountFen <= 0) {
    throw new RangeError(`a posting needs a positive whole number of fen, not ${amountFen}`);
  }
}

function pair(debit: string, credit: string, amountFen: number, currency: Currency): LedgerLine[] {
  requireAmount(amountFen);
  return [
    { account: debit, amountFen, currency },
    { account: credit, amountFen: -amountFen, currency },
  ];
}

export interface ChannelPosting {
  channel: PaymentChannel;
  /** the paying group (whose balance a credit-channel payment spends) */
  payerGroupId: string;
  expertBucketId: string;
  amountFen: number;
  currency: Currency;
}

/** The paid side of a channel: WeChat's cash account, or the payer group's prepaid balance. */
function channelAccount(p: Pick<ChannelPosting, 'channel' | 'payerGroupId'>): string {
  return p.channel === 'weixin' ? ledgerAccount.cashWeixin : ledgerAccount.groupCredit(p.payerGroupId);
}

/** Order paid (kind payment, ref = payment no): cash or the payer's balance → the experts' revenue. */
export function paymentPosting(p: ChannelPosting): LedgerLine[] {
  return pair(channelAccount(p), ledgerAccount.revenue(p.expertBucketId), p.amountFen, p.currency);
}

/** Refund (kind refund, ref = refund no): the experts' revenue → cash, or back to the payer's balance. */
export function refundPosting(p: ChannelPosting): LedgerLine[] {
  return pair(ledgerAccount.revenue(p.expertBucketId), channelAccount(p), p.amountFen, p.currency);
}

/** Top-up (kind topup, ref = payment no or top-up id): cash → the group's balance. */
export function topupPosting(p: { source: TopupSource; groupId: string; amountFen: number; currency: Currency }) {
  return pair(ledgerAccount.cash(p.source), ledgerAccount.groupCredit(p.groupId), p.amountFen, p.currency);
}

/**
 * A plan package bought for a private organization (kind plan, ref = payment no): WeChat's cash
 * account, or the buying group's balance → the platform's plan earnings.
 */
export function planPosting(p: {
  channel: PaymentChannel;
  payerGroupId: string;
  amountFen: number;
  currency: Currency;
}) {
  return pair(channelAccount(p), ledgerAccount.platformPlans, p.amountFen, p.currency);
}

/** SLA breach credit (kind sla_credit, ref = order id): the experts' revenue → the buyer's balance. */
export function slaCreditPosting(p: {
  buyerGroupId: string;
  expertBucketId: string;
  amountFen: number;
  currency: Currency;
}): LedgerLine[] {
  return pair(
    ledgerAccount.revenue(p.expertBucketId),
    ledgerAccount.groupCredit(p.buyerGroupId),
    p.amountFen,
    p.currency,
  );
}

export type LedgerImbalance = 'empty' | 'badAccount' | 'badAmount' | 'unbalanced';

/**
 * Whether lines may be posted: at least two, every account well formed, every amount a non-zero safe
 * integer, and the sum zero in each currency. postTxn refuses anything else.
 */
export function checkBalanced(
  lines: readonly LedgerLine[],
): { balanced: true } | { balanced: false; reason: LedgerImbalance; currency?: Currency } {
  if (lines.length < 2) {
    return { balanced: false, reason: 'empty' };
  }
  const sums = new Map<Currency, number>();
  for (const line of lines) {
    if (!LEDGER_ACCOUNT_RE.test(line.account)) {
      return { balanced: false, reason: 'badAccount' };
    }
    if (
      !Number.isSafeInteger(line.amountFen) ||
      line.amountFen === 0 ||
      !currencySchema.safeParse(line.currency).success
    ) {
      return { balanced: false, reason: 'badAmount' };
    }
    sums.set(line.currency, (sums.get(line.currency) ?? 0) + line.amountFen);
  }
  for (const [currency, sum] of sums) {
    if (sum !== 0) {
      return { balanced: false, reason: 'unbalanced', currency };
    }
  }
  return { balanced: true };
}

/** What may still be refunded of a payment: paid − refunded − refunds still pending, never below zero. */
export function refundable(paidFen: number, refundedFen: number, pendingFen: number): number {
  return Math.max(0, paidFen - refundedFen - pendingFen);
}

/** The buyer's credit for a breached turnaround: the price's share in basis points, rounded down to the fen. */
export function slaCreditFen(priceFen: number, breachCreditBp: number): number {
  if (priceFen <= 0 || breachCreditBp <= 0) {
    return 0;
  }
  const bp = Math.min(10_000, Math.trunc(breachCreditBp));
  return Math.floor((Math.trunc(priceFen) * bp) / 10_000);
}

/** A group's balance from the raw signed sum of its credit account (a liability: minus the sum). */
export function groupBalanceFromSum(sumFen: number): number {
  return sumFen === 0 ? 0 : -sumFen;
}

/** Why a credit payment is refused: the balance would go below zero. */
export function creditSpendRefusal(balanceFen: number, amountFen: number): 'InsufficientCredit' | null {
  return amountFen > balanceFen ? 'InsufficientCredit' : null;
}

export interface LedgerTxnInput {
  kind: LedgerKind;
  ref: string;
  groupId?: string;
  orderId?: string;
  memo?: string;
  lines: LedgerLine[];
}

/**
 * A pure in-memory ledger with the server's posting rules (idempotent on kind + ref, unbalanced lines
 * refused), for property tests here and the server's and web's tests.
 */
export function createLedgerSim() {
  const txns = new Map<string, LedgerTxnInput & { txnId: string }>();
  const entries: (LedgerLine & { txnId: string; kind: LedgerKind; ref: string })[] = [];
  let next = 1;
  const sumWhere = (keep: (e: LedgerLine) => boolean) => entries.filter(keep).reduce((s, e) => s + e.amountFen, 0);
  return {
    /** Posts once per (kind, ref); throws on unbalanced lines (postTxn refuses them too). */
    post(txn: LedgerTxnInput): { txnId: string; posted: boolean } {
      const check = checkBalanced(txn.lines);
      if (!check.balanced) {
        throw new Error(`unbalanced ledger txn ${txn.kind}/${txn.ref}: ${check.reason}`);
      }
      const key = `${txn.kind}\u0000${txn.ref}`;
      const existing = txns.get(key);
      if (existing) {
        return { txnId: existing.txnId, posted: false };
      }
      const txnId = `t${next++}`;
      txns.set(key, { ...txn, txnId });
      for (const line of txn.lines) {
        entries.push({ ...line, txnId, kind: txn.kind, ref: txn.ref });
      }
      return { txnId, posted: true };
    },
    balanceOf: (account: string, currency: Currency) =>
      sumWhere((e) => e.account === account && e.currency === currency),
    groupCreditBalance: (groupId: string, currency: Currency) =>
      groupBalanceFromSum(sumWhere((e) => e.account === ledgerAccount.groupCredit(groupId) && e.currency === currency)),
    /** The sum over every account in a currency: always zero for a sound ledger. */
    total: (currency: Currency) => sumWhere((e) => e.currency === currency),
    txns: () => [...txns.values()],
    entries: () => [...entries],
  };
}
export type LedgerSim = ReturnType<typeof createLedgerSim>;
