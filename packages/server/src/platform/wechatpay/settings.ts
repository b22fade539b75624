import { serviceBaseUrl } from '../service-url.js';
/**
 * YYP_WECHATPAY and the WECHATPAY_* variables (docs/payments.md): off, the loopback simulator
 * (default, for the demo and tests) or the live API with the merchant's credentials. Secrets are
 * kept here only to reach the adapter; no error message repeats them.
 */
export type WechatPayMode = 'off' | 'sim' | 'live';

export interface WechatPayLiveSettings {
  /** https://api.mch.weixin.qq.com unless WECHATPAY_BASE_URL says otherwise (api2 is the standby) */
  baseUrl: string;
  mchid: string;
  appid: string;
  /** serial number of the merchant's API certificate (apiclient_cert.pem) */
  merchantSerial: string;
  /** apiclient_key.pem */
  privateKeyFile: string;
  /** the 32-byte APIv3 key set in the merchant platform */
  apiV3Key: string;
  /** WeChat Pay platform certificates (PEM files; several while one is being rotated) */
  platformCertFiles: string[];
  /** or WeChat Pay's public key (pub_key.pem) with its id PUB_KEY_ID_… */
  publicKeyFile: string | undefined;
  publicKeyId: string | undefined;
}

export interface WechatPaySettings {
  mode: WechatPayMode;
  /** set when mode is live */
  live: WechatPayLiveSettings | undefined;
  /** with the simulator: how long a refund stays PROCESSING before it succeeds (0: at once) */
  simRefundDelayMs: number;
}

export const WECHATPAY_LIVE_BASE_URL = 'https://api.mch.weixin.qq.com';

function required(env: NodeJS.ProcessEnv, name: string): string {
  const value = env[name]?.trim();
  if (!value) throw new Error(`YYP_WECHATPAY=live needs ${name} (docs/payments.md)`);
  return value;
}

function liveSettings(env: NodeJS.ProcessEnv): WechatPayLiveSettings {
  const mchid = required(env, 'WECHATPAY_MCHID');
  if (!/^\d{6,32}$/.test(mchid)) throw new Error('WECHATPAY_MCHID must be the merchant number (digits)');
  const merchantSerial = required(env, 'WECHATPAY_MERCHANT_SERIAL');
  if (!/^[0-9A-Fa-f]{8,64}$/.test(merchantSerial)) {
    throw new Error('WECHATPAY_MERCHANT_SERIAL must be the API certificate serial number (hexadecimal)');
  }
  const apiV3Key = required(env, 'WECHATPAY_APIV3_KEY');
  if (Buffer.byteLength(apiV3Key) !== 32) throw new Error('WECHATPAY_APIV3_KEY must be 32 bytes long');
  const baseUrl = serviceBaseUrl(env, 'WECHATPAY_BASE_URL', WECHATPAY_LIVE_BASE_URL);
  const platformCertFiles = (env.WECHATPAY_PLATFORM_CERT_FILE ?? '')
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  const publicKeyFile = env.WECHATPAY_PUBLIC_KEY_FILE?.trim() || undefined;
  const publicKeyId = env.WECHATPAY_PUBLIC_KEY_ID?.trim() || undefined;
  if ((publicKeyFile === undefined) !== (publicKeyId === undefined)) {
    throw new Error('WECHATPAY_PUBLIC_KEY_FILE and WECHATPAY_PUBLIC_KEY_ID are set together or not at all');
  }
  if (platformCertFiles.length === 0 && publicKeyFile === undefined) {
    throw new Error(
      'YYP_WECHATPAY=live needs WECHATPAY_PLATFORM_CERT_FILE or WECHATPAY_PUBLIC_KEY_FILE with WECHATPAY_PUBLIC_KEY_ID',
    );
  }
  return {
    baseUrl,
    mchid,
    appid: required(env, 'WECHATPAY_APPID'),
    merchantSerial: merchantSerial.toUpperCase(),
    privateKeyFile: required(env, 'WECHATPAY_PRIVATE_KEY_FILE'),
    apiV3Key,
    platformCertFiles,
    publicKeyFile,
    publicKeyId,
  };
}

export function wechatPaySettings(env: NodeJS.ProcessEnv): WechatPaySettings {
  const mode = (env.YYP_WECHATPAY?.trim().toLowerCase() || 'sim') as WechatPayMode;
  if (!['off', 'sim', 'live'].includes(mode)) throw new Error(`YYP_WECHATPAY must be off, sim or live, got "${mode}"`);
  const delay = env.WECHATPAY_SIM_REFUND_DELAY_MS;
  const simRefundDelayMs = delay === undefined || delay === '' ? 1000 : Number(delay);
  if (!Number.isInteger(simRefundDelayMs) || simRefundDelayMs < 0 || simRefundDelayMs > 600_000) {
    throw new Error('WECHATPAY_SIM_REFUND_DELAY_MS must be 0 to 600000 milliseconds');
  }
  return { mode, live: mode === 'live' ? liveSettings(env) : undefined, simRefundDelayMs };
}
