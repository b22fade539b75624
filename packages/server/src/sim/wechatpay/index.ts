/** The local WeChat Pay API v3 simulator (docs/payments.md "The simulator"). */
export {
  startWechatPaySimulator,
  type NotifyOptions,
  type SimulatorOptions,
  type WechatPaySimulator,
} from './simulator.js';
export type { Delivery, Tamper } from './notifier.js';
export { makePlatformCertificate, type PlatformCertificate } from './certificate.js';
