/**
 * Text messages (issue 27: "an SMS provider interface with a real adapter for one Chinese SMS
 * service's HTTP API ... a development provider that writes codes to the log, refused when
 * NODE_ENV is production"). The accounts module sends verification codes through this face only.
 */

/** What a code is for: each has its own message template at the SMS service. */
export type SmsPurpose = 'reset-password' | 'bind-mobile';
export const SMS_PURPOSES: readonly SmsPurpose[] = ['reset-password', 'bind-mobile'];

export interface SmsMessage {
  /** the number as the account holds it: digits, an optional leading + (mainland numbers without +86) */
  phone: string;
  purpose: SmsPurpose;
  /** the verification code the template carries (its only parameter, `code`) */
  code: string;
}

/**
 * Why a message was not sent: the service's flow control for that number (rate-limited), a number
 * it does not accept (invalid-number), a refusal of the account's configuration (rejected: bad
 * key, sign name or template; the administrator must act), or no answer (unavailable).
 */
export type SmsFailure = 'rate-limited' | 'invalid-number' | 'rejected' | 'unavailable';

export class SmsSendError extends Error {
  constructor(
    readonly reason: SmsFailure,
    message: string,
    /** the service's own code (e.g. isv.BUSINESS_LIMIT_CONTROL), for the log */
    readonly serviceCode?: string,
  ) {
    super(message);
    this.name = 'SmsSendError';
  }
}

export interface SmsProvider {
  /** for the log and the platform admin's settings page */
  readonly kind: 'aliyun' | 'dev';
  /** Sends one message; resolves once the service accepted it, else throws SmsSendError. */
  send(message: SmsMessage): Promise<void>;
}
