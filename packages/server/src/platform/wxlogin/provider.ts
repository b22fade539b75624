/**
 * WeChat website login (issue 27; docs/wechat-login.md): the WeChat Open Platform's OAuth 2.0 for
 * website applications (scope snsapi_login). The wxlogin module signs people in through this face only.
 */

/** What the authorization code was exchanged for (the access token stays on the server, unlogged). */
export interface WxAccessToken {
  accessToken: string;
  /** seconds */
  expiresIn: number;
  openid: string;
  /** the person across the Open Platform account's apps; absent when the app is bound to none */
  unionid: string | null;
}

export interface WxUserInfo {
  openid: string;
  unionid: string | null;
  nickname: string;
  headimgurl: string;
}

/**
 * Why WeChat gave nothing: the code is invalid, used or expired (invalid-code: the person scans
 * again); the app's configuration is refused (rejected: AppID, AppSecret; the administrator must
 * act); or no usable answer (unavailable).
 */
export type WxLoginFailure = 'invalid-code' | 'rejected' | 'unavailable';

export class WxLoginError extends Error {
  constructor(
    readonly reason: WxLoginFailure,
    message: string,
    /** WeChat's errcode, for the log */
    readonly errcode?: number,
  ) {
    super(message);
    this.name = 'WxLoginError';
  }
}

export interface WxLoginProvider {
  /** the website application's AppID (public: it is in the QR page's URL) */
  readonly appId: string;
  /** the origins of the avatars it gives (headimgurl): the pages' img-src allows them */
  readonly avatarOrigins: readonly string[];
  /** the QR-code page (qrconnect) to send the browser to */
  authorizeUrl(request: { redirectUri: string; state: string }): string;
  /** sns/oauth2/access_token: the code (single use, five minutes) for an access token and the openid */
  exchange(code: string): Promise<WxAccessToken>;
  /** sns/userinfo: the person's nickname and avatar */
  userInfo(token: WxAccessToken): Promise<WxUserInfo>;
}
