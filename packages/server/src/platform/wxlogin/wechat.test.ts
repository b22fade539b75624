import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWxLoginSimulator, type WxLoginSimulator } from '../../sim/wxlogin/simulator.js';
import { WxLoginError } from './provider.js';
import { wxLoginSettings } from './settings.js';
import { avatarUrl, createWeChatLogin, WECHAT_AVATAR_ORIGINS, wxFailureOf } from './wechat.js';

// The WeChat website-login adapter (docs/wechat-login.md): WeChat refuses with HTTP 200 and
// {errcode, errmsg}; the adapter turns that, and no answer at all, into WxLoginError reasons whose
// messages never carry the secret, the code or the token. Against the loopback simulator and a
// loopback server that answers badly on purpose.

const APP_ID = 'wx0123456789abcdef';
const SECRET = 'the0app0secret0of0this0unit0test';
let sim: WxLoginSimulator;
let bad: http.Server;
let badUrl = '';
let badAnswer: (res: http.ServerResponse) => void = (res) => res.end();

beforeAll(async () => {
  sim = await startWxLoginSimulator({ appId: APP_ID, appSecret: SECRET, appName: 'unit' });
  bad = http.createServer((_req, res) => badAnswer(res));
  await new Promise<void>((resolve) => bad.listen(0, '127.0.0.1', resolve));
  badUrl = `http://127.0.0.1:${(bad.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await sim.close();
  bad.closeAllConnections();
  await new Promise((resolve) => bad.close(resolve));
});

const adapter = (overrides: { appSecret?: string; apiBase?: string; timeoutMs?: number } = {}) =>
  createWeChatLogin({ appId: APP_ID, appSecret: SECRET, openBase: sim.url, apiBase: sim.url, ...overrides });

/** A code as WeChat would append it after the person confirmed in the simulator. */
async function codeFor(user: string): Promise<string> {
  const res = await fetch(`${sim.url}/connect/confirm`, {
    method: 'POST',
    body: new URLSearchParams({ appid: APP_ID, redirect_uri: 'http://127.0.0.1:1/cb?source=wx', state: 's', user }),
    redirect: 'manual',
  });
  const location = new URL(res.headers.get('location')!);
  expect(location.searchParams.get('source')).toBe('wx');
  expect(location.searchParams.get('state')).toBe('s');
  return location.searchParams.get('code')!;
}

async function failure(p: Promise<unknown>): Promise<WxLoginError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(WxLoginError);
  const e = err as WxLoginError;
  expect(e.message).not.toContain(SECRET);
  return e;
}

describe('wxFailureOf', () => {
  it.each([
    [40029, 'invalid-code'],
    [40163, 'invalid-code'],
    [42003, 'invalid-code'],
    [41008, 'invalid-code'],
    [40013, 'rejected'],
    [40125, 'rejected'],
    [40164, 'rejected'],
    [-1, 'unavailable'],
    [45011, 'unavailable'],
    [99999, 'rejected'],
  ] as const)('maps errcode %i to %s', (errcode, reason) => {
    expect(wxFailureOf(errcode)).toBe(reason);
  });
});

describe('the adapter against the simulator', () => {
  it('builds the qrconnect URL with the redirect URI encoded and the fragment WeChat wants', () => {
    const url = adapter().authorizeUrl({ redirectUri: 'https://pacs.example/loginCallback?source=wx', state: 'st' });
    expect(url).toBe(
      `${sim.url}/connect/qrconnect?appid=${APP_ID}&redirect_uri=https%3A%2F%2Fpacs.example%2FloginCallback%3Fsource%3Dwx&response_type=code&scope=snsapi_login&state=st#wechat_redirect`,
    );
  });

  it('exchanges a code once and reads the person; unionid when WeChat gives one', async () => {
    const wx = adapter();
    const code = await codeFor('zhang');
    const token = await wx.exchange(code);
    expect(token.openid).toMatch(/^o/);
    expect(token.unionid).toMatch(/^u/);
    expect(await wx.userInfo(token)).toMatchObject({
      openid: token.openid,
      unionid: token.unionid,
      nickname: '张医生',
    });
    const again = await failure(wx.exchange(code));
    expect([again.reason, again.errcode]).toEqual(['invalid-code', 40163]);
    expect(again.message).not.toContain(code);
    const wang = await wx.exchange(await codeFor('wang'));
    expect(wang.unionid).toBeNull();
  });

  it('maps an unknown code, a wrong secret and a bad token', async () => {
    const unknown = await failure(adapter().exchange('no-such-code'));
    expect([unknown.reason, unknown.errcode]).toEqual(['invalid-code', 40029]);
    const secret = await failure(adapter({ appSecret: 'wrong0secret0000' }).exchange(await codeFor('li')));
    expect([secret.reason, secret.errcode]).toEqual(['rejected', 40125]);
    const token = await failure(
      adapter().userInfo({ accessToken: 'forged', expiresIn: 7200, openid: 'o1', unionid: null }),
    );
    expect([token.reason, token.errcode]).toEqual(['rejected', 40001]);
    sim.failNextExchange(-1);
    const busy = await failure(adapter().exchange(await codeFor('li')));
    expect(busy.reason).toBe('unavailable');
  });
});

describe('the adapter when WeChat answers badly or not at all', () => {
  it('maps HTTP errors, non-JSON and a missing openid to unavailable', async () => {
    badAnswer = (res) => res.writeHead(502).end('<html>bad gateway</html>');
    expect((await failure(adapter({ apiBase: badUrl }).exchange('c'))).reason).toBe('unavailable');
    badAnswer = (res) => res.writeHead(200).end('not json');
    expect((await failure(adapter({ apiBase: badUrl }).exchange('c'))).message).toContain('without JSON');
    badAnswer = (res) => res.writeHead(200).end(JSON.stringify({ access_token: 'a' }));
    expect((await failure(adapter({ apiBase: badUrl }).exchange('c'))).reason).toBe('unavailable');
  });

  it('gives up after its timeout', async () => {
    badAnswer = () => undefined;
    const e = await failure(adapter({ apiBase: badUrl, timeoutMs: 200 }).exchange('c'));
    expect([e.reason, e.message]).toEqual(['unavailable', 'WeChat (access_token) gave no answer within 200 ms']);
  });

  it('is unreachable on a closed port', async () => {
    const e = await failure(adapter({ apiBase: 'http://127.0.0.1:1' }).exchange('c'));
    expect(e.reason).toBe('unavailable');
  });
});

describe('wxLoginSettings', () => {
  it('defaults to sim, off in production, and checks the live settings', () => {
    expect(wxLoginSettings({}).mode).toBe('sim');
    expect(wxLoginSettings({ NODE_ENV: 'production' }).mode).toBe('off');
    expect(() => wxLoginSettings({ YYP_WX_LOGIN: 'on' })).toThrow(/off, sim or live/);
    expect(() => wxLoginSettings({ YYP_WX_LOGIN: 'live' })).toThrow(/WX_LOGIN_APP_ID/);
    expect(() =>
      wxLoginSettings({ YYP_WX_LOGIN: 'live', WX_LOGIN_APP_ID: 'nope', WX_LOGIN_APP_SECRET: SECRET }),
    ).toThrow(/AppID/);
    const live = wxLoginSettings({ YYP_WX_LOGIN: 'live', WX_LOGIN_APP_ID: APP_ID, WX_LOGIN_APP_SECRET: SECRET });
    expect(live.live).toEqual({
      appId: APP_ID,
      appSecret: SECRET,
      openBase: 'https://open.weixin.qq.com',
      apiBase: 'https://api.weixin.qq.com',
    });
    expect(() =>
      wxLoginSettings({
        YYP_WX_LOGIN: 'live',
        WX_LOGIN_APP_ID: APP_ID,
        WX_LOGIN_APP_SECRET: SECRET,
        WX_LOGIN_API_BASE: 'http://x.example',
      }),
    ).toThrow(/https/);
  });
});

describe('avatar URLs: only where the pages may load images from', () => {
  const origins = WECHAT_AVATAR_ORIGINS;
  it.each([
    ['https://thirdwx.qlogo.cn/mmopen/vi_32/abc/132', 'https://thirdwx.qlogo.cn/mmopen/vi_32/abc/132'],
    ['http://thirdwx.qlogo.cn/mmopen/abc/0', 'https://thirdwx.qlogo.cn/mmopen/abc/0'],
    ['http://wx.qlogo.cn/mmopen/abc/0', 'https://wx.qlogo.cn/mmopen/abc/0'],
    ['https://evil.example/avatar.png', ''],
    ['https://thirdwx.qlogo.cn.evil.example/a.png', ''],
    ['https://user:pw@thirdwx.qlogo.cn/a', ''],
    ['javascript:alert(1)', ''],
    ['data:image/svg+xml,<svg/>', ''],
    ['not a url', ''],
    ['', ''],
    [`https://thirdwx.qlogo.cn/${'a'.repeat(600)}`, ''],
  ])('%s → %j', (given, expected) => {
    expect(avatarUrl(given, origins)).toBe(expected);
  });

  it('takes the simulator’s own origin when it is told so', () => {
    expect(avatarUrl('http://127.0.0.1:5000/avatar/a.svg', ['http://127.0.0.1:5000'])).toBe(
      'http://127.0.0.1:5000/avatar/a.svg',
    );
    expect(avatarUrl('http://127.0.0.1:5001/avatar/a.svg', ['http://127.0.0.1:5000'])).toBe('');
  });
});
