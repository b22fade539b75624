/** WeChat Pay API v3 Native (issue 24; docs/payments.md): the provider the payments module uses. */
export {
  WechatPayChannelError,
  WechatPayNotificationError,
  type NativeOrderInput,
  type OrderState,
  type RefundEventType,
  type RefundInput,
  type RefundStatus,
  type TradeState,
  type WechatPayNotification,
  type WechatPayProvider,
} from './provider.js';
export { createWechatPayClient, type WechatPayClientOptions } from './client.js';
export {
  wechatPaySettings,
  WECHATPAY_LIVE_BASE_URL,
  type WechatPayLiveSettings,
  type WechatPayMode,
  type WechatPaySettings,
} from './settings.js';
export { createWechatPayProvider, startWechatPay, type StartOptions, type WechatPayRuntime } from './start.js';
export type { WechatPaySimulator } from '../../sim/wechatpay/simulator.js';
