import crypto from 'node:crypto';
import {
  idempotencyKeySchema,
  refundable,
  refundPosting,
  type Currency,
  type PaymentChannel,
  type Refund,
  type RefundInput,
} from '@yyp/contracts';
import type { PaymentRow, RefundRow } from '../../db/schema.js';
import { writeAudit, type AuditContext } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { AppError, errors } from '../../platform/errors.js';
import { postTxn } from '../ledger/index.js';
import { orderForPayment, recordOrderRefund } from '../orders/index.js';
import { refundNotifyUrlOf, type WechatChannel } from './channel.js';
import { presentRefund } from './payments.presenter.js';
import * as store from './payments.store.js';
import * as refunds from './refunds.store.js';
import { PURCHASE_PURPOSES } from './settle-purchase.js';

type Actor = { id: string; username: string } | null;

/**
 * Refunds (payments/{no}/refund; spec 000 §4: refunding 2 while pending, refunded 3, partially
 * refunded 4). Requesting one locks the payment row and counts what is refundable as paid −
 * refunded − still in flight, so two requests at once never add up to more than was paid. A
 * credit payment's refund goes back to the balance at once; a weixin one goes to WeChat and is
 * finished by its answer or its REFUND.* notification (finish/fail, each once).
 */
export class RefundsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly wechat: WechatChannel | null,
  ) {}

  /** The Idempotency-Key every refund request carries (the same key answers the same refund). */
  static key(header: string | string[] | undefined): string {
    const parsed = idempotencyKeySchema.safeParse(Array.isArray(header) ? header[0] : header);
    if (!parsed.success) throw errors.validation('An Idempotency-Key header (8–128 letters, digits, _.:-) is required');
    return parsed.data;
  }

  async refund(actor: Actor, ctx: AuditContext, paymentNo: string, input: RefundInput, key: string): Promise<Refund> {
    await this.reconcile(paymentNo, ctx);
    const now = this.clock.now();
    const { refund, payment, replay } = await this.db.transaction(async (tx) => {
      const payment = await store.lockPayment(tx, { paymentNo });
      if (payment && PURCHASE_PURPOSES.has(payment.purpose)) {
        throw new AppError('PaymentNotRefundable', 'A top-up or a plan package is not refunded through payments');
      }
      if (!payment?.orderId) throw errors.notFound('Payment');
      const existing = await refunds.refundByKey(tx, payment.id, key);
      if (existing) {
        if (existing.amountFen !== input.amountFen || existing.reason !== input.reason) {
          throw new AppError('IdempotencyKeyReused', 'This Idempotency-Key was used for another refund');
        }
        return { refund: existing, payment, replay: true };
      }
      const inFlight = await refunds.processingFen(tx, payment.id);
      const left = payment.status === 'paid' ? refundable(payment.amountFen, payment.refundedFen, inFlight) : 0;
      if (input.amountFen > left) {
        throw new AppError('RefundExceedsPaid', 'The refund is more than what is left of the payment', {
          refundableFen: left,
        });
      }
      const refund = await refunds.insertRefund(tx, {
        id: crypto.randomUUID(),
        refundNo: store.newNumber('YR', now),
        paymentId: payment.id,
        orderId: payment.orderId,
        amountFen: input.amountFen,
        currency: payment.currency,
        status: 'processing',
        reason: input.reason,
        operatorId: actor?.id ?? null,
        idempotencyKey: key,
        created: now,
      });
      await this.recordOrder(tx, payment, payment.refundedFen, true);
      await writeAudit(tx, ctx, {
        action: 'payment.refund_requested',
        outcome: 'success',
        actorId: actor?.id ?? null,
        actorUsername: actor?.username ?? null,
        targetType: 'payment',
        targetId: payment.paymentNo,
        details: {
          refundNo: refund.refundNo,
          amountFen: refund.amountFen,
          currency: refund.currency,
          reason: input.reason,
        },
      });
      if (payment.channel === 'credit') await this.finishIn(tx, refund.refundNo, null, ctx);
      return { refund, payment, replay: false };
    });
    if (!replay && payment.channel === 'weixin') await this.toWechat(payment, refund, ctx);
    return this.present(refund.refundNo);
  }

  /**
   * Asks WeChat about the payment's refunds still in flight (their notification may never have
   * come) and finishes or fails them, so what they hold back is counted right.
   */
  async reconcile(paymentNo: string, ctx: AuditContext): Promise<void> {
    const payment = await store.paymentByNo(this.db, paymentNo);
    if (!payment || payment.channel !== 'weixin' || !this.wechat) return;
    for (const r of await refunds.processingRefundsOf(this.db, payment.id)) {
      let answer;
      try {
        answer = await this.wechat.provider.queryRefund(r.refundNo);
      } catch {
        continue;
      }
      if (answer.status === 'SUCCESS') await this.finish(r.refundNo, answer.refundId, ctx, answer.amountFen);
      else if (answer.status !== 'PROCESSING') {
        await this.fail(r.refundNo, answer.status === 'ABNORMAL' ? 'abnormal' : 'closed', ctx);
      }
    }
  }

  /** The refund of a payment that found its order already paid or cancelled: all of it, once. */
  async refundDuplicate(paymentNo: string, ctx: AuditContext): Promise<void> {
    const row = await store.paymentByNo(this.db, paymentNo);
    if (!row) return;
    await this.refund(
      null,
      ctx,
      paymentNo,
      { amountFen: row.amountFen, reason: 'duplicate payment' },
      `duplicate:${paymentNo}`,
    );
  }

  /** A refund finished (WeChat's answer or REFUND.SUCCESS): posted and recorded once. */
  finish(refundNo: string, channelRefundId: string | null, ctx: AuditContext, amountFen?: number): Promise<boolean> {
    return this.db.transaction((tx) => this.finishIn(tx, refundNo, channelRefundId, ctx, amountFen));
  }

  /** A refund WeChat did not make (ABNORMAL, CLOSED, or no answer): no longer held back. */
  fail(refundNo: string, status: 'abnormal' | 'closed', ctx: AuditContext): Promise<void> {
    return this.db.transaction(async (tx) => {
      const refund = await refunds.refundByNo(tx, refundNo);
      if (!refund) return;
      const payment = (await store.lockPayment(tx, { id: refund.paymentId }))!;
      const current = (await refunds.refundByNo(tx, refundNo))!;
      if (current.status !== 'processing') return;
      await refunds.finishRefund(tx, refund.id, { status, at: this.clock.now() });
      await this.recordOrder(tx, payment, payment.refundedFen, (await refunds.processingFen(tx, payment.id)) > 0);
      await writeAudit(tx, ctx, {
        action: 'payment.refund_failed',
        outcome: 'failure',
        targetType: 'payment',
        targetId: payment.paymentNo,
        details: { refundNo, status, amountFen: refund.amountFen },
      });
    });
  }

  private async finishIn(
    tx: Db,
    refundNo: string,
    channelRefundId: string | null,
    ctx: AuditContext,
    amountFen?: number,
  ): Promise<boolean> {
    const found = await refunds.refundByNo(tx, refundNo);
    if (!found) return false;
    const payment = (await store.lockPayment(tx, { id: found.paymentId }))!;
    const refund = (await refunds.refundByNo(tx, refundNo))!;
    if (refund.status === 'success') return true;
    if (amountFen !== undefined && amountFen !== refund.amountFen) return false;
    // One that was given up (no answer) but WeChat made after all: the money left, so it is recorded.
    if (payment.refundedFen + refund.amountFen > payment.amountFen) return false;
    const now = this.clock.now();
    await refunds.finishRefund(tx, refund.id, { status: 'success', channelRefundId, at: now });
    await store.addRefunded(tx, payment.id, refund.amountFen, now);
    const order = (await orderForPayment(tx, payment.orderId!))!;
    await postTxn(tx, {
      kind: 'refund',
      ref: refund.refundNo,
      groupId: payment.groupId,
      orderId: payment.orderId!,
      memo: refund.reason.slice(0, 200),
      ...(refund.operatorId ? { actorId: refund.operatorId } : {}),
      at: now,
      lines: refundPosting({
        channel: payment.channel as PaymentChannel,
        payerGroupId: payment.groupId,
        expertBucketId: order.targetBucketId,
        amountFen: refund.amountFen,
        currency: payment.currency as Currency,
      }),
    });
    const stillInFlight = (await refunds.processingFen(tx, payment.id)) > 0;
    await this.recordOrder(tx, payment, payment.refundedFen + refund.amountFen, stillInFlight);
    await writeAudit(tx, ctx, {
      action: 'payment.refunded',
      outcome: 'success',
      targetType: 'payment',
      targetId: payment.paymentNo,
      bucketId: order.targetBucketId,
      details: { refundNo, amountFen: refund.amountFen, currency: refund.currency, channel: payment.channel },
    });
    return true;
  }

  /** The order follows the refunds of the payment that paid it (not those of a duplicate). */
  private async recordOrder(tx: Db, payment: PaymentRow, refundedFen: number, pending: boolean): Promise<void> {
    const paidBy = await store.paidPaymentOf(tx, payment.orderId!);
    if (paidBy?.id !== payment.id) return;
    await recordOrderRefund(tx, payment.orderId!, { refundedFen, pending });
  }

  private async toWechat(payment: PaymentRow, refund: RefundRow, ctx: AuditContext): Promise<void> {
    if (!this.wechat) {
      await this.fail(refund.refundNo, 'closed', ctx);
      throw new AppError('PaymentServiceDisabled', 'Payment by WeChat is not enabled on this server');
    }
    const wechat = this.wechat;
    let answer;
    try {
      answer = await wechat.provider.refund({
        outTradeNo: payment.paymentNo,
        outRefundNo: refund.refundNo,
        refundFen: refund.amountFen,
        totalFen: payment.amountFen,
        currency: payment.currency as Currency,
        reason: refund.reason.slice(0, 80),
        notifyUrl: refundNotifyUrlOf(wechat),
      });
    } catch (err) {
      await this.fail(refund.refundNo, 'closed', ctx);
      throw new AppError('PaymentChannelError', 'WeChat Pay did not take the refund', {
        channelCode: (err as { code?: string }).code ?? '',
      });
    }
    if (answer.status === 'SUCCESS') await this.finish(refund.refundNo, answer.refundId, ctx);
    else if (answer.status === 'PROCESSING') await refunds.setChannelRefundId(this.db, refund.id, answer.refundId);
    else await this.fail(refund.refundNo, answer.status === 'ABNORMAL' ? 'abnormal' : 'closed', ctx);
  }

  private async present(refundNo: string): Promise<Refund> {
    const refund = (await refunds.refundByNo(this.db, refundNo))!;
    const payment = (await store.paymentById(this.db, refund.paymentId))!;
    const order = await orderForPayment(this.db, payment.orderId!);
    return { ...presentRefund(refund, payment.paymentNo), paymentStatus: order?.paymentStatus ?? 0 };
  }
}
