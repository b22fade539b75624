import { randomBytes } from 'node:crypto';
import type { SmsSimulator } from '../../sim/sms/simulator.js';
import { createAliyunSms } from './aliyun.js';
import { createDevSms } from './dev.js';
import type { SmsProvider, SmsPurpose } from './provider.js';
import type { SmsSettings } from './settings.js';

export interface SmsRuntime {
  /** null when YYP_SMS=off: the code calls answer ServiceNotConfigured */
  provider: SmsProvider | null;
  /** with YYP_SMS=sim: the loopback simulator the provider talks to (its inbox, test hooks) */
  simulator: SmsSimulator | undefined;
  close(): Promise<void>;
}

/** The simulator's templates: the ones a hospital would have approved, under made-up codes. */
const SIM_TEMPLATES: Record<SmsPurpose, { code: string; text: string }> = {
  'reset-password': {
    code: 'SMS_000000001',
    text: '您正在重置密码，验证码${code}，5分钟内有效。如非本人操作，请忽略本短信。',
  },
  'bind-mobile': {
    code: 'SMS_000000002',
    text: '您正在绑定手机号，验证码${code}，5分钟内有效。如非本人操作，请忽略本短信。',
  },
};

/**
 * The SMS service as configured: nothing (off), the development log, Alibaba Cloud SMS, or the
 * simulator started in-process on 127.0.0.1 with an AccessKey made up for it and the Alibaba
 * Cloud adapter pointed at it, so the demo and the tests go the way production goes.
 */
export async function startSms(
  settings: SmsSettings,
  opts: { log: { info(obj: object, msg: string): void }; now?: () => Date; env?: NodeJS.ProcessEnv },
): Promise<SmsRuntime> {
  const none = async () => {};
  if (settings.mode === 'off') return { provider: null, simulator: undefined, close: none };
  if (settings.mode === 'dev') return { provider: createDevSms(opts.log, opts.env), simulator: undefined, close: none };
  if (settings.mode === 'aliyun') {
    const a = settings.aliyun!;
    return {
      provider: createAliyunSms({ ...a, ...(opts.now ? { now: opts.now } : {}) }),
      simulator: undefined,
      close: none,
    };
  }
  // Loaded only for the simulator: a live server carries none of it.
  const { startSmsSimulator } = await import('../../sim/sms/simulator.js');
  const accessKeyId = `LTAI${randomBytes(8).toString('hex')}`;
  const accessKeySecret = randomBytes(15).toString('base64url');
  const signName = 'yyp';
  const simulator = await startSmsSimulator({
    accessKeyId,
    accessKeySecret,
    signName,
    templates: Object.fromEntries(Object.values(SIM_TEMPLATES).map((t) => [t.code, t.text])),
    port: settings.simPort,
    ...(opts.now ? { now: opts.now } : {}),
  });
  const provider = createAliyunSms({
    endpoint: simulator.url,
    region: 'cn-hangzhou',
    accessKeyId,
    accessKeySecret,
    signName,
    templates: {
      'reset-password': SIM_TEMPLATES['reset-password'].code,
      'bind-mobile': SIM_TEMPLATES['bind-mobile'].code,
    },
    ...(opts.now ? { now: opts.now } : {}),
  });
  return { provider, simulator, close: () => simulator.close() };
}
