import { AppError } from '../../platform/errors.js';
import { WechatPayChannelError, type WechatPayProvider } from '../../platform/wechatpay/provider.js';

/** WeChat Pay as the payments module reaches it, with the URLs its notifications come back to. */
export interface WechatChannel {
  provider: WechatPayProvider;
  /** the API's public base, e.g. https://pacs.example.cn/yyp/api/v1 (or the loopback address in sim mode) */
  apiBaseUrl: () => string;
  /** the simulator's page that "scans" a code_url (YYP_WECHATPAY=sim only; the demo's payer page links it) */
  scanUrl?: (codeUrl: string) => string;
}

export const notifyUrlOf = (c: WechatChannel) => `${c.apiBaseUrl()}/payments/weixin/notify`;
export const refundNotifyUrlOf = (c: WechatChannel) => `${c.apiBaseUrl()}/payments/weixin/refund-notify`;

/** The channel, or PaymentServiceDisabled when WeChat Pay is off (YYP_WECHATPAY=off). */
export function requireWechat(c: WechatChannel | null): WechatChannel {
  if (!c) throw new AppError('PaymentServiceDisabled', 'Payment by WeChat is not enabled on this server');
  return c;
}

/** WeChat's code of a channel error (ORDER_NOT_EXIST, ORDERPAID…), '' for anything else. */
export const channelCode = (err: unknown) => (err instanceof WechatPayChannelError ? err.code : '');

/** A call to WeChat Pay; its failures answer PaymentChannelError (502, "server not responding"). */
export async function viaChannel<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof WechatPayChannelError) {
      throw new AppError('PaymentChannelError', `WeChat Pay did not ${what}`, { channelCode: err.code });
    }
    throw err;
  }
}
