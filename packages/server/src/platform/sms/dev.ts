import type { SmsMessage, SmsProvider } from './provider.js';

/** A number for the log: only its last four digits show. */
function masked(phone: string): string {
  return `${'*'.repeat(Math.max(0, phone.length - 4))}${phone.slice(-4)}`;
}

/**
 * The development provider (YYP_SMS=dev): nothing is sent, the code is written to the server log
 * for whoever runs the server. Refused in production, where a code in the log is a password reset
 * for anyone who can read the log (smsSettings refuses YYP_SMS=dev there too; this is the second lock).
 */
export function createDevSms(
  log: { info(obj: object, msg: string): void },
  env: NodeJS.ProcessEnv = process.env,
): SmsProvider {
  if (env.NODE_ENV === 'production') {
    throw new Error('YYP_SMS=dev writes codes to the log and is refused in production');
  }
  return {
    kind: 'dev',
    send(message: SmsMessage): Promise<void> {
      log.info(
        { phone: masked(message.phone), purpose: message.purpose, code: message.code },
        'development SMS provider (YYP_SMS=dev): the code is written to this log, no message is sent',
      );
      return Promise.resolve();
    },
  };
}
