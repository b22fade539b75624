import type { Currency } from '@yyp/contracts';

/** trade_state of WeChat Pay API v3 (query by out_trade_no) */
export type TradeState = 'SUCCESS' | 'NOTPAY' | 'CLOSED' | 'REFUND' | 'USERPAYING' | 'PAYERROR' | 'REVOKED';
export const TRADE_STATES: readonly TradeState[] = [
  'SUCCESS',
  'NOTPAY',
  'CLOSED',
  'REFUND',
  'USERPAYING',
  'PAYERROR',
  'REVOKED',
];

/** status of a refund (POST/GET /v3/refund/domestic/refunds) */
export type RefundStatus = 'SUCCESS' | 'PROCESSING' | 'ABNORMAL' | 'CLOSED';
export const REFUND_STATUSES: readonly RefundStatus[] = ['SUCCESS', 'PROCESSING', 'ABNORMAL', 'CLOSED'];

export type RefundEventType = 'REFUND.SUCCESS' | 'REFUND.ABNORMAL' | 'REFUND.CLOSED';

export interface NativeOrderInput {
  outTradeNo: string;
  description: string;
  amountFen: number;
  currency: Currency;
  notifyUrl: string;
  expiresAt: Date;
}

export interface OrderState {
  tradeState: TradeState;
  transactionId?: string;
  amountFen?: number;
  currency?: string;
  successTime?: Date;
}

export interface RefundInput {
  outTradeNo: string;
  outRefundNo: string;
  refundFen: number;
  totalFen: number;
  currency: Currency;
  reason?: string;
  notifyUrl: string;
}

export type WechatPayNotification =
  | {
      eventType: 'TRANSACTION.SUCCESS';
      transaction: {
        outTradeNo: string;
        transactionId: string;
        tradeState: string;
        amountFen: number;
        currency: string;
        successTime: Date;
      };
    }
  | {
      eventType: RefundEventType;
      refund: { outTradeNo: string; outRefundNo: string; refundId: string; status: string; refundFen: number };
    };

/** WeChat Pay API v3 Native, as the payments module uses it (docs/payments.md). */
export interface WechatPayProvider {
  /** POST /v3/pay/transactions/native: the code_url to show as a QR code */
  createNativeOrder(i: NativeOrderInput): Promise<{ codeUrl: string }>;
  /** GET /v3/pay/transactions/out-trade-no/{no}; an unknown order throws WechatPayChannelError ORDER_NOT_EXIST */
  queryOrder(outTradeNo: string): Promise<OrderState>;
  /** POST /v3/pay/transactions/out-trade-no/{no}/close */
  closeOrder(outTradeNo: string): Promise<void>;
  /** POST /v3/refund/domestic/refunds; the same outRefundNo again answers the same refund */
  refund(i: RefundInput): Promise<{ refundId: string; status: RefundStatus }>;
  /** GET /v3/refund/domestic/refunds/{no} */
  queryRefund(outRefundNo: string): Promise<{ refundId: string; status: RefundStatus; amountFen: number }>;
  /**
   * Verifies Wechatpay-Signature/-Timestamp/-Nonce/-Serial over the raw body with the platform
   * certificate (and the timestamp within 5 minutes), then decrypts the AEAD_AES_256_GCM resource
   * with the APIv3 key. Throws WechatPayNotificationError when anything does not verify.
   */
  parseNotification(headers: Record<string, string | undefined>, rawBody: string): WechatPayNotification;
}

/** A notification that does not verify, decrypt or parse: answer it 4xx and audit it, change nothing. */
export class WechatPayNotificationError extends Error {
  override name = 'WechatPayNotificationError';
}

/**
 * WeChat Pay did not answer as it should: an error answer (status and WeChat's code, e.g.
 * ORDER_NOT_EXIST, NOT_ENOUGH, ORDERPAID), no answer, or an answer whose signature does not verify
 * (code SIGNATURE_INVALID). The payments module maps it to PaymentChannelError (502).
 */
export class WechatPayChannelError extends Error {
  override name = 'WechatPayChannelError';
  constructor(
    message: string,
    /** HTTP status of WeChat's answer; undefined when there was none */
    readonly status: number | undefined,
    /** WeChat's error code, or SIGNATURE_INVALID, NETWORK, BAD_ANSWER */
    readonly code: string,
  ) {
    super(message);
  }
}
