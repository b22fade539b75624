import { randomBytes } from 'node:crypto';
import { SMS_CODE_TTL_SECONDS, type SmsStatus } from '@yyp/contracts';
import type { SmsSimulator } from '../../sim/sms/simulator.js';
import { createAliyunSms } from './aliyun.js';
import { createDevSms } from './dev.js';
import type { SmsProvider, SmsPurpose } from './provider.js';
import type { AliyunSmsSettings, SmsSettings } from './settings.js';

export interface SmsRuntime {
  /** null when YYP_SMS=off: the code calls answer ServiceNotConfigured */
  provider: SmsProvider | null;
  /** with YYP_SMS=sim: the loopback simulator the provider talks to (its inbox, test hooks) */
  simulator: SmsSimulator | undefined;
  /** what is in effect, for the platform admin (never the secret) */
  status: SmsStatus;
  close(): Promise<void>;
}

export interface StartSmsOptions {
  /** where the development provider writes codes (the server's logger) */
  log: { info(obj: object, msg: string): void };
  now?: () => Date;
  /** the environment the development provider checks for production (default process.env) */
  env?: NodeJS.ProcessEnv;
}

const minutes = Math.round(SMS_CODE_TTL_SECONDS / 60);
/** The simulator's templates: what a hospital would have approved, under made-up codes. */
const SIM_TEMPLATES: Record<SmsPurpose, { code: string; text: string }> = {
  'reset-password': {
    code: 'SMS_000000001',
    text: `您正在重置密码，验证码\${code}，${minutes}分钟内有效。如非本人操作，请忽略本短信。`,
  },
  'bind-mobile': {
    code: 'SMS_000000002',
    text: `您正在绑定手机号，验证码\${code}，${minutes}分钟内有效。如非本人操作，请忽略本短信。`,
  },
};
export const SIM_SIGN_NAME = 'yyp';

/**
 * The SMS service as configured: nothing (off), the development log (dev), Alibaba Cloud SMS
 * (aliyun), or the simulator of its API started in-process on 127.0.0.1 with an AccessKey made up
 * for it and the very same Alibaba Cloud adapter pointed at it (sim), so the demo and the tests
 * send codes the way production does.
 */
export async function startSms(settings: SmsSettings, opts: StartSmsOptions): Promise<SmsRuntime> {
  const none = async () => {};
  const now = opts.now ? { now: opts.now } : {};
  if (settings.mode === 'off' || settings.mode === 'dev') {
    const provider = settings.mode === 'dev' ? createDevSms(opts.log, opts.env ?? process.env) : null;
    return { provider, simulator: undefined, status: smsStatusOf(settings.mode), close: none };
  }
  if (settings.mode === 'aliyun') {
    if (!settings.aliyun) throw new Error('YYP_SMS=aliyun without its settings (use smsSettings)');
    const provider = createAliyunSms({ ...settings.aliyun, ...now });
    return { provider, simulator: undefined, status: smsStatusOf('aliyun', settings.aliyun), close: none };
  }
  // Loaded only for the simulator: a live server carries none of it.
  const { startSmsSimulator } = await import('../../sim/sms/simulator.js');
  const key = {
    accessKeyId: `LTAI${randomBytes(9).toString('hex')}`,
    accessKeySecret: randomBytes(22).toString('base64url'),
  };
  const simulator = await startSmsSimulator({
    ...key,
    signName: SIM_SIGN_NAME,
    templates: Object.fromEntries(Object.values(SIM_TEMPLATES).map((t) => [t.code, t.text])),
    port: settings.simPort,
    ...now,
  });
  const aliyun: AliyunSmsSettings = {
    endpoint: simulator.url,
    region: 'cn-hangzhou',
    ...key,
    signName: SIM_SIGN_NAME,
    templates: {
      'reset-password': SIM_TEMPLATES['reset-password'].code,
      'bind-mobile': SIM_TEMPLATES['bind-mobile'].code,
    },
  };
  const provider = createAliyunSms({ ...aliyun, ...now });
  const status = { ...smsStatusOf('sim', aliyun), inboxUrl: simulator.inboxUrl };
  return { provider, simulator, status, close: () => simulator.close() };
}

/** An AccessKey ID with its middle masked: LTAI****3f. */
export function maskAccessKeyId(id: string): string {
  return id.length <= 8 ? '****' : `${id.slice(0, 4)}****${id.slice(-2)}`;
}

/** The status the platform admin sees of a mode and, for aliyun and the simulator, its account. */
export function smsStatusOf(mode: SmsStatus['mode'], aliyun?: AliyunSmsSettings): SmsStatus {
  return {
    mode,
    endpoint: aliyun?.endpoint ?? null,
    region: aliyun?.region ?? null,
    signName: aliyun?.signName ?? null,
    templates: aliyun
      ? { resetPassword: aliyun.templates['reset-password'], bindMobile: aliyun.templates['bind-mobile'] }
      : null,
    accessKeyId: aliyun ? maskAccessKeyId(aliyun.accessKeyId) : null,
    inboxUrl: null,
    source: 'environment',
    updatedAt: null,
    secretUnreadable: false,
  };
}
