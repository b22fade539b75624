import type { SmsPurpose } from './provider.js';

/**
 * YYP_SMS and the ALIYUN_SMS_* variables (docs/sms.md): off, the development log (never in
 * production), the loopback simulator of Alibaba Cloud SMS (default, for the demo and tests; off
 * by default in production) or Alibaba Cloud SMS itself. The secret is kept only to reach the
 * adapter; no error message repeats it.
 */
export type SmsMode = 'off' | 'dev' | 'sim' | 'aliyun';
const MODES: readonly SmsMode[] = ['off', 'dev', 'sim', 'aliyun'];

export interface AliyunSmsSettings {
  /** https://dysmsapi.aliyuncs.com unless ALIYUN_SMS_ENDPOINT says otherwise */
  endpoint: string;
  region: string;
  accessKeyId: string;
  accessKeySecret: string;
  signName: string;
  templates: Record<SmsPurpose, string>;
}

export interface SmsSettings {
  mode: SmsMode;
  /** set when mode is aliyun */
  aliyun: AliyunSmsSettings | undefined;
  /** with the simulator: its port on 127.0.0.1 (YYP_SMS_SIM_PORT; 0, the default, any free one) */
  simPort: number;
}

export const ALIYUN_SMS_ENDPOINT = 'https://dysmsapi.aliyuncs.com';

function required(env: NodeJS.ProcessEnv, name: string): string {
  const value = env[name]?.trim();
  if (!value) throw new Error(`YYP_SMS=aliyun needs ${name} (docs/sms.md)`);
  return value;
}

function template(env: NodeJS.ProcessEnv, name: string): string {
  const value = required(env, name);
  if (!/^SMS_[0-9]{4,20}$/.test(value)) throw new Error(`${name} must be a template code such as SMS_123456789`);
  return value;
}

/** An https URL (http only on loopback), without a trailing slash. */
function endpointOf(env: NodeJS.ProcessEnv): string {
  const value = (env.ALIYUN_SMS_ENDPOINT?.trim() || ALIYUN_SMS_ENDPOINT).replace(/\/+$/, '');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error('ALIYUN_SMS_ENDPOINT must be an https URL');
  }
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  if (url.protocol !== 'https:' && !(loopback && url.protocol === 'http:')) {
    throw new Error('ALIYUN_SMS_ENDPOINT must be an https URL (http only on loopback)');
  }
  return value;
}

function aliyunSettings(env: NodeJS.ProcessEnv): AliyunSmsSettings {
  const accessKeyId = required(env, 'ALIYUN_SMS_ACCESS_KEY_ID');
  if (!/^[A-Za-z0-9]{8,64}$/.test(accessKeyId)) throw new Error('ALIYUN_SMS_ACCESS_KEY_ID must be an AccessKey ID');
  const signName = required(env, 'ALIYUN_SMS_SIGN_NAME');
  if ([...signName].length > 64) throw new Error('ALIYUN_SMS_SIGN_NAME may have at most 64 characters');
  const region = env.ALIYUN_SMS_REGION?.trim() || 'cn-hangzhou';
  if (!/^[a-z]{2}-[a-z0-9-]{2,30}$/.test(region)) {
    throw new Error('ALIYUN_SMS_REGION must be a region id such as cn-hangzhou');
  }
  return {
    endpoint: endpointOf(env),
    region,
    accessKeyId,
    accessKeySecret: required(env, 'ALIYUN_SMS_ACCESS_KEY_SECRET'),
    signName,
    templates: {
      'reset-password': template(env, 'ALIYUN_SMS_TEMPLATE_RESET_PASSWORD'),
      'bind-mobile': template(env, 'ALIYUN_SMS_TEMPLATE_BIND_MOBILE'),
    },
  };
}

export function smsSettings(env: NodeJS.ProcessEnv): SmsSettings {
  const production = env.NODE_ENV === 'production';
  const mode = (env.YYP_SMS?.trim().toLowerCase() || (production ? 'off' : 'sim')) as SmsMode;
  if (!MODES.includes(mode)) throw new Error(`YYP_SMS must be off, dev, sim or aliyun, got "${mode}"`);
  if (mode === 'dev' && production) {
    throw new Error('YYP_SMS=dev writes codes to the log and is refused in production (NODE_ENV=production)');
  }
  const port = env.YYP_SMS_SIM_PORT?.trim() || '0';
  const simPort = Number(port);
  if (!/^[0-9]+$/.test(port) || simPort > 65535) {
    throw new Error('YYP_SMS_SIM_PORT must be a port number (0: any free one)');
  }
  return { mode, aliyun: mode === 'aliyun' ? aliyunSettings(env) : undefined, simPort };
}
