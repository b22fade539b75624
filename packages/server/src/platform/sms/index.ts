/** Text messages (issue 27; docs/sms.md): the face the accounts module and main.ts use. */
export {
  SMS_PURPOSES,
  SmsSendError,
  type SmsFailure,
  type SmsMessage,
  type SmsProvider,
  type SmsPurpose,
} from './provider.js';
export { createAliyunSms, serviceNumber, type AliyunSmsOptions } from './aliyun.js';
export { createDevSms } from './dev.js';
export {
  ALIYUN_SMS_ENDPOINT,
  smsEndpointOrigin,
  smsSettings,
  type AliyunSmsSettings,
  type SmsMode,
  type SmsSettings,
} from './settings.js';
export { maskAccessKeyId, smsStatusOf, startSms, type SmsRuntime, type StartSmsOptions } from './start.js';
export type { ReceivedSms, SmsSimulator } from '../../sim/sms/simulator.js';
