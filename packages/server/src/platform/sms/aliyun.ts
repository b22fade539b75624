import { serviceNumber } from './phone.js';
import { SmsSendError, type SmsFailure, type SmsMessage, type SmsProvider, type SmsPurpose } from './provider.js';
import { signedSendSmsParams } from './signature.js';

export interface AliyunSmsOptions {
  endpoint: string;
  region: string;
  accessKeyId: string;
  accessKeySecret: string;
  signName: string;
  templates: Record<SmsPurpose, string>;
  now?: () => Date;
  /** how long an answer is waited for (default 10 s) */
  timeoutMs?: number;
}

/** The answer of SendSms (and of its errors): Code OK when the message was accepted. */
interface SendSmsAnswer {
  Code?: string;
  Message?: string;
  RequestId?: string;
  BizId?: string;
}

/** Alibaba Cloud's codes that say the number's flow control was reached, or the number is refused. */
const RATE_LIMITED = new Set(['isv.BUSINESS_LIMIT_CONTROL', 'isv.DAY_LIMIT_CONTROL']);
const BAD_NUMBER = new Set(['isv.MOBILE_NUMBER_ILLEGAL', 'isv.MOBILE_COUNT_OVER_LIMIT']);

function failureOf(code: string): SmsFailure {
  if (RATE_LIMITED.has(code)) return 'rate-limited';
  if (BAD_NUMBER.has(code)) return 'invalid-number';
  // Keys, signature, template, balance, account: the administrator's configuration must change.
  return 'rejected';
}

/**
 * The adapter for Alibaba Cloud SMS (Dysmsapi 2017-05-25, SendSms; docs/sms.md): one signed
 * form POST per message, the code as the template's `code` parameter. Its answers' codes become
 * SmsSendError reasons; no message repeats the secret or the code.
 */
export function createAliyunSms(options: AliyunSmsOptions): SmsProvider {
  const now = options.now ?? (() => new Date());
  const timeoutMs = options.timeoutMs ?? 10_000;
  return {
    kind: 'aliyun',
    async send(message: SmsMessage): Promise<void> {
      const params = signedSendSmsParams({
        accessKeyId: options.accessKeyId,
        accessKeySecret: options.accessKeySecret,
        region: options.region,
        phoneNumbers: serviceNumber(message.phone),
        signName: options.signName,
        templateCode: options.templates[message.purpose],
        templateParam: { code: message.code },
        now: now(),
      });
      let res: Response;
      try {
        res = await fetch(`${options.endpoint}/`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
          body: new URLSearchParams(params).toString(),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (err) {
        const what =
          err instanceof Error && err.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : 'unreachable';
        throw new SmsSendError('unavailable', `Alibaba Cloud SMS is ${what}`);
      }
      let answer: SendSmsAnswer;
      try {
        answer = (await res.json()) as SendSmsAnswer;
      } catch {
        throw new SmsSendError('unavailable', `Alibaba Cloud SMS answered HTTP ${res.status} without JSON`);
      }
      if (res.ok && answer.Code === 'OK') return;
      if (res.status >= 500 || typeof answer.Code !== 'string') {
        throw new SmsSendError('unavailable', `Alibaba Cloud SMS answered HTTP ${res.status}`, answer.Code);
      }
      throw new SmsSendError(
        failureOf(answer.Code),
        `Alibaba Cloud SMS refused the message: ${answer.Code} (request ${answer.RequestId ?? 'unknown'})`,
        answer.Code,
      );
    },
  };
}
