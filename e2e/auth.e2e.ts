import zlib from 'node:zlib';
import { SignJWT } from 'jose';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import {
  ACCESS_TOKEN_KEY,
  DEMO_PASSWORD,
  apiLogin,
  apiRegister,
  baseUrl,
  chooseLanguage,
  jwtPayload,
  loginViaUi,
  screenshot,
  submitLogin,
  browserPerFile,
} from './support.js';

let page: Page;
browserPerFile((c) => ({ page } = c));

/** The number the new account binds, and when its code went out (the reset waits out the minute). */
const phone = '13912340001';
const password = 'Osprey2026x';
let mobileBoundAt = 0;

interface SmsMessage {
  phone: string;
  code: string;
}

/** The messages the server's SMS simulator received for a number (newest first). */
async function smsMessages(phone: string): Promise<SmsMessage[]> {
  const res = await fetch(`${inject('smsInbox')}/inbox.json?phone=${phone}`);
  return (await res.json()) as SmsMessage[];
}

/** The newest code sent to a number, once at least `count` messages reached it. */
async function smsCode(phone: string, count = 1): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const messages = await smsMessages(phone);
    if (messages.length >= count) return messages[0]!.code;
    if (Date.now() > deadline) throw new Error(`no SMS code reached ${phone}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('mobile number', () => {
  it('binds a mobile number with the SMS code sent to it', async () => {
    // A new account: the demo ones are shared by the other files.
    await apiRegister('e2e-mobile', '手机用户', password);
    await loginViaUi(page, 'e2e-mobile', password);
    await page.goto('/settings/mobile');
    await page.getByRole('heading', { name: '手机绑定' }).waitFor();
    await page.getByText('未绑定手机号').first().waitFor();
    await page.getByLabel('新手机号').fill(phone);
    await page.getByRole('button', { name: '获取验证码' }).click();
    await page.getByRole('button', { name: /秒后重新获取/ }).waitFor();
    await page.getByLabel('验证码').fill(await smsCode(phone));
    await screenshot(page, 'settings-mobile-code');
    await page.getByRole('button', { name: '绑定此号码' }).click();
    await page.getByText('手机号已绑定').waitFor();
    await page.locator('.ant-descriptions').getByText(phone).waitFor();
    await screenshot(page, 'settings-mobile-bound');
    mobileBoundAt = Date.now();
  });
});

describe('sign-in', () => {
  it('logs in as doctor and lands on the report workstation', async () => {
    await page.goto('/login');
    await page.getByRole('heading', { name: '账号登录' }).waitFor();
    await screenshot(page, 'login-page');

    await submitLogin(page, '  doctor ', DEMO_PASSWORD);
    await page.waitForURL('**/studies');
    // The list has loaded: rows, or its empty state. Which one depends on what the other e2e files
    // (they share one server, in an order vitest chooses) have stored in the doctor's organization.
    await page.locator('.ant-table-row').first().or(page.getByText('暂无检查')).waitFor();
    await page.getByRole('button', { name: '账号菜单' }).getByText('李医生').waitFor();
    expect(new URL(page.url()).pathname).toBe('/studies');
    await screenshot(page, 'studies-doctor');
  });

  it('shows "wrong username or password" for a wrong password', async () => {
    await page.goto('/login');
    await submitLogin(page, 'tech', 'not-the-password');
    await page.getByText('用户名或密码错误').waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    await screenshot(page, 'login-wrong-password');
  });

  it('locks the account after 5 failed logins and says to retry after 30 minutes', async () => {
    // An account of its own: a demo account locked here would stay locked for the specs after it.
    const victim = { username: `e2e-lock-${Date.now().toString(36)}`, password: 'Lockout2026!x' };
    await apiRegister(victim.username, '孙锁定', victim.password);
    await page.goto('/login');
    const statuses: number[] = [];
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      // One attempt at a time: wait for each answer before the next try.
      const answered = page.waitForResponse((r) => r.url().endsWith('/accounts/login-in'));
      await submitLogin(page, victim.username, `wrong-${attempt}`);
      statuses.push((await answered).status());
    }
    expect(statuses).toEqual([401, 401, 401, 401, 423]);
    await page.getByText('登录失败次数过多，请 30 分钟后重试').waitFor();
    await screenshot(page, 'login-locked');

    // Even the right password is refused while locked.
    const answered = page.waitForResponse((r) => r.url().endsWith('/accounts/login-in'));
    await submitLogin(page, victim.username, victim.password);
    expect((await answered).status()).toBe(423);
    expect(new URL(page.url()).pathname).toBe('/login');
  });

  it('sends a signed-out visit of /settings/profile to login and comes back after login', async () => {
    await page.goto('/settings/profile');
    await page.waitForURL('**/login?redirect=*');
    const url = new URL(page.url());
    expect(url.searchParams.get('redirect')).toBe('/settings/profile');

    await submitLogin(page, 'senior', DEMO_PASSWORD);
    await page.waitForURL('**/settings/profile');
    await page.getByRole('heading', { name: '个人资料' }).waitFor();
    await page.getByRole('textbox', { name: '姓名' }).and(page.locator('[value="王主任"]')).waitFor();
    await screenshot(page, 'profile-after-redirect');
  });
});

/** A small RGB PNG (a blue disc with a white ring on light grey), made here so the test needs no file. */
function avatarPng(size = 128): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) {
      c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    }
    return c >>> 0;
  });
  const crc32 = (data: Buffer) => {
    let c = 0xffffffff;
    for (const byte of data) {
      c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
    }
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'ascii');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
    return Buffer.concat([head, data, crc]);
  };
  const rows: Buffer[] = [];
  const mid = (size - 1) / 2;
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 3);
    for (let x = 0; x < size; x++) {
      const r = Math.hypot(x - mid, y - mid) / mid;
      const rgb = r < 0.55 ? [22, 100, 255] : r < 0.7 ? [255, 255, 255] : r < 0.95 ? [0, 168, 112] : [240, 242, 245];
      row.set(rgb, 1 + x * 3);
    }
    rows.push(row);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('profile picture', () => {
  it('uploads an avatar on Settings → Profile and shows it there and in the account menu', async () => {
    await loginViaUi(page, 'registrar');
    await page.goto('/settings/profile');
    await page.getByRole('heading', { name: '个人资料' }).waitFor();
    const field = page.locator('.yyp-avatar-field');
    await field.getByText('上传头像').waitFor();

    const policyAnswer = page.waitForResponse((r) => r.url().includes('/yyp/api/v1/policies/avatars'));
    const putAnswer = page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().includes('/blobs/upload'));
    await field
      .locator('input[type=file]')
      .setInputFiles({ name: '头像.png', mimeType: 'image/png', buffer: avatarPng() });
    expect((await policyAnswer).status()).toBe(200);
    expect((await putAnswer).status()).toBe(204);
    await page.getByText('头像已更新').waitFor();
    await field.getByText('更换头像').waitFor();

    // Both pictures come from the signed download URL and have loaded.
    for (const img of [field.locator('img'), page.getByRole('button', { name: '账号菜单' }).locator('img')]) {
      await img.waitFor();
      expect(await img.getAttribute('src')).toMatch(/^\/yyp\/api\/v1\/blobs\/download\?token=/);
      await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(128);
    }
    await screenshot(page, 'profile-avatar');

    // After a reload the saved avatar is still shown (it lives on the server, not in the page).
    await page.reload();
    await page.locator('.yyp-avatar-field img').waitFor();
    await field.getByText('更换头像').waitFor();
  });
});

describe('session', () => {
  it('asks for the password when the token expired, and carries on after it', async () => {
    await loginViaUi(page, 'doctor');
    const stored = JSON.parse((await page.evaluate((key) => localStorage.getItem(key), ACCESS_TOKEN_KEY)) ?? '{}') as {
      accessToken: string;
      expires: number;
    };
    const claims = jwtPayload(stored.accessToken);
    const past = Math.floor(Date.now() / 1000) - 600;
    const expired = await new SignJWT({ tv: typeof claims.tv === 'number' ? claims.tv : 0 })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(String(claims.sub))
      .setIssuedAt(past - 3600)
      .setExpirationTime(past)
      .sign(new TextEncoder().encode(inject('jwtSecret')));
    // The stored expiry stays in the future: only the server can tell that the token expired.
    await page.evaluate(
      ([key, token]) => {
        const record = JSON.parse(localStorage.getItem(key) ?? '{}') as Record<string, unknown>;
        localStorage.setItem(key, JSON.stringify({ ...record, accessToken: token }));
      },
      [ACCESS_TOKEN_KEY, expired] as const,
    );

    await page.reload(); // the page asks for accounts/me again with the expired token
    const dialog = page.getByRole('dialog', { name: '登录已过期' });
    await dialog.waitFor();
    expect(new URL(page.url()).pathname).toBe('/studies');
    await screenshot(page, 'login-expired-dialog');

    await dialog.getByRole('button', { name: /继\s?续/ }).click();
    await dialog.getByText('请填写必填项').waitFor();

    await dialog.getByLabel('密码').fill(DEMO_PASSWORD);
    await dialog.getByRole('button', { name: /继\s?续/ }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: '账号菜单' }).getByText('李医生').waitFor();
    const renewed = await page.evaluate((key) => localStorage.getItem(key), ACCESS_TOKEN_KEY);
    expect(renewed).not.toContain(expired);
    expect(new URL(page.url()).pathname).toBe('/studies');
    await screenshot(page, 'login-expired-restored');
  });

  it('logs out from the user menu and forgets the session', async () => {
    await loginViaUi(page, 'doctor');
    await page.getByRole('button', { name: '账号菜单' }).click();
    await page.getByRole('menuitem', { name: '退出登录' }).click();
    await page.waitForURL('**/login');
    expect(await page.evaluate((key) => localStorage.getItem(key), ACCESS_TOKEN_KEY)).toBeNull();
    await page.goto('/studies');
    await page.waitForURL('**/login?redirect=%2Fstudies');
  });
});

describe('languages', () => {
  it('switches the signed-in interface to English and Tibetan', async () => {
    await loginViaUi(page, 'registrar');
    await page.getByRole('heading', { name: '报告工作站' }).waitFor();

    await chooseLanguage(page, '语言', 'English');
    await page.getByRole('heading', { name: 'Report workstation' }).waitFor();
    await page.getByRole('button', { name: 'Advanced search' }).waitFor();
    await screenshot(page, 'studies-en');

    await chooseLanguage(page, 'Language', 'བོད་ཡིག');
    await page.getByRole('heading', { name: 'སྙན་ཞུའི་ལས་སྟེགས།' }).waitFor();
    await page.getByRole('button', { name: 'མཐོ་རིམ་འཚོལ་བཤེར།' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('bo');
    await screenshot(page, 'studies-tib');

    // The choice is saved as the user's preference on the server.
    const token = await apiLogin('registrar');
    const me = (await (
      await fetch(`${baseUrl()}/yyp/api/v1/accounts/me`, { headers: { Authorization: `Bearer ${token.accessToken}` } })
    ).json()) as { preferences: { language?: string } };
    expect(me.preferences.language).toBe('tib');
    // Put the registrar's language back for the specs that follow.
    const reset = await fetch(`${baseUrl()}/yyp/api/v1/accounts/me`, {
      method: 'PATCH',
      headers: { Authorization: `Bearer ${token.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ preferences: { language: 'chs' } }),
    });
    expect(reset.status).toBe(200);
  });

  it('switches the login page language', async () => {
    await page.goto('/login');
    await chooseLanguage(page, '语言', 'English');
    await page.getByRole('heading', { name: 'Log in' }).waitFor();
    await page.getByPlaceholder('Username').waitFor();
    await screenshot(page, 'login-en');

    await chooseLanguage(page, 'Language', 'བོད་ཡིག');
    await page.getByRole('heading', { name: 'རྩིས་ཐོར་ནང་འཛུལ།' }).waitFor();
    await screenshot(page, 'login-tib');
  });
});

describe('password recovery', () => {
  it('registers a new account (the demo domain allows registration) and signs it in', async () => {
    await page.goto('/login');
    await page.getByRole('link', { name: '立即注册' }).click();
    await page.waitForURL('**/register');
    // The URL changes before the new page is painted; the login form also has a "用户名" field.
    await page.getByRole('heading', { name: '注册账号' }).waitFor();
    await page.getByLabel('用户名').fill('e2e-newcomer');
    await page.getByLabel('姓名').fill('新同事');
    await page.getByLabel('密码', { exact: true }).fill('Newcomer2026');
    await page.getByLabel('确认密码').fill('Newcomer2025');
    await page.getByRole('button', { name: /注\s?册/ }).click();
    await page.getByText('两次输入的密码不一致').waitFor();
    await page.getByText('请阅读并同意服务条款').waitFor();
    await screenshot(page, 'register-validation');

    await page.getByLabel('确认密码').fill('Newcomer2026');
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: /注\s?册/ }).click();
    await page.waitForURL('**/studies');
    await page.getByRole('button', { name: '账号菜单' }).getByText('新同事').waitFor();
    await screenshot(page, 'register-signed-in');
  });
});

describe('password recovery by SMS code', () => {
  it('resets a forgotten password with a code sent to the bound number', async () => {
    // One code a minute per number and per name (the SMS services' flow control): this test runs
    // last, so little or nothing is left to wait of the minute since the binding's code.
    const wait = mobileBoundAt + 61_000 - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    await page.goto('/login');
    await page.evaluate(() => window.localStorage.clear());
    await page.goto('/login');
    await page.getByRole('link', { name: '忘记密码？' }).click();
    await page.waitForURL('**/forget-password');
    await page.getByRole('heading', { name: '找回密码' }).waitFor();
    await page.getByLabel('用户名').fill('e2e-mobile');
    await page.getByRole('button', { name: '下一步' }).click();
    await page.getByText('验证码将发送至 139****0001').waitFor();
    const before = (await smsMessages(phone)).length;
    await page.getByRole('button', { name: '发送验证码' }).click();
    await page.getByLabel('验证码').waitFor();
    const code = await smsCode(phone, before + 1);
    await page.getByLabel('验证码').fill(code === '000000' ? '111111' : '000000');
    await page.getByLabel('新密码', { exact: true }).fill('Kestrel2026y');
    await page.getByLabel('确认新密码').fill('Kestrel2026y');
    await page.getByRole('button', { name: '重置密码' }).click();
    await page.getByText('验证码不正确，还可尝试 4 次').waitFor();
    await page.getByLabel('验证码').fill(code);
    await screenshot(page, 'forget-password-code');
    await page.getByRole('button', { name: '重置密码' }).click();
    await page.waitForURL('**/login');
    await submitLogin(page, 'e2e-mobile', 'Kestrel2026y');
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
    expect(
      (
        await fetch(`${baseUrl()}/yyp/api/v1/accounts/login-in`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ username: 'e2e-mobile', password }),
        })
      ).status,
    ).toBe(401);
  }, 150_000);
});
