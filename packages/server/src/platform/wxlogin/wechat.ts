import {
  WxLoginError,
  type WxAccessToken,
  type WxLoginFailure,
  type WxLoginProvider,
  type WxUserInfo,
} from './provider.js';
import type { WxLoginLiveSettings } from './settings.js';

export interface WeChatLoginOptions extends WxLoginLiveSettings {
  /** how long an answer is waited for (default 10 s) */
  timeoutMs?: number;
  /** where its avatars may be (default WECHAT_AVATAR_ORIGINS; the simulator's own origin) */
  avatarOrigins?: readonly string[];
}

/** WeChat's avatar hosts (headimgurl): thirdwx.qlogo.cn, and wx.qlogo.cn of older accounts. */
export const WECHAT_AVATAR_ORIGINS: readonly string[] = ['https://thirdwx.qlogo.cn', 'https://wx.qlogo.cn'];

/**
 * The avatar URL as pages may show it: on one of `origins` (an http one of WeChat's hosts taken
 * as its https twin), at most 512 characters; anything else none (''), since the pages' img-src
 * allows those origins only.
 */
export function avatarUrl(value: string, origins: readonly string[]): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return '';
  }
  if (url.protocol === 'http:' && WECHAT_AVATAR_ORIGINS.includes(`https://${url.host}`)) url.protocol = 'https:';
  if (url.username || url.password || !origins.includes(url.origin)) return '';
  const href = url.href;
  return href.length <= 512 ? href : '';
}

/**
 * WeChat's errcodes (全局返回码, 网站应用微信登录) that say the code is no good: invalid (40029), used
 * (40163), missing (41008), expired (42003), or the access token of a moment ago expired (42001).
 * The person scans again.
 */
const BAD_CODE = new Set([40029, 40163, 41008, 42003, 42001]);
/** Passing trouble at WeChat: system busy (-1), the API's daily limit (45009, 45011). */
const TRANSIENT = new Set([-1, 45009, 45011]);

const HINTS: Record<number, string> = {
  40013: 'the AppID is not valid (WX_LOGIN_APP_ID)',
  40125: 'the AppSecret is not valid (WX_LOGIN_APP_SECRET)',
  40001: 'the AppSecret or the access token is not valid',
  40003: 'the openid is not valid for this app',
  40164: 'the server’s address is not on the app’s IP whitelist',
  48001: 'the app is not authorized for this API (website application login)',
  50001: 'the user did not authorize this API',
};

export function wxFailureOf(errcode: number): WxLoginFailure {
  if (BAD_CODE.has(errcode)) return 'invalid-code';
  if (TRANSIENT.has(errcode)) return 'unavailable';
  return 'rejected';
}

function describe(reason: WxLoginFailure, errcode: number): string {
  if (reason === 'invalid-code') return 'the code is invalid, used or expired';
  if (reason === 'unavailable') return 'WeChat is busy';
  return HINTS[errcode] ?? 'WeChat refused the request';
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/**
 * The adapter for WeChat website login (docs/wechat-login.md). Two GETs per login: the code for an
 * access token (sns/oauth2/access_token), then the person (sns/userinfo). WeChat answers HTTP 200
 * with {errcode, errmsg} when it refuses; those become WxLoginError reasons. Messages name the
 * errcode, never the secret, the code, the token or WeChat's errmsg (which may echo a request id only).
 */
export function createWeChatLogin(options: WeChatLoginOptions): WxLoginProvider {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const openBase = options.openBase.replace(/\/+$/, '');
  const apiBase = options.apiBase.replace(/\/+$/, '');
  const avatarOrigins = options.avatarOrigins ?? WECHAT_AVATAR_ORIGINS;

  async function call(path: string, params: Record<string, string>, what: string): Promise<Record<string, unknown>> {
    let res: Response;
    let text: string;
    try {
      res = await fetch(`${apiBase}${path}?${new URLSearchParams(params).toString()}`, {
        headers: { Accept: 'application/json' },
        redirect: 'error',
        signal: AbortSignal.timeout(timeoutMs),
      });
      text = await res.text();
    } catch (err) {
      const timedOut = err instanceof Error && err.name === 'TimeoutError';
      const cause = (err as { cause?: { code?: unknown } }).cause?.code;
      throw new WxLoginError(
        'unavailable',
        timedOut
          ? `WeChat (${what}) gave no answer within ${timeoutMs} ms`
          : `WeChat (${what}) is unreachable${typeof cause === 'string' ? ` (${cause})` : ''}`,
      );
    }
    let body: Record<string, unknown> | undefined;
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
        body = parsed as Record<string, unknown>;
      }
    } catch {
      // not JSON: below
    }
    if (!res.ok || !body) {
      throw new WxLoginError(
        'unavailable',
        `WeChat (${what}) answered HTTP ${res.status}${body ? '' : ' without JSON'}`,
      );
    }
    const errcode = typeof body.errcode === 'number' ? body.errcode : 0;
    if (errcode !== 0) {
      const reason = wxFailureOf(errcode);
      throw new WxLoginError(reason, `WeChat (${what}) refused: ${describe(reason, errcode)} [${errcode}]`, errcode);
    }
    return body;
  }

  return {
    appId: options.appId,
    avatarOrigins,
    authorizeUrl({ redirectUri, state }) {
      const query = new URLSearchParams({
        appid: options.appId,
        redirect_uri: redirectUri,
        response_type: 'code',
        scope: 'snsapi_login',
        state,
      });
      return `${openBase}/connect/qrconnect?${query.toString()}#wechat_redirect`;
    },
    async exchange(code: string): Promise<WxAccessToken> {
      const body = await call(
        '/sns/oauth2/access_token',
        { appid: options.appId, secret: options.appSecret, code, grant_type: 'authorization_code' },
        'access_token',
      );
      const accessToken = str(body.access_token);
      const openid = str(body.openid);
      if (!accessToken || !openid) {
        throw new WxLoginError('unavailable', 'WeChat (access_token) answered without access_token or openid');
      }
      const expiresIn = typeof body.expires_in === 'number' ? body.expires_in : 7200;
      return { accessToken, expiresIn, openid, unionid: str(body.unionid) || null };
    },
    async userInfo(token: WxAccessToken): Promise<WxUserInfo> {
      const body = await call('/sns/userinfo', { access_token: token.accessToken, openid: token.openid }, 'userinfo');
      const openid = str(body.openid);
      if (openid !== token.openid) throw new WxLoginError('unavailable', 'WeChat (userinfo) answered another openid');
      return {
        openid,
        unionid: str(body.unionid) || token.unionid,
        nickname: str(body.nickname).slice(0, 64),
        headimgurl: avatarUrl(str(body.headimgurl), avatarOrigins),
      };
    },
  };
}
