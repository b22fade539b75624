import type { FastifyBaseLogger } from 'fastify';
import { writeAudit, type AuditContext } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { AppError } from '../../platform/errors.js';
import type { WechatPayNotification } from '../../platform/wechatpay/provider.js';
import type { WechatChannel } from './channel.js';
import * as store from './payments.store.js';
import * as refunds from './refunds.store.js';
import type { RefundsService } from './refunds.service.js';
import { settlePayment } from './settle.js';

/** WeChat's acknowledgement of a notification taken (APIv3: 200 with this body, or 204). */
const ACK = { code: 'SUCCESS', message: 'OK' } as const;

/**
 * WeChat Pay's notifications (POST payments/weixin/notify and refund-notify; public, the raw body
 * is the credential). The provider verifies the platform signature over the raw body and decrypts
 * the resource; anything that does not verify, names an unknown trade or refund, or does not match
 * its amount and currency is refused with PaymentNotificationInvalid (400, so WeChat retries a
 * genuine one later), writes an audit row and changes nothing. A verified one settles exactly once
 * (settle.ts; RefundsService.finish), so a repeat answers SUCCESS and changes nothing.
 */
export class WechatNotifyService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly wechat: WechatChannel | null,
    private readonly refundsService: RefundsService,
    private readonly log?: FastifyBaseLogger,
  ) {}

  async payment(headers: Record<string, string | undefined>, rawBody: string, ctx: AuditContext) {
    const note = await this.parse(headers, rawBody, ctx, 'payment');
    if (note.eventType !== 'TRANSACTION.SUCCESS' || note.transaction.tradeState !== 'SUCCESS') {
      return this.refuse(ctx, 'payment', 'event', { eventType: note.eventType });
    }
    const t = note.transaction;
    const now = this.clock.now();
    const outcome = await this.db.transaction((tx) =>
      settlePayment(
        tx,
        { paymentNo: t.outTradeNo },
        { amountFen: t.amountFen, currency: t.currency, transactionId: t.transactionId, paidAt: t.successTime },
        { source: 'notify', channel: 'weixin', ctx, now },
      ),
    );
    if (outcome.result === 'refused') {
      return this.refuse(ctx, 'payment', outcome.reason, {
        outTradeNo: t.outTradeNo,
        amountFen: t.amountFen,
        currency: t.currency,
        ...(outcome.payment
          ? { expectedFen: outcome.payment.amountFen, expectedCurrency: outcome.payment.currency }
          : {}),
      });
    }
    if (outcome.result === 'settled' && outcome.duplicate) {
      try {
        await this.refundsService.refundDuplicate(t.outTradeNo, ctx);
      } catch (err) {
        // Settled all the same; the refund can be made by hand (payments/{no}/refund).
        this.log?.error({ err, paymentNo: t.outTradeNo }, 'refund of a duplicate payment failed');
      }
    }
    return ACK;
  }

  async refund(headers: Record<string, string | undefined>, rawBody: string, ctx: AuditContext) {
    const note = await this.parse(headers, rawBody, ctx, 'refund');
    if (note.eventType === 'TRANSACTION.SUCCESS') {
      return this.refuse(ctx, 'refund', 'event', { eventType: note.eventType });
    }
    const r = note.refund;
    const refund = await refunds.refundByNo(this.db, r.outRefundNo);
    const payment = refund ? await store.paymentById(this.db, refund.paymentId) : undefined;
    if (!refund || payment?.paymentNo !== r.outTradeNo) {
      return this.refuse(ctx, 'refund', 'unknown', { outRefundNo: r.outRefundNo, outTradeNo: r.outTradeNo });
    }
    if (note.eventType === 'REFUND.SUCCESS') {
      if (!(await this.refundsService.finish(r.outRefundNo, r.refundId, ctx, r.refundFen))) {
        return this.refuse(ctx, 'refund', 'amount', { outRefundNo: r.outRefundNo, refundFen: r.refundFen });
      }
    } else {
      await this.refundsService.fail(r.outRefundNo, note.eventType === 'REFUND.ABNORMAL' ? 'abnormal' : 'closed', ctx);
    }
    return ACK;
  }

  private async parse(
    headers: Record<string, string | undefined>,
    rawBody: string,
    ctx: AuditContext,
    kind: 'payment' | 'refund',
  ): Promise<WechatPayNotification> {
    if (!this.wechat) return this.refuse(ctx, kind, 'disabled', {});
    try {
      return this.wechat.provider.parseNotification(headers, rawBody);
    } catch (err) {
      return this.refuse(ctx, kind, 'unverified', { error: err instanceof Error ? err.message.slice(0, 200) : '' });
    }
  }

  /** Audits the refused notification (a security event: money is at stake) and answers 400. */
  private async refuse(
    ctx: AuditContext,
    kind: 'payment' | 'refund',
    reason: string,
    details: Record<string, unknown>,
  ): Promise<never> {
    await writeAudit(this.db, ctx, {
      action: 'payment.notification_refused',
      outcome: 'denied',
      targetType: kind === 'payment' ? 'payment' : 'refund',
      details: { kind, reason, ...details },
    });
    throw new AppError('PaymentNotificationInvalid', `Payment notification refused (${reason})`);
  }
}
