import { serviceBaseUrl } from '../service-url.js';

/**
 * YYP_WX_LOGIN and the WX_LOGIN_* variables (docs/wechat-login.md): no WeChat login (off), the
 * loopback simulator of WeChat's endpoints (sim: the default, for the demo and tests) or WeChat
 * itself (live). Production defaults to off. No error message repeats the AppSecret.
 */
export type WxLoginMode = 'off' | 'sim' | 'live';

export interface WxLoginLiveSettings {
  appId: string;
  appSecret: string;
  /** https://open.weixin.qq.com unless WX_LOGIN_OPEN_BASE says otherwise: the QR-code page */
  openBase: string;
  /** https://api.weixin.qq.com unless WX_LOGIN_API_BASE says otherwise: the code exchange and userinfo */
  apiBase: string;
}

export interface WxLoginSettings {
  mode: WxLoginMode;
  /** set when mode is live */
  live: WxLoginLiveSettings | undefined;
}

export const WX_OPEN_BASE = 'https://open.weixin.qq.com';
export const WX_API_BASE = 'https://api.weixin.qq.com';
const MODES: readonly WxLoginMode[] = ['off', 'sim', 'live'];

function required(env: NodeJS.ProcessEnv, name: string): string {
  const value = env[name]?.trim();
  if (!value) throw new Error(`YYP_WX_LOGIN=live needs ${name} (docs/wechat-login.md)`);
  return value;
}

export function wxLoginSettings(env: NodeJS.ProcessEnv): WxLoginSettings {
  const production = env.NODE_ENV === 'production';
  const mode = (env.YYP_WX_LOGIN?.trim().toLowerCase() || (production ? 'off' : 'sim')) as WxLoginMode;
  if (!MODES.includes(mode)) throw new Error(`YYP_WX_LOGIN must be off, sim or live, got "${mode}"`);
  if (mode !== 'live') return { mode, live: undefined };
  const appId = required(env, 'WX_LOGIN_APP_ID');
  if (!/^wx[0-9a-f]{16}$/.test(appId)) {
    throw new Error('WX_LOGIN_APP_ID must be a website application’s AppID (wx and 16 hex digits)');
  }
  const appSecret = required(env, 'WX_LOGIN_APP_SECRET');
  if (!/^[0-9A-Za-z]{16,64}$/.test(appSecret)) {
    throw new Error('WX_LOGIN_APP_SECRET must be the AppSecret (letters and digits)');
  }
  return {
    mode,
    live: {
      appId,
      appSecret,
      openBase: serviceBaseUrl(env, 'WX_LOGIN_OPEN_BASE', WX_OPEN_BASE),
      apiBase: serviceBaseUrl(env, 'WX_LOGIN_API_BASE', WX_API_BASE),
    },
  };
}
