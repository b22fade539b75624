import { SmsSendError, type SmsFailure, type SmsMessage, type SmsProvider } from './provider.js';
import type { AliyunSmsSettings } from './settings.js';
import { signedSendSmsParams } from './signature.js';

/** The account's settings (endpoint: Alibaba Cloud's, or the simulator's loopback origin), and the clock. */
export interface AliyunSmsOptions extends AliyunSmsSettings {
  now?: () => Date;
  /** how long an answer is waited for (default 10 s; Alibaba advises at least 1 s) */
  timeoutMs?: number;
}

/** SendSms's answer, and the gateway's errors: Code OK when the service accepted the message. */
interface SendSmsAnswer {
  Code?: unknown;
  Message?: unknown;
  RequestId?: unknown;
  BizId?: unknown;
}

/**
 * The number as SendSms takes it (PhoneNumbers): a mainland number as its 11 digits, a +86 or 86
 * prefix dropped; any other number written with + as country code and number without + (the form
 * of Alibaba Cloud's international SMS, e.g. 85200001234, which needs an international template);
 * anything else as it is, for the service to judge (isv.MOBILE_NUMBER_ILLEGAL).
 */
export function serviceNumber(phone: string): string {
  const trimmed = phone.trim();
  const mainland = /^\+?86(1\d{10})$/.exec(trimmed);
  if (mainland) return mainland[1]!;
  return trimmed.startsWith('+') ? trimmed.slice(1) : trimmed;
}

/** The service's codes (docs: 国内消息API错误码) that are about the number rather than our setup. */
const RATE_LIMITED = new Set(['isv.BUSINESS_LIMIT_CONTROL', 'isv.DAY_LIMIT_CONTROL']);
const BAD_NUMBER = new Set(['isv.MOBILE_NUMBER_ILLEGAL', 'isv.MOBILE_COUNT_OVER_LIMIT']);
/** Passing trouble on the service's side (its QPS throttling, system errors): try again later. */
const TRANSIENT = /^(Throttling(\..*)?|ServiceUnavailable|InternalError|isp\.SYSTEM_ERROR)$/;

/** What the administrator should look at, for the refusals that name it. */
const HINTS: Record<string, string> = {
  'InvalidAccessKeyId.NotFound': 'the AccessKey ID is unknown (ALIYUN_SMS_ACCESS_KEY_ID)',
  'InvalidAccessKeyId.Inactive': 'the AccessKey is disabled (ALIYUN_SMS_ACCESS_KEY_ID)',
  SignatureDoesNotMatch: 'the request signature does not verify (ALIYUN_SMS_ACCESS_KEY_SECRET)',
  'InvalidTimeStamp.Expired': "the server's clock is more than 15 minutes off",
  'isv.SMS_SIGNATURE_ILLEGAL': 'the sign name is not approved for this account (ALIYUN_SMS_SIGN_NAME)',
  'isv.SMS_TEMPLATE_ILLEGAL': 'the template is not approved for this account (ALIYUN_SMS_TEMPLATE_*)',
  'isv.TEMPLATE_MISSING_PARAMETERS': 'the template does not take the single variable ${code}',
  'isv.ACCOUNT_NOT_EXISTS': 'the account does not exist',
  'isv.AMOUNT_NOT_ENOUGH': 'the account balance is too low',
  'isv.OUT_OF_SERVICE': 'the account is suspended (balance)',
  'isp.RAM_PERMISSION_DENY': 'the AccessKey lacks the AliyunDysmsFullAccess permission',
};

function failureOf(code: string): SmsFailure {
  if (RATE_LIMITED.has(code)) return 'rate-limited';
  if (BAD_NUMBER.has(code)) return 'invalid-number';
  if (TRANSIENT.test(code)) return 'unavailable';
  // Keys, signature, sign name, template, balance, account, and codes not known here: someone
  // must change the configuration or the account before a message can go.
  return 'rejected';
}

function describe(reason: SmsFailure, code: string): string {
  if (reason === 'rate-limited') return "the number reached the service's flow control";
  if (reason === 'invalid-number') return 'the service does not take this number';
  if (reason === 'unavailable') return 'the service is busy or failing';
  return HINTS[code] ?? 'the service refused the request';
}

/**
 * The adapter for Alibaba Cloud SMS (Dysmsapi 2017-05-25 SendSms; docs/sms.md): one signed form
 * POST to the endpoint's root per message, the code as the template's `code` variable. The
 * service's answer codes become SmsSendError reasons. The messages name the service's code and
 * request id (for a support ticket), never the secret, the number or the verification code, and
 * never repeat the service's Message (SignatureDoesNotMatch's carries the whole string to sign).
 */
export function createAliyunSms(options: AliyunSmsOptions): SmsProvider {
  const now = options.now ?? (() => new Date());
  const timeoutMs = options.timeoutMs ?? 10_000;
  const url = `${options.endpoint.replace(/\/+$/, '')}/`;

  return {
    kind: 'aliyun',
    async send(message: SmsMessage): Promise<void> {
      const params = signedSendSmsParams(
        {
          accessKeyId: options.accessKeyId,
          accessKeySecret: options.accessKeySecret,
          region: options.region,
          phoneNumbers: serviceNumber(message.phone),
          signName: options.signName,
          templateCode: options.templates[message.purpose],
          templateParam: { code: message.code },
          now: now(),
        },
        'POST',
      );
      let res: Response;
      let text: string;
      try {
        res = await fetch(url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
          body: new URLSearchParams(params).toString(),
          redirect: 'error',
          signal: AbortSignal.timeout(timeoutMs),
        });
        text = await res.text();
      } catch (err) {
        const timedOut = err instanceof Error && err.name === 'TimeoutError';
        const cause = (err as { cause?: { code?: unknown } }).cause?.code;
        throw new SmsSendError(
          'unavailable',
          timedOut
            ? `Alibaba Cloud SMS gave no answer within ${timeoutMs} ms`
            : `Alibaba Cloud SMS is unreachable${typeof cause === 'string' ? ` (${cause})` : ''}`,
        );
      }
      let answer: SendSmsAnswer | undefined;
      try {
        const parsed: unknown = JSON.parse(text);
        if (parsed !== null && typeof parsed === 'object') answer = parsed as SendSmsAnswer;
      } catch {
        // not JSON: below
      }
      const code = typeof answer?.Code === 'string' ? answer.Code : undefined;
      if (res.status >= 500 || code === undefined) {
        throw new SmsSendError(
          'unavailable',
          `Alibaba Cloud SMS answered HTTP ${res.status}${code ? ` ${code}` : answer ? ' without a Code' : ' without JSON'}`,
          code,
        );
      }
      if (code === 'OK' && res.ok) return;
      const reason = failureOf(code);
      const requestId = typeof answer?.RequestId === 'string' ? ` (request ${answer.RequestId})` : '';
      throw new SmsSendError(
        reason,
        `Alibaba Cloud SMS did not send the message: ${describe(reason, code)} [${code}]${requestId}`,
        code,
      );
    },
  };
}
