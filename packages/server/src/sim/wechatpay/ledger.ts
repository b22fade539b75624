import { randomBytes, randomInt } from 'node:crypto';
import type { RefundStatus, TradeState } from '../../platform/wechatpay/provider.js';
import { rfc3339China } from '../../platform/wechatpay/client.js';

/**
 * The simulator's books: Native orders and refunds in memory, with WeChat Pay API v3's rules and
 * answer shapes (pay.weixin.qq.com/doc/v3/merchant: 下单, 查询订单, 关闭订单, 申请退款, 查询单笔退款).
 */

/** An error answer: the HTTP status and WeChat's code and message. */
export class SimError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface SimOrder {
  appid: string;
  mchid: string;
  outTradeNo: string;
  description: string;
  notifyUrl: string;
  total: number;
  currency: string;
  timeExpire: Date | undefined;
  attach: string | undefined;
  /** the pr=<id> of the code_url */
  prId: string;
  codeUrl: string;
  state: TradeState;
  transactionId: string | undefined;
  successTime: Date | undefined;
  openid: string;
}

export interface SimRefund {
  refundId: string;
  outRefundNo: string;
  outTradeNo: string;
  transactionId: string;
  reason: string | undefined;
  notifyUrl: string | undefined;
  refund: number;
  total: number;
  currency: string;
  status: RefundStatus;
  createTime: Date;
  successTime: Date | undefined;
}

export interface NativeOrderRequest {
  appid: string;
  mchid: string;
  description: string;
  out_trade_no: string;
  time_expire?: string;
  attach?: string;
  notify_url: string;
  amount: { total: number; currency?: string };
}

export interface RefundRequest {
  out_trade_no?: string;
  transaction_id?: string;
  out_refund_no: string;
  reason?: string;
  notify_url?: string;
  amount: { refund: number; total: number; currency: string };
}

const CURRENCIES = new Set(['CNY', 'USD']);

function digits(n: number): string {
  let s = '';
  while (s.length < n) s += String(randomInt(0, 10));
  return s;
}

function stamp(d: Date): string {
  return rfc3339China(d).slice(0, 10).replace(/-/g, '');
}

export class SimLedger {
  private readonly orders = new Map<string, SimOrder>();
  private readonly byPrId = new Map<string, string>();
  private readonly refunds = new Map<string, SimRefund>();

  createNative(req: NativeOrderRequest, now: Date): { code_url: string } {
    const existing = this.orders.get(req.out_trade_no);
    if (existing) {
      // The same order again (a retried request) answers the same code_url; another one under the number is refused.
      const same =
        existing.description === req.description &&
        existing.total === req.amount.total &&
        existing.currency === (req.amount.currency ?? 'CNY');
      if (!same) throw new SimError(403, 'OUT_TRADE_NO_USED', '商户订单号重复');
      if (existing.state === 'CLOSED') throw new SimError(400, 'ORDER_CLOSED', '订单已关闭');
      if (existing.state !== 'NOTPAY') throw new SimError(400, 'ORDERPAID', '该订单已支付');
      return { code_url: existing.codeUrl };
    }
    const prId = randomBytes(12).toString('base64url');
    const order: SimOrder = {
      appid: req.appid,
      mchid: req.mchid,
      outTradeNo: req.out_trade_no,
      description: req.description,
      notifyUrl: req.notify_url,
      total: req.amount.total,
      currency: req.amount.currency ?? 'CNY',
      timeExpire: req.time_expire === undefined ? undefined : new Date(req.time_expire),
      attach: req.attach,
      prId,
      codeUrl: `weixin://wxpay/bizpayurl?pr=${prId}`,
      state: 'NOTPAY',
      transactionId: undefined,
      successTime: undefined,
      openid: `oUpF8u${randomBytes(16).toString('base64url')}`,
    };
    if (!CURRENCIES.has(order.currency)) throw new SimError(400, 'PARAM_ERROR', `不支持的币种 ${order.currency}`);
    if (order.timeExpire && order.timeExpire.getTime() <= now.getTime()) {
      throw new SimError(400, 'PARAM_ERROR', 'time_expire 已过');
    }
    this.orders.set(order.outTradeNo, order);
    this.byPrId.set(prId, order.outTradeNo);
    return { code_url: order.codeUrl };
  }

  /** The order, with an unpaid one past its time_expire closed (it can no longer be paid). */
  order(outTradeNo: string, now: Date): SimOrder {
    const order = this.orders.get(outTradeNo);
    if (!order) throw new SimError(404, 'ORDER_NOT_EXIST', '订单不存在');
    if (order.state === 'NOTPAY' && order.timeExpire && order.timeExpire.getTime() <= now.getTime()) {
      order.state = 'CLOSED';
    }
    return order;
  }

  orderByCodeUrl(codeUrl: string): SimOrder | undefined {
    const prId = /^weixin:\/\/wxpay\/bizpayurl\?pr=([\w-]+)$/.exec(codeUrl)?.[1];
    const outTradeNo = prId === undefined ? undefined : this.byPrId.get(prId);
    return outTradeNo === undefined ? undefined : this.orders.get(outTradeNo);
  }

  close(outTradeNo: string, now: Date): void {
    const order = this.order(outTradeNo, now);
    if (order.state === 'SUCCESS' || order.state === 'REFUND') throw new SimError(400, 'ORDERPAID', '订单已支付');
    order.state = 'CLOSED';
  }

  /** The payer scanned and paid: NOTPAY → SUCCESS. */
  pay(outTradeNo: string, now: Date): SimOrder {
    const order = this.order(outTradeNo, now);
    if (order.state === 'CLOSED') throw new SimError(400, 'ORDER_CLOSED', '订单已关闭');
    if (order.state !== 'NOTPAY') throw new SimError(400, 'ORDERPAID', '订单已支付');
    order.state = 'SUCCESS';
    order.transactionId = `4200${stamp(now)}${digits(20)}`;
    order.successTime = now;
    return order;
  }

  refund(req: RefundRequest, now: Date): SimRefund {
    const existing = this.refunds.get(req.out_refund_no);
    if (existing) {
      if (existing.refund !== req.amount.refund || existing.outTradeNo !== (req.out_trade_no ?? existing.outTradeNo)) {
        throw new SimError(400, 'INVALID_REQUEST', '退款单号已用于另一笔退款');
      }
      return existing;
    }
    const order = req.out_trade_no
      ? this.orders.get(req.out_trade_no)
      : [...this.orders.values()].find((o) => o.transactionId === req.transaction_id);
    if (!order) throw new SimError(404, 'RESOURCE_NOT_EXISTS', '订单不存在');
    if ((order.state !== 'SUCCESS' && order.state !== 'REFUND') || order.transactionId === undefined) {
      throw new SimError(400, 'INVALID_REQUEST', '订单未支付');
    }
    if (req.amount.total !== order.total) throw new SimError(400, 'PARAM_ERROR', '订单金额与原订单不一致');
    if (req.amount.currency !== order.currency) throw new SimError(400, 'PARAM_ERROR', '币种与原订单不一致');
    if (!Number.isInteger(req.amount.refund) || req.amount.refund <= 0) {
      throw new SimError(400, 'PARAM_ERROR', '退款金额须为正整数');
    }
    const refunded = [...this.refunds.values()]
      .filter((r) => r.outTradeNo === order.outTradeNo && r.status !== 'CLOSED' && r.status !== 'ABNORMAL')
      .reduce((sum, r) => sum + r.refund, 0);
    if (refunded + req.amount.refund > order.total) throw new SimError(403, 'NOT_ENOUGH', '可退金额不足');
    const refund: SimRefund = {
      refundId: `50${digits(30)}`,
      outRefundNo: req.out_refund_no,
      outTradeNo: order.outTradeNo,
      transactionId: order.transactionId,
      reason: req.reason,
      notifyUrl: req.notify_url,
      refund: req.amount.refund,
      total: order.total,
      currency: order.currency,
      status: 'PROCESSING',
      createTime: now,
      successTime: undefined,
    };
    this.refunds.set(refund.outRefundNo, refund);
    order.state = 'REFUND';
    return refund;
  }

  refundOf(outRefundNo: string): SimRefund {
    const refund = this.refunds.get(outRefundNo);
    if (!refund) throw new SimError(404, 'RESOURCE_NOT_EXISTS', '退款单不存在');
    return refund;
  }

  /** The money reached the payer: PROCESSING → SUCCESS (or ABNORMAL/CLOSED when a test says so). */
  settleRefund(outRefundNo: string, now: Date, status: RefundStatus = 'SUCCESS'): SimRefund {
    const refund = this.refundOf(outRefundNo);
    if (refund.status === 'PROCESSING') {
      refund.status = status;
      if (status === 'SUCCESS') refund.successTime = now;
    }
    return refund;
  }
}

/** GET /v3/pay/transactions/out-trade-no/{no} and the TRANSACTION.SUCCESS resource */
export function transactionJson(o: SimOrder): Record<string, unknown> {
  const paid = o.transactionId !== undefined;
  return {
    appid: o.appid,
    mchid: o.mchid,
    out_trade_no: o.outTradeNo,
    ...(paid ? { transaction_id: o.transactionId } : {}),
    trade_type: 'NATIVE',
    trade_state: o.state,
    trade_state_desc: TRADE_STATE_DESC[o.state],
    ...(paid ? { bank_type: 'OTHERS' } : {}),
    attach: o.attach ?? '',
    ...(o.successTime ? { success_time: rfc3339China(o.successTime) } : {}),
    ...(paid ? { payer: { openid: o.openid } } : {}),
    amount: paid
      ? { total: o.total, payer_total: o.total, currency: o.currency, payer_currency: o.currency }
      : { total: o.total, currency: o.currency },
  };
}

const TRADE_STATE_DESC: Record<TradeState, string> = {
  SUCCESS: '支付成功',
  NOTPAY: '未支付',
  CLOSED: '已关闭',
  REFUND: '转入退款',
  USERPAYING: '用户支付中',
  PAYERROR: '支付失败',
  REVOKED: '已撤销',
};

/** POST/GET /v3/refund/domestic/refunds answers */
export function refundJson(r: SimRefund): Record<string, unknown> {
  return {
    refund_id: r.refundId,
    out_refund_no: r.outRefundNo,
    transaction_id: r.transactionId,
    out_trade_no: r.outTradeNo,
    channel: 'ORIGINAL',
    user_received_account: '支付用户零钱',
    ...(r.successTime ? { success_time: rfc3339China(r.successTime) } : {}),
    create_time: rfc3339China(r.createTime),
    status: r.status,
    funds_account: 'AVAILABLE',
    amount: {
      total: r.total,
      refund: r.refund,
      payer_total: r.total,
      payer_refund: r.refund,
      settlement_refund: r.refund,
      settlement_total: r.total,
      discount_refund: 0,
      currency: r.currency,
      refund_fee: 0,
    },
  };
}

/** The REFUND.* notification's resource */
export function refundResourceJson(r: SimRefund, mchid: string): Record<string, unknown> {
  return {
    mchid,
    out_trade_no: r.outTradeNo,
    transaction_id: r.transactionId,
    out_refund_no: r.outRefundNo,
    refund_id: r.refundId,
    refund_status: r.status,
    ...(r.successTime ? { success_time: rfc3339China(r.successTime) } : {}),
    user_received_account: '支付用户零钱',
    amount: { total: r.total, refund: r.refund, payer_total: r.total, payer_refund: r.refund },
  };
}
