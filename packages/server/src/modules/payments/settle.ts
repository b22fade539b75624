import { paymentPosting, type Currency, type PaymentChannel } from '@yyp/contracts';
import type { PaymentRow } from '../../db/schema.js';
import { writeAudit, type AuditContext } from '../../platform/audit.js';
import type { Db } from '../../platform/db.js';
import { postTxn } from '../ledger/index.js';
import { lockOrderRow, orderForPayment, recordOrderPaid } from '../orders/index.js';
import { lockPayment, markPaid } from './payments.store.js';
import { PURCHASE_PURPOSES, settlePurchase } from './settle-purchase.js';

/**
 * Settling a payment exactly once (billing-interfaces.md "Payments"): a WeChat notification, a
 * paid-confirm that asked WeChat, and credits/charge all come here, inside ONE transaction of
 * their caller. The payment row is locked first (select … for update), so of five identical
 * notifications at once one settles and four find it paid; then the amount and currency are
 * checked against the row; the row is marked paid, the ledger posts once (kind payment, ref the
 * payment no, itself idempotent) and the order is recorded paid.
 */
/** An order's payment; 'duplicate' is one that found its order paid already (kept, refunded in full). */
const ORDER_PURPOSES = new Set(['order', 'duplicate']);

export interface Settlement {
  /** what the channel says was paid */
  amountFen: number;
  currency: string;
  transactionId: string | null;
  paidAt: Date;
}

export type SettleRefusal = 'unknown' | 'amount' | 'currency' | 'channel';

export type SettleOutcome =
  | {
      result: 'settled';
      payment: PaymentRow;
      /** the order was already paid by another payment, or cancelled: this money goes back */
      duplicate: boolean;
    }
  | { result: 'already'; payment: PaymentRow }
  | { result: 'refused'; reason: SettleRefusal; payment?: PaymentRow };

export interface SettleMeta {
  /** what settled it: the channel's notification, a confirm that asked the channel, the balance */
  source: 'notify' | 'confirm' | 'credit';
  channel: PaymentChannel;
  ctx: AuditContext;
  actor?: { id: string; username: string };
  now: Date;
}

export async function settlePayment(
  tx: Db,
  by: { id: string } | { paymentNo: string },
  s: Settlement,
  meta: SettleMeta,
): Promise<SettleOutcome> {
  const row = await lockPayment(tx, by);
  // A top-up or a plan package: its own path (settle-purchase.ts); an order's below is unchanged.
  if (row && PURCHASE_PURPOSES.has(row.purpose)) return settlePurchase(tx, row, s, meta);
  if (!row?.orderId || !ORDER_PURPOSES.has(row.purpose)) return { result: 'refused', reason: 'unknown' };
  if (row.channel !== meta.channel) return { result: 'refused', reason: 'channel', payment: row };
  if (row.status === 'paid') return { result: 'already', payment: row };
  if (s.currency !== row.currency) return { result: 'refused', reason: 'currency', payment: row };
  if (s.amountFen !== row.amountFen) return { result: 'refused', reason: 'amount', payment: row };
  await lockOrderRow(tx, row.orderId);
  const order = await orderForPayment(tx, row.orderId);
  if (!order) return { result: 'refused', reason: 'unknown', payment: row };
  // A closed row may still be paid: a QR paid in the moment it was being replaced or deleted.
  const duplicate = order.paymentStatus !== 0 || order.status === 'cancelled';
  await markPaid(tx, row.id, { transactionId: s.transactionId, paidAt: s.paidAt, now: meta.now, duplicate });
  await postTxn(tx, {
    kind: 'payment',
    ref: row.paymentNo,
    groupId: row.groupId,
    orderId: row.orderId,
    memo: order.orderNo,
    ...(meta.actor ? { actorId: meta.actor.id } : {}),
    at: s.paidAt,
    lines: paymentPosting({
      channel: row.channel as PaymentChannel,
      payerGroupId: row.groupId,
      expertBucketId: order.targetBucketId,
      amountFen: row.amountFen,
      currency: row.currency as Currency,
    }),
  });
  if (!duplicate) {
    await recordOrderPaid(tx, row.orderId, {
      channel: row.channel as PaymentChannel,
      paidFen: row.amountFen,
      paidAt: s.paidAt,
    });
  }
  await writeAudit(tx, meta.ctx, {
    action: duplicate ? 'payment.paid_duplicate' : 'payment.paid',
    outcome: 'success',
    actorId: meta.actor?.id ?? null,
    actorUsername: meta.actor?.username ?? null,
    targetType: 'payment',
    targetId: row.paymentNo,
    bucketId: order.requestBucketId,
    details: {
      orderId: row.orderId,
      orderNo: order.orderNo,
      channel: row.channel,
      amountFen: row.amountFen,
      currency: row.currency,
      source: meta.source,
      transactionId: s.transactionId,
    },
  });
  return { result: 'settled', payment: { ...row, status: 'paid', paidAt: s.paidAt }, duplicate };
}
