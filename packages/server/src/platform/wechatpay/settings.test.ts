import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makePlatformCertificate } from '../../sim/wechatpay/certificate.js';
import { loadConfig } from '../config.js';
import { wechatPaySettings } from './settings.js';
import { createWechatPayProvider } from './start.js';

const live = {
  YYP_WECHATPAY: 'live',
  WECHATPAY_MCHID: '1900000109',
  WECHATPAY_APPID: 'wxd678efh567hg6787',
  WECHATPAY_MERCHANT_SERIAL: '5157f09efdc096de15ebe81a47057a7232f1b8e1',
  WECHATPAY_PRIVATE_KEY_FILE: '/etc/yyp/apiclient_key.pem',
  WECHATPAY_APIV3_KEY: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ012345',
  WECHATPAY_PLATFORM_CERT_FILE: '/etc/yyp/wechatpay_a.pem, /etc/yyp/wechatpay_b.pem',
};

describe('YYP_WECHATPAY and WECHATPAY_* (docs/payments.md)', () => {
  it('runs the simulator by default, and can be switched off', () => {
    expect(loadConfig({}).wechatPay).toEqual({ mode: 'sim', live: undefined, simRefundDelayMs: 1000 });
    expect(wechatPaySettings({ YYP_WECHATPAY: 'OFF' }).mode).toBe('off');
    expect(wechatPaySettings({ WECHATPAY_SIM_REFUND_DELAY_MS: '0' }).simRefundDelayMs).toBe(0);
    expect(() => wechatPaySettings({ YYP_WECHATPAY: 'sandbox' })).toThrow(/off, sim or live/);
    expect(() => wechatPaySettings({ WECHATPAY_SIM_REFUND_DELAY_MS: '-1' })).toThrow(/REFUND_DELAY/);
  });

  it('reads the live merchant settings', () => {
    expect(wechatPaySettings(live).live).toEqual({
      baseUrl: 'https://api.mch.weixin.qq.com',
      mchid: '1900000109',
      appid: 'wxd678efh567hg6787',
      merchantSerial: '5157F09EFDC096DE15EBE81A47057A7232F1B8E1',
      privateKeyFile: '/etc/yyp/apiclient_key.pem',
      apiV3Key: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ012345',
      platformCertFiles: ['/etc/yyp/wechatpay_a.pem', '/etc/yyp/wechatpay_b.pem'],
      publicKeyFile: undefined,
      publicKeyId: undefined,
    });
    const withPublicKey = {
      ...live,
      WECHATPAY_PLATFORM_CERT_FILE: '',
      WECHATPAY_PUBLIC_KEY_FILE: '/etc/yyp/pub_key.pem',
      WECHATPAY_PUBLIC_KEY_ID: 'PUB_KEY_ID_0119000001092025',
      WECHATPAY_BASE_URL: 'https://api2.mch.weixin.qq.com/',
    };
    expect(wechatPaySettings(withPublicKey).live).toMatchObject({
      baseUrl: 'https://api2.mch.weixin.qq.com',
      platformCertFiles: [],
      publicKeyId: 'PUB_KEY_ID_0119000001092025',
    });
  });

  it('refuses live settings that are missing or malformed, without repeating the APIv3 key', () => {
    for (const name of Object.keys(live).filter((k) => k !== 'YYP_WECHATPAY')) {
      expect(() => wechatPaySettings({ ...live, [name]: '' })).toThrow(/WECHATPAY_/);
    }
    expect(() => wechatPaySettings({ ...live, WECHATPAY_MCHID: 'merchant' })).toThrow(/digits/);
    expect(() => wechatPaySettings({ ...live, WECHATPAY_MERCHANT_SERIAL: 'xyz' })).toThrow(/hexadecimal/);
    expect(() => wechatPaySettings({ ...live, WECHATPAY_APIV3_KEY: 'short-secret' })).toThrow(/^((?!short-secret).)*$/);
    expect(() => wechatPaySettings({ ...live, WECHATPAY_BASE_URL: 'http://api.mch.weixin.qq.com' })).toThrow(/https/);
    expect(wechatPaySettings({ ...live, WECHATPAY_BASE_URL: 'http://127.0.0.1:9000' }).live?.baseUrl).toBe(
      'http://127.0.0.1:9000',
    );
    expect(() => wechatPaySettings({ ...live, WECHATPAY_PUBLIC_KEY_ID: 'PUB_KEY_ID_1' })).toThrow(/together/);
  });

  it('builds the live adapter from the key and certificate files (null when off)', () => {
    expect(createWechatPayProvider(wechatPaySettings({ YYP_WECHATPAY: 'off' }))).toBeNull();
    expect(() => createWechatPayProvider(wechatPaySettings({}))).toThrow(/startWechatPay/);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'yyp-wxpay-'));
    const key = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    writeFileSync(path.join(dir, 'apiclient_key.pem'), key.export({ type: 'pkcs8', format: 'pem' }));
    writeFileSync(path.join(dir, 'platform.pem'), makePlatformCertificate({ commonName: 'p' }).pem);
    const files = {
      ...live,
      WECHATPAY_PRIVATE_KEY_FILE: path.join(dir, 'apiclient_key.pem'),
      WECHATPAY_PLATFORM_CERT_FILE: path.join(dir, 'platform.pem'),
    };
    expect(typeof createWechatPayProvider(wechatPaySettings(files))?.createNativeOrder).toBe('function');
    const missing = { ...files, WECHATPAY_PLATFORM_CERT_FILE: path.join(dir, 'absent.pem') };
    expect(() => createWechatPayProvider(wechatPaySettings(missing))).toThrow(/cannot read .*ENOENT/);
    const old = makePlatformCertificate({ commonName: 'old', now: new Date('2024-01-01T00:00:00Z'), days: 365 });
    writeFileSync(path.join(dir, 'expired.pem'), old.pem);
    const expired = { ...files, WECHATPAY_PLATFORM_CERT_FILE: path.join(dir, 'expired.pem') };
    expect(() => createWechatPayProvider(wechatPaySettings(expired))).toThrow(/valid now/);
    // While one is rotated out, the current one is enough.
    const both = {
      ...files,
      WECHATPAY_PLATFORM_CERT_FILE: `${path.join(dir, 'expired.pem')},${path.join(dir, 'platform.pem')}`,
    };
    expect(createWechatPayProvider(wechatPaySettings(both))).not.toBeNull();
  });
});
