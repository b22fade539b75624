import { maskedPhone } from './phone.js';
import type { SmsMessage, SmsProvider } from './provider.js';

/**
 * The development provider (YYP_SMS=dev): no message is sent, the code is written to the server
 * log for whoever runs the server. Refused in production, where a code in the log is a password
 * reset for anyone who reads it.
 */
export function createDevSms(
  log: { info(obj: object, msg: string): void },
  env: NodeJS.ProcessEnv = process.env,
): SmsProvider {
  if (env.NODE_ENV === 'production') {
    throw new Error('the development SMS provider writes codes to the log and is refused in production');
  }
  return {
    kind: 'dev',
    send(message: SmsMessage): Promise<void> {
      log.info(
        { phone: maskedPhone(message.phone), purpose: message.purpose, code: message.code },
        'development SMS provider: the code is written here instead of being sent (YYP_SMS=dev)',
      );
      return Promise.resolve();
    },
  };
}
