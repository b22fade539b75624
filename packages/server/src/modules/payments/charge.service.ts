import crypto from 'node:crypto';
import {
  PAYMENT_QR_TTL_MINUTES,
  type ChargeCreated,
  type ChargeDetail,
  type ChargeStatus,
  type Currency,
  type PaymentRowStatus,
  type PaymentStatus,
  type PrePaidOrder,
} from '@yyp/contracts';
import type { PaymentRow } from '../../db/schema.js';
import { writeAudit, type AuditContext } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { AppError, errors } from '../../platform/errors.js';
import type { Signer } from '../../platform/signed.js';
import { getDomainConfig } from '../domain/index.js';
import { expertIsPaid, orderForPayment, type OrderForPayment } from '../orders/index.js';
import { channelCode, notifyUrlOf, requireWechat, viaChannel, type WechatChannel } from './channel.js';
import { issueChargeToken, requireChargeToken } from './charge-token.js';
import { noPermissionToPay, ORDER_ACTION, requireIn, type PayCaller } from './payments.access.js';
import * as store from './payments.store.js';
import { purchaseDescription } from './purchases.service.js';
import { PURCHASE_PURPOSES } from './settle-purchase.js';
import { settlePayment } from './settle.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * Paying an order by WeChat Native (spec 001 §7 charge/* and request/{id}/*): a charge is one
 * payment row; its QR (code_url) is made on the first pre-paid-order and again, under a new
 * out_trade_no, when it expired and the page asks with refresh=1. Paid-confirm asks WeChat and
 * settles (settle.ts) when WeChat says paid; the notification route settles the same way.
 */
export class ChargeService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly signer: Signer,
    private readonly wechat: WechatChannel | null,
  ) {}

  // ---- the signed-in requester ----

  /** POST charge/apply-charge: the order's open charge (or a new one) and a token for its public page. */
  async apply(caller: PayCaller, orderId: string): Promise<ChargeCreated> {
    const order = await this.payable(caller, orderId);
    requireWechat(this.wechat);
    const now = this.clock.now();
    const open = await store.pendingPaymentOf(this.db, order.id, 'weixin');
    if (open) return this.tokenFor(open, now);
    const row = await store.insertPayment(this.db, {
      id: crypto.randomUUID(),
      paymentNo: store.newNumber('YP', now),
      purpose: 'order',
      orderId: order.id,
      groupId: order.groupId,
      bucketId: order.requestBucketId,
      channel: 'weixin',
      amountFen: order.priceFen,
      currency: order.currency,
      status: 'pending',
      createdBy: caller.account.id,
      created: now,
      updated: now,
    });
    await writeAudit(this.db, caller.ctx, {
      action: 'payment.charge_applied',
      outcome: 'success',
      actorId: caller.account.id,
      actorUsername: caller.account.username,
      targetType: 'payment',
      targetId: row.paymentNo,
      bucketId: order.requestBucketId,
      details: { orderId: order.id, amountFen: row.amountFen, currency: row.currency },
    });
    return this.tokenFor(row, now);
  }

  private tokenFor(row: PaymentRow, now: Date): ChargeCreated {
    const { token, expires } = issueChargeToken(this.signer, row.id, now);
    return { id: row.id, token, tokenExpires: expires };
  }

  /** GET request/{id}/payment-status: the order's paid payment, else its open one. */
  async orderStatus(caller: PayCaller, orderId: string): Promise<ChargeStatus> {
    const order = await this.ownOrder(caller, orderId);
    const row =
      (await store.paidPaymentOf(this.db, orderId)) ?? (await store.pendingPaymentOf(this.db, orderId, 'weixin'));
    return row ? presentStatus(row, order.paymentStatus) : noPayment(order.paymentStatus);
  }

  /** GET request/{id}/pre-paid-order: the order's QR (a charge is opened when it has none). */
  async orderPrePaid(caller: PayCaller, orderId: string, refresh: boolean): Promise<PrePaidOrder> {
    const { id } = await this.apply(caller, orderId);
    return this.prePaid(id, refresh);
  }

  /** POST request/{id}/paid-confirm: asks WeChat about the order's open charge. */
  async orderConfirm(caller: PayCaller, orderId: string): Promise<ChargeStatus> {
    await this.ownOrder(caller, orderId);
    const row = await store.pendingPaymentOf(this.db, orderId, 'weixin');
    if (row) await this.confirmRow(row, caller.ctx, caller.account);
    return this.orderStatus(caller, orderId);
  }

  // ---- the public page, with the charge token ----

  /** Refuses (LinkInvalid) a page whose token is not this charge's, then answers the row. */
  async opened(chargeId: string, token: string): Promise<PaymentRow> {
    requireChargeToken(this.signer, token, chargeId, this.clock.now());
    const row = await store.paymentById(this.db, chargeId);
    if (!row || (!row.orderId && !PURCHASE_PURPOSES.has(row.purpose))) throw errors.notFound('Charge');
    return row;
  }

  async detail(row: PaymentRow): Promise<ChargeDetail> {
    const order = await this.orderOf(row);
    return {
      id: row.id,
      paymentNo: row.paymentNo,
      orderId: order.id,
      orderNo: order.orderNo,
      productName: order.productName,
      expertBucketName: await store.bucketName(this.db, order.targetBucketId),
      amountFen: row.amountFen,
      currency: row.currency as Currency,
      channel: row.channel as ChargeDetail['channel'],
      status: row.status as PaymentRowStatus,
      paymentStatus: order.paymentStatus,
      expiresAt: iso(row.expiresAt),
      paidAt: iso(row.paidAt),
      created: row.created.toISOString(),
    };
  }

  async status(row: PaymentRow): Promise<ChargeStatus> {
    return presentStatus(row, await this.paymentStatusOf(row));
  }

  /** The order's payment status; a top-up's or plan's own: paid (1) once its row is, else unpaid (0). */
  private async paymentStatusOf(row: PaymentRow): Promise<PaymentStatus> {
    if (!row.orderId && PURCHASE_PURPOSES.has(row.purpose)) return row.status === 'paid' ? 1 : 0;
    return (await this.orderOf(row)).paymentStatus;
  }

  /**
   * GET charge/{id}/pre-paid-order: the charge's code_url, made at WeChat on the first ask. Once it
   * expired the answer says so; with refresh=1 the old trade is asked (paid: settled), closed, and
   * a new out_trade_no gets a new code (the row keeps its id, so the page's token stays valid).
   */
  async prePaid(chargeId: string, refresh: boolean): Promise<PrePaidOrder> {
    const wechat = requireWechat(this.wechat);
    let row = await store.paymentById(this.db, chargeId);
    if (!row || (!row.orderId && !PURCHASE_PURPOSES.has(row.purpose)) || row.channel !== 'weixin') {
      throw errors.notFound('Charge');
    }
    if (row.status === 'paid') throw orderAlreadyPaid();
    if (row.status === 'closed') throw new AppError('PaymentExpired', 'This payment was closed; start it again');
    const now = this.clock.now();
    const expired = row.expiresAt !== null && row.expiresAt.getTime() <= now.getTime();
    if (row.codeUrl && !expired) return this.presentQr(row, false);
    if (row.codeUrl && expired && !refresh) return this.presentQr(row, true);
    const order = row.orderId ? await this.orderOf(row) : null;
    if (order && order.paymentStatus !== 0) throw orderAlreadyPaid();
    let paymentNo = row.paymentNo;
    if (row.codeUrl) {
      // The old QR may have been paid in its last moment: settle it rather than replace it.
      if ((await this.confirmRow(row)).status === 'paid') throw orderAlreadyPaid();
      await viaChannel('close the expired order', () => wechat.provider.closeOrder(row!.paymentNo));
      paymentNo = store.newNumber('YP', now);
    }
    const expiresAt = new Date(now.getTime() + PAYMENT_QR_TTL_MINUTES * 60_000);
    const { codeUrl } = await viaChannel('create the order', () =>
      wechat.provider.createNativeOrder({
        outTradeNo: paymentNo,
        description: order ? order.productName.slice(0, 127) || order.orderNo : purchaseDescription(row!),
        amountFen: row!.amountFen,
        currency: row!.currency as Currency,
        notifyUrl: notifyUrlOf(wechat),
        expiresAt,
      }),
    );
    const updated = await store.setQr(this.db, row.id, row.version, { paymentNo, codeUrl, expiresAt, now });
    // Another page made the code at the same moment: theirs stands.
    row = updated ?? (await store.paymentById(this.db, row.id))!;
    if (row.status !== 'pending') throw orderAlreadyPaid();
    return this.presentQr(row, false);
  }

  /** POST charge/{id}/paid-confirm. */
  async confirm(row: PaymentRow, ctx: AuditContext): Promise<ChargeStatus> {
    const after = await this.confirmRow(row, ctx);
    return presentStatus(after, await this.paymentStatusOf(after));
  }

  /** DELETE charge/{id}/delete: closes an unpaid charge (at WeChat too); a paid one is refused. */
  async remove(row: PaymentRow, ctx: PayCaller['ctx']): Promise<void> {
    if (row.status === 'paid') throw orderAlreadyPaid();
    if (row.status === 'closed') return;
    if (row.codeUrl && this.wechat) {
      const wechat = this.wechat;
      if ((await this.confirmRow(row)).status === 'paid') throw orderAlreadyPaid();
      await viaChannel('close the order', () => wechat.provider.closeOrder(row.paymentNo));
    }
    await store.markClosed(this.db, row.id, this.clock.now());
    await writeAudit(this.db, ctx, {
      action: 'payment.charge_closed',
      outcome: 'success',
      targetType: 'payment',
      targetId: row.paymentNo,
      ...(row.bucketId ? { bucketId: row.bucketId } : {}),
      details: { orderId: row.orderId },
    });
  }

  /**
   * Asks WeChat about a pending weixin row and settles it when WeChat says SUCCESS (an unknown
   * order is simply not paid yet). Answers the row as it is after.
   */
  async confirmRow(
    row: PaymentRow,
    ctx: AuditContext = { ip: null, userAgent: null },
    actor?: { id: string; username: string },
  ): Promise<PaymentRow> {
    if (row.status === 'paid' || row.channel !== 'weixin' || !row.codeUrl || !this.wechat) return row;
    const wechat = this.wechat;
    let state;
    try {
      state = await wechat.provider.queryOrder(row.paymentNo);
    } catch (err) {
      if (channelCode(err) === 'ORDER_NOT_EXIST') return row;
      return viaChannel('answer the order query', () => Promise.reject(err));
    }
    if (state.tradeState !== 'SUCCESS') return row;
    const now = this.clock.now();
    const outcome = await this.db.transaction((tx) =>
      settlePayment(
        tx,
        { id: row.id },
        {
          amountFen: state.amountFen ?? -1,
          currency: state.currency ?? '',
          transactionId: state.transactionId ?? null,
          paidAt: state.successTime ?? now,
        },
        { source: 'confirm', channel: 'weixin', ctx, ...(actor ? { actor } : {}), now },
      ),
    );
    if (outcome.result === 'refused') {
      throw new AppError('PaymentChannelError', 'WeChat Pay reported a payment that does not match this charge', {
        reason: outcome.reason,
      });
    }
    return (await store.paymentById(this.db, row.id))!;
  }

  private presentQr(row: PaymentRow, expired: boolean): PrePaidOrder {
    const qr = presentQr(row, expired);
    const scan = this.wechat?.scanUrl;
    return scan && qr.codeUrl ? { ...qr, simScanUrl: scan(qr.codeUrl) } : qr;
  }

  // ---- rules ----

  /** An order the caller may pay that still waits for payment (spec 000 §5/§6, §8 payment messages). */
  async payable(caller: PayCaller, orderId: string): Promise<OrderForPayment> {
    const order = await this.ownOrder(caller, orderId);
    if (order.status === 'cancelled') throw new AppError('Conflict', 'The order is cancelled');
    if (order.paymentStatus !== 0) throw orderAlreadyPaid();
    // A report order is paid where the group pays its expert organization; a consultation's fee
    // exists only where the target sells consultations (its price is the product's).
    const paidTarget =
      order.type === 'consultation' || (await expertIsPaid(this.db, order.groupId, order.targetBucketId));
    if (order.priceFen === 0 || !paidTarget) {
      throw new AppError('Conflict', 'This order needs no payment');
    }
    if (!(await getDomainConfig(this.db)).enablePaymentService) {
      throw new AppError('PaymentServiceDisabled', 'The payment service is not enabled');
    }
    return order;
  }

  /** The order, when the caller may order (and so pay) it in its requesting organization. */
  async ownOrder(caller: PayCaller, orderId: string): Promise<OrderForPayment> {
    const order = await orderForPayment(this.db, orderId);
    if (!order) throw errors.notFound('Order');
    await requireIn(this.db, caller, order.requestBucketId, [ORDER_ACTION[order.type]], noPermissionToPay);
    return order;
  }

  private async orderOf(row: PaymentRow): Promise<OrderForPayment> {
    const order = row.orderId ? await orderForPayment(this.db, row.orderId) : null;
    if (!order) throw errors.notFound('Order');
    return order;
  }
}

export const orderAlreadyPaid = () => new AppError('OrderAlreadyPaid', 'The order is already paid');

function presentStatus(row: PaymentRow, paymentStatus: PaymentStatus): ChargeStatus {
  return {
    id: row.id,
    paymentNo: row.paymentNo,
    status: row.status as PaymentRowStatus,
    paymentStatus,
    paidAt: iso(row.paidAt),
  };
}

function noPayment(paymentStatus: PaymentStatus): ChargeStatus {
  return { id: null, paymentNo: null, status: null, paymentStatus, paidAt: null };
}

function presentQr(row: PaymentRow, expired: boolean): PrePaidOrder {
  return {
    id: row.id,
    paymentNo: row.paymentNo,
    codeUrl: expired ? null : row.codeUrl,
    expiresAt: iso(row.expiresAt),
    expired,
    amountFen: row.amountFen,
    currency: row.currency as Currency,
  };
}
