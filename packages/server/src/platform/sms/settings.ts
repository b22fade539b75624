import { SMS_FIELD_RULES } from '@yyp/contracts';
import { serviceBaseUrl } from '../service-url.js';
import { SMS_PURPOSES, type SmsPurpose } from './provider.js';

/**
 * YYP_SMS and the ALIYUN_SMS_* variables (docs/sms.md): no SMS (off), codes written to the server
 * log (dev, never in production), the loopback simulator of Alibaba Cloud SMS (sim: the default,
 * for the demo and tests) or Alibaba Cloud SMS itself (aliyun). Production defaults to off, so a
 * live server never sends codes nowhere by accident. No error message repeats the AccessKey secret.
 */
export type SmsMode = 'off' | 'dev' | 'sim' | 'aliyun';

export interface AliyunSmsSettings {
  /** https://dysmsapi.aliyuncs.com unless ALIYUN_SMS_ENDPOINT says otherwise */
  endpoint: string;
  accessKeyId: string;
  accessKeySecret: string;
  /** the approved signature, shown as 【…】 before every message */
  signName: string;
  /** the approved template (SMS_…) of each purpose; each carries one variable, ${code} */
  templates: Record<SmsPurpose, string>;
  /** RegionId of the request; cn-hangzhou serves the mainland */
  region: string;
}

export interface SmsSettings {
  mode: SmsMode;
  /** set when mode is aliyun */
  aliyun: AliyunSmsSettings | undefined;
  /** with the simulator: its port on 127.0.0.1 (YYP_SMS_SIM_PORT; 0, the default: any free one), for the e2e's inbox */
  simPort: number;
}

export const ALIYUN_SMS_ENDPOINT = 'https://dysmsapi.aliyuncs.com';
export const ALIYUN_SMS_REGION = 'cn-hangzhou';

/** The environment variable of each purpose's template code. */
export const TEMPLATE_VARIABLES: Record<SmsPurpose, string> = {
  'reset-password': 'ALIYUN_SMS_TEMPLATE_RESET_PASSWORD',
  'bind-mobile': 'ALIYUN_SMS_TEMPLATE_BIND_MOBILE',
};

const MODES: readonly SmsMode[] = ['off', 'dev', 'sim', 'aliyun'];

function required(env: NodeJS.ProcessEnv, name: string): string {
  const value = env[name]?.trim();
  if (!value) throw new Error(`YYP_SMS=aliyun needs ${name} (docs/sms.md)`);
  return value;
}

/**
 * The origin of an SMS endpoint (scheme, host and port only): https, or plain http to a simulator
 * on this host; `name` is what an error calls it.
 */
export function smsEndpointOrigin(value: string, name = 'ALIYUN_SMS_ENDPOINT'): string {
  const parsed = new URL(serviceBaseUrl({ [name]: value }, name, ALIYUN_SMS_ENDPOINT));
  if (parsed.username || parsed.password || (parsed.pathname !== '/' && parsed.pathname !== '') || parsed.search) {
    throw new Error(`${name} must be an origin (scheme, host and port only)`);
  }
  return parsed.origin;
}

const endpointOf = (env: NodeJS.ProcessEnv) => smsEndpointOrigin(env.ALIYUN_SMS_ENDPOINT ?? '');

function aliyunSettings(env: NodeJS.ProcessEnv): AliyunSmsSettings {
  const accessKeyId = required(env, 'ALIYUN_SMS_ACCESS_KEY_ID');
  if (!SMS_FIELD_RULES.accessKeyId.test(accessKeyId)) {
    throw new Error('ALIYUN_SMS_ACCESS_KEY_ID must be an AccessKey ID (letters and digits, e.g. LTAI…)');
  }
  const accessKeySecret = required(env, 'ALIYUN_SMS_ACCESS_KEY_SECRET');
  if (/\s/.test(accessKeySecret)) throw new Error('ALIYUN_SMS_ACCESS_KEY_SECRET must not contain spaces');
  const signName = required(env, 'ALIYUN_SMS_SIGN_NAME');
  if (/[【】[\]]/.test(signName)) {
    throw new Error('ALIYUN_SMS_SIGN_NAME is the signature without the brackets 【】 (e.g. 阿里云短信测试)');
  }
  const templates = {} as Record<SmsPurpose, string>;
  for (const purpose of SMS_PURPOSES) {
    const name = TEMPLATE_VARIABLES[purpose];
    const code = required(env, name);
    if (!SMS_FIELD_RULES.template.test(code)) throw new Error(`${name} must be a template code like SMS_123456789`);
    templates[purpose] = code;
  }
  const region = env.ALIYUN_SMS_REGION?.trim() || ALIYUN_SMS_REGION;
  if (!SMS_FIELD_RULES.region.test(region)) {
    throw new Error('ALIYUN_SMS_REGION must be a region id like cn-hangzhou');
  }
  return { endpoint: endpointOf(env), accessKeyId, accessKeySecret, signName, templates, region };
}

export function smsSettings(env: NodeJS.ProcessEnv): SmsSettings {
  const production = env.NODE_ENV === 'production';
  const mode = (env.YYP_SMS?.trim().toLowerCase() || (production ? 'off' : 'sim')) as SmsMode;
  if (!MODES.includes(mode)) throw new Error(`YYP_SMS must be off, dev, sim or aliyun, got "${mode}"`);
  if (mode === 'dev' && production) {
    throw new Error('YYP_SMS=dev writes codes to the log and is refused in production');
  }
  const port = env.YYP_SMS_SIM_PORT?.trim();
  const simPort = port ? Number(port) : 0;
  if (!Number.isInteger(simPort) || simPort < 0 || simPort > 65535) {
    throw new Error('YYP_SMS_SIM_PORT must be a port number (0 to 65535)');
  }
  return { mode, aliyun: mode === 'aliyun' ? aliyunSettings(env) : undefined, simPort };
}
