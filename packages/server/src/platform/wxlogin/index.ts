/** WeChat website login (issue 27; docs/wechat-login.md): the face the wxlogin module and main.ts use. */
export {
  WxLoginError,
  type WxAccessToken,
  type WxLoginFailure,
  type WxLoginProvider,
  type WxUserInfo,
} from './provider.js';
export { createWeChatLogin, wxFailureOf, type WeChatLoginOptions } from './wechat.js';
export {
  WX_API_BASE,
  WX_OPEN_BASE,
  wxLoginSettings,
  type WxLoginLiveSettings,
  type WxLoginMode,
  type WxLoginSettings,
} from './settings.js';
export { SIM_APP_ID, startWxLogin, type WxLoginRuntime } from './start.js';
export type { WxLoginSimulator, WxSimUser } from '../../sim/wxlogin/simulator.js';
