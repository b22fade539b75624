// The face of the SMS service (issue 27; docs/sms.md): what the accounts module and main.ts use.
export { createAliyunSms, type AliyunSmsOptions } from './aliyun.js';
export { createDevSms } from './dev.js';
export { maskedPhone, serviceNumber } from './phone.js';
export {
  SMS_PURPOSES,
  SmsSendError,
  type SmsFailure,
  type SmsMessage,
  type SmsProvider,
  type SmsPurpose,
} from './provider.js';
export { smsSettings, type AliyunSmsSettings, type SmsMode, type SmsSettings } from './settings.js';
export { startSms, type SmsRuntime } from './start.js';
