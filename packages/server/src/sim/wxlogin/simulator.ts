import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local simulator of WeChat website login (Open Platform OAuth 2.0, scope snsapi_login) for the
 * demo and the tests (docs/wechat-login.md): the QR-code page (connect/qrconnect), where simulated
 * WeChat users stand in for a phone's scan and confirmation; sns/oauth2/access_token, which takes a
 * code once within five minutes; and sns/userinfo. Refusals come as WeChat sends them: HTTP 200
 * with {errcode, errmsg}. It listens on 127.0.0.1 only and makes no request of its own.
 */
export interface WxLoginSimulatorOptions {
  appId: string;
  appSecret: string;
  /** the website application's name, shown on the QR-code page */
  appName: string;
  now?: () => Date;
  /** its port on 127.0.0.1; 0 (default): any free one */
  port?: number;
}

export interface WxSimUser {
  /** the simulator's handle of the person (the confirm button's value) */
  key: string;
  nickname: string;
  openid: string;
  /** null: the app is bound to no Open Platform account, WeChat gives no unionid */
  unionid: string | null;
  headimgurl: string;
}

export interface WxLoginSimulator {
  /** http://127.0.0.1:<port>: both the open and the api base */
  readonly url: string;
  users(): WxSimUser[];
  /** adds a simulated WeChat user (tests) */
  addUser(user: { key: string; nickname: string; unionid?: boolean }): WxSimUser;
  /** the next code exchange answers this errcode instead (tests: -1 system busy, 40125 bad secret...) */
  failNextExchange(errcode: number): void;
  close(): Promise<void>;
}

const CODE_MS = 5 * 60_000;
const ERRMSG: Record<number, string> = {
  [-1]: 'system error',
  40001: 'invalid credential, access_token is invalid or not latest',
  40002: 'invalid grant_type',
  40003: 'invalid openid',
  40013: 'invalid appid',
  40029: 'invalid code',
  40125: 'invalid appsecret',
  40163: 'code been used',
  41001: 'access_token missing',
  41002: 'appid missing',
  41004: 'appsecret missing',
  41008: 'missing code',
  41009: 'missing openid',
  42001: 'access_token expired',
  42003: 'code expired',
};

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
const digest = (s: string, n: number) => createHash('sha256').update(s).digest('base64url').slice(0, n);

/** The people of a fresh simulator: two with a unionid, one without. */
const DEFAULT_USERS = [
  { key: 'zhang', nickname: '张医生', unionid: true },
  { key: 'li', nickname: '李护士', unionid: true },
  { key: 'wang', nickname: 'Wang Wei', unionid: false },
];

export async function startWxLoginSimulator(options: WxLoginSimulatorOptions): Promise<WxLoginSimulator> {
  const now = options.now ?? (() => new Date());
  const people = new Map<string, WxSimUser>();
  /** code → whose, when issued, whether used */
  const codes = new Map<string, { user: WxSimUser; at: number; used: boolean }>();
  /** access token → whose, until when (ms) */
  const tokens = new Map<string, { user: WxSimUser; until: number }>();
  let failNext: number | null = null;
  let base = '';

  function addUser(user: { key: string; nickname: string; unionid?: boolean }): WxSimUser {
    // Stable per app and person, as WeChat's openid is; the unionid stable per person.
    const made: WxSimUser = {
      key: user.key,
      nickname: user.nickname,
      openid: `o${digest(`${options.appId}/${user.key}`, 27)}`,
      unionid: user.unionid === false ? null : `u${digest(`union/${user.key}`, 27)}`,
      headimgurl: `${base}/avatar/${encodeURIComponent(user.key)}.svg`,
    };
    people.set(user.key, made);
    return made;
  }

  const send = (res: http.ServerResponse, status: number, body: string, type: string, extra = {}): void => {
    res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store', ...extra }).end(body);
  };
  const json = (res: http.ServerResponse, body: unknown): void =>
    send(res, 200, JSON.stringify(body), 'application/json; encoding=utf-8');
  const refuse = (res: http.ServerResponse, errcode: number): void =>
    json(res, { errcode, errmsg: `${ERRMSG[errcode] ?? 'error'}, rid: ${randomBytes(6).toString('hex')}` });

  /** The page WeChat shows for a request it will not serve (its "参数错误" page). */
  const errorPage = (res: http.ServerResponse, what: string): void =>
    send(
      res,
      200,
      `<!doctype html><html lang="zh-CN"><meta charset="utf-8"><title>微信登录</title><h2>参数错误</h2><p>${escapeHtml(what)}</p></html>`,
      'text/html; charset=utf-8',
    );

  function redirectOk(value: string): boolean {
    try {
      const u = new URL(value);
      return u.protocol === 'http:' || u.protocol === 'https:';
    } catch {
      return false;
    }
  }

  function qrPage(res: http.ServerResponse, q: URLSearchParams): void {
    if (q.get('appid') !== options.appId) return errorPage(res, 'AppID 参数错误 (appid)');
    if (q.get('scope') !== 'snsapi_login') return errorPage(res, 'Scope 参数错误或没有 Scope 权限');
    if (q.get('response_type') !== 'code') return errorPage(res, 'response_type 参数错误');
    const redirectUri = q.get('redirect_uri') ?? '';
    if (!redirectOk(redirectUri)) return errorPage(res, 'redirect_uri 参数错误');
    const hidden = (name: string, value: string) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;
    const buttons = [...people.values()]
      .map(
        (u) =>
          `<form method="post" action="/connect/confirm">${hidden('appid', options.appId)}${hidden('redirect_uri', redirectUri)}` +
          `${hidden('state', q.get('state') ?? '')}${hidden('user', u.key)}` +
          `<button type="submit">以${escapeHtml(u.nickname)}扫码确认</button></form>`,
      )
      .join('');
    send(
      res,
      200,
      `<!doctype html><html lang="zh-CN"><meta charset="utf-8"><title>微信登录</title>
<style>body{font:14px system-ui,sans-serif;background:#333;color:#fff;text-align:center;padding:40px}
.qr{width:220px;height:220px;margin:16px auto;background:repeating-conic-gradient(#000 0 25%,#fff 0 50%) 0 0/22px 22px;border:10px solid #fff}
form{margin:8px}button{font-size:15px;padding:8px 20px;border:0;border-radius:4px;background:#07c160;color:#fff;cursor:pointer}
.note{color:#bbb;font-size:12px}</style>
<h2>微信登录</h2><p>使用微信扫一扫登录 “${escapeHtml(options.appName)}”</p>
<div class="qr" role="img" aria-label="QR code"></div>
<p class="note">本地微信登录模拟器 · local WeChat login simulator: choose who scans and confirms</p>${buttons}</html>`,
      'text/html; charset=utf-8',
    );
  }

  async function confirm(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    let size = 0;
    const chunks: Buffer[] = [];
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > 16 * 1024) return errorPage(res, 'too large');
      chunks.push(chunk as Buffer);
    }
    const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
    const user = people.get(form.get('user') ?? '');
    const redirectUri = form.get('redirect_uri') ?? '';
    if (form.get('appid') !== options.appId || !user || !redirectOk(redirectUri)) return errorPage(res, '参数错误');
    const code = randomBytes(16).toString('hex');
    codes.set(code, { user, at: now().getTime(), used: false });
    // code and state go after the redirect URI's own query, before any fragment.
    const target = new URL(redirectUri);
    target.searchParams.append('code', code);
    target.searchParams.append('state', form.get('state') ?? '');
    send(res, 302, '', 'text/plain', { Location: target.toString() });
  }

  function accessToken(res: http.ServerResponse, q: URLSearchParams): void {
    if (!q.get('appid')) return refuse(res, 41002);
    if (q.get('appid') !== options.appId) return refuse(res, 40013);
    if (!q.get('secret')) return refuse(res, 41004);
    if (q.get('secret') !== options.appSecret) return refuse(res, 40125);
    if (q.get('grant_type') !== 'authorization_code') return refuse(res, 40002);
    const code = q.get('code');
    if (!code) return refuse(res, 41008);
    if (failNext !== null) {
      const errcode = failNext;
      failNext = null;
      return refuse(res, errcode);
    }
    const t = now().getTime();
    for (const [c, held] of codes) if (t - held.at > 2 * CODE_MS) codes.delete(c);
    const held = codes.get(code);
    if (!held) return refuse(res, 40029);
    if (held.used) return refuse(res, 40163);
    if (t - held.at > CODE_MS) return refuse(res, 42003);
    held.used = true;
    const token = randomBytes(24).toString('base64url');
    tokens.set(token, { user: held.user, until: t + 7200_000 });
    json(res, {
      access_token: token,
      expires_in: 7200,
      refresh_token: randomBytes(24).toString('base64url'),
      openid: held.user.openid,
      scope: 'snsapi_login',
      ...(held.user.unionid ? { unionid: held.user.unionid } : {}),
    });
  }

  function userInfo(res: http.ServerResponse, q: URLSearchParams): void {
    const token = q.get('access_token');
    if (!token) return refuse(res, 41001);
    if (!q.get('openid')) return refuse(res, 41009);
    const held = tokens.get(token);
    if (!held) return refuse(res, 40001);
    if (now().getTime() > held.until) return refuse(res, 42001);
    if (held.user.openid !== q.get('openid')) return refuse(res, 40003);
    const u = held.user;
    json(res, {
      openid: u.openid,
      nickname: u.nickname,
      sex: 0,
      province: '',
      city: '',
      country: 'CN',
      headimgurl: u.headimgurl,
      privilege: [],
      ...(u.unionid ? { unionid: u.unionid } : {}),
    });
  }

  function avatar(res: http.ServerResponse, key: string): void {
    const user = people.get(key);
    const letter = escapeHtml([...(user?.nickname ?? '?')][0] ?? '?');
    send(
      res,
      200,
      `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><rect width="64" height="64" fill="#07c160"/>` +
        `<text x="32" y="42" font-size="28" text-anchor="middle" fill="#fff">${letter}</text></svg>`,
      'image/svg+xml',
    );
  }

  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const get = req.method === 'GET';
      if (get && url.pathname === '/connect/qrconnect') return qrPage(res, url.searchParams);
      if (req.method === 'POST' && url.pathname === '/connect/confirm') return confirm(req, res);
      if (get && url.pathname === '/sns/oauth2/access_token') return accessToken(res, url.searchParams);
      if (get && url.pathname === '/sns/userinfo') return userInfo(res, url.searchParams);
      const avatarOf = /^\/avatar\/([^/]+)\.svg$/.exec(url.pathname);
      if (get && avatarOf) return avatar(res, decodeURIComponent(avatarOf[1] ?? ''));
      send(res, 404, 'not found', 'text/plain');
    })().catch(() => {
      if (!res.headersSent) send(res, 500, 'error', 'text/plain');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  for (const u of DEFAULT_USERS) addUser(u);

  return {
    url: base,
    users: () => [...people.values()],
    addUser,
    failNextExchange(errcode) {
      failNext = errcode;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
