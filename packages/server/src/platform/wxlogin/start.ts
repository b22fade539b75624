import { createHash, randomBytes } from 'node:crypto';
import type { WxLoginSimulator } from '../../sim/wxlogin/simulator.js';
import type { WxLoginProvider } from './provider.js';
import type { WxLoginSettings } from './settings.js';
import { createWeChatLogin } from './wechat.js';

export interface WxLoginRuntime {
  /** null when YYP_WX_LOGIN=off: GET accounts/auth?type=wx answers ServiceNotConfigured */
  provider: WxLoginProvider | null;
  /** with YYP_WX_LOGIN=sim: the loopback simulator the provider talks to (its users, test hooks) */
  simulator: WxLoginSimulator | undefined;
  mode: WxLoginSettings['mode'];
  close(): Promise<void>;
}

/** The simulator's AppID: fixed (wx and 16 hex digits), so its users' openids stay the same across restarts. */
export const SIM_APP_ID = `wx${createHash('sha256').update('yyp wx login simulator').digest('hex').slice(0, 16)}`;

/**
 * WeChat login as configured: nothing (off), WeChat itself (live), or its simulator started
 * in-process on 127.0.0.1 with an AppSecret made up for it and the very same adapter pointed at it
 * (sim), so the demo and the tests sign in the way production does.
 */
export async function startWxLogin(
  settings: WxLoginSettings,
  opts: { now?: () => Date } = {},
): Promise<WxLoginRuntime> {
  const none = async () => {};
  if (settings.mode === 'off') return { provider: null, simulator: undefined, mode: 'off', close: none };
  if (settings.mode === 'live') {
    if (!settings.live) throw new Error('YYP_WX_LOGIN=live without its settings (use wxLoginSettings)');
    return { provider: createWeChatLogin(settings.live), simulator: undefined, mode: 'live', close: none };
  }
  // Loaded only for the simulator: a live server carries none of it.
  const { startWxLoginSimulator } = await import('../../sim/wxlogin/simulator.js');
  const appSecret = randomBytes(16).toString('hex');
  const simulator = await startWxLoginSimulator({
    appId: SIM_APP_ID,
    appSecret,
    appName: '影像平台 yyp',
    ...(opts.now ? { now: opts.now } : {}),
  });
  const provider = createWeChatLogin({
    appId: SIM_APP_ID,
    appSecret,
    openBase: simulator.url,
    apiBase: simulator.url,
    avatarOrigins: [new URL(simulator.url).origin],
  });
  return { provider, simulator, mode: 'sim', close: () => simulator.close() };
}
