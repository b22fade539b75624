import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { createDevSms } from './dev.js';
import { smsSettings } from './settings.js';

const SECRET = 'a-Secret-never-shown-0123';
const aliyun = {
  YYP_SMS: 'aliyun',
  ALIYUN_SMS_ACCESS_KEY_ID: 'LTAI5tExample0000',
  ALIYUN_SMS_ACCESS_KEY_SECRET: SECRET,
  ALIYUN_SMS_SIGN_NAME: '仁和医院',
  ALIYUN_SMS_TEMPLATE_RESET_PASSWORD: 'SMS_100000001',
  ALIYUN_SMS_TEMPLATE_BIND_MOBILE: 'SMS_100000002',
};

function thrown(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    return String(err);
  }
  throw new Error('nothing was thrown');
}

describe('YYP_SMS (docs/sms.md)', () => {
  it('is the simulator by default, off by default in production, and can be switched', () => {
    expect(smsSettings({})).toEqual({ mode: 'sim', aliyun: undefined, simPort: 0 });
    expect(smsSettings({ YYP_SMS_SIM_PORT: '5099' }).simPort).toBe(5099);
    for (const port of ['70000', '-1', '80.5', 'http']) {
      expect(() => smsSettings({ YYP_SMS_SIM_PORT: port }), port).toThrow(/YYP_SMS_SIM_PORT/);
    }
    expect(loadConfig({}).sms.mode).toBe('sim');
    expect(smsSettings({ NODE_ENV: 'production' }).mode).toBe('off');
    expect(smsSettings({ NODE_ENV: 'production', YYP_SMS: 'sim' }).mode).toBe('sim');
    expect(smsSettings({ YYP_SMS: ' OFF ' }).mode).toBe('off');
    expect(smsSettings({ YYP_SMS: 'dev' }).mode).toBe('dev');
    expect(() => smsSettings({ YYP_SMS: 'twilio' })).toThrow(/off, dev, sim or aliyun/);
  });

  it('refuses the development log in production, in the settings and in the provider', () => {
    expect(() => smsSettings({ YYP_SMS: 'dev', NODE_ENV: 'production' })).toThrow(
      'YYP_SMS=dev writes codes to the log and is refused in production',
    );
    expect(() => createDevSms({ info: () => undefined }, { NODE_ENV: 'production' })).toThrow(/refused in production/);
    expect(createDevSms({ info: () => undefined }, { NODE_ENV: 'development' }).kind).toBe('dev');
  });

  it('reads the Alibaba Cloud settings', () => {
    expect(smsSettings(aliyun)).toEqual({
      mode: 'aliyun',
      simPort: 0,
      aliyun: {
        endpoint: 'https://dysmsapi.aliyuncs.com',
        region: 'cn-hangzhou',
        accessKeyId: 'LTAI5tExample0000',
        accessKeySecret: SECRET,
        signName: '仁和医院',
        templates: { 'reset-password': 'SMS_100000001', 'bind-mobile': 'SMS_100000002' },
      },
    });
    expect(
      smsSettings({
        ...aliyun,
        ALIYUN_SMS_ENDPOINT: 'https://dysmsapi.ap-southeast-1.aliyuncs.com/',
        ALIYUN_SMS_REGION: 'ap-southeast-1',
      }).aliyun,
    ).toMatchObject({ endpoint: 'https://dysmsapi.ap-southeast-1.aliyuncs.com', region: 'ap-southeast-1' });
    expect(smsSettings({ ...aliyun, ALIYUN_SMS_ENDPOINT: 'http://127.0.0.1:9000/' }).aliyun?.endpoint).toBe(
      'http://127.0.0.1:9000',
    );
    // Only asked for when YYP_SMS=aliyun.
    expect(smsSettings({ ...aliyun, YYP_SMS: 'sim', ALIYUN_SMS_ACCESS_KEY_ID: '' }).aliyun).toBeUndefined();
  });

  it('names each missing or malformed variable, never repeating the secret', () => {
    for (const name of Object.keys(aliyun).filter((k) => k !== 'YYP_SMS')) {
      expect(
        thrown(() => smsSettings({ ...aliyun, [name]: ' ' })),
        name,
      ).toContain(`YYP_SMS=aliyun needs ${name}`);
    }
    const bad: [Record<string, string>, RegExp][] = [
      [
        { ALIYUN_SMS_TEMPLATE_BIND_MOBILE: 'bind' },
        /ALIYUN_SMS_TEMPLATE_BIND_MOBILE must be a template code like SMS_123456789/,
      ],
      [{ ALIYUN_SMS_TEMPLATE_RESET_PASSWORD: 'SMS_12' }, /ALIYUN_SMS_TEMPLATE_RESET_PASSWORD/],
      [{ ALIYUN_SMS_ACCESS_KEY_ID: 'bad id!' }, /ALIYUN_SMS_ACCESS_KEY_ID/],
      [{ ALIYUN_SMS_ACCESS_KEY_SECRET: `${SECRET} x` }, /ALIYUN_SMS_ACCESS_KEY_SECRET must not contain spaces/],
      [{ ALIYUN_SMS_SIGN_NAME: '【仁和医院】' }, /ALIYUN_SMS_SIGN_NAME/],
      [
        { ALIYUN_SMS_ENDPOINT: 'http://dysmsapi.aliyuncs.com' },
        /ALIYUN_SMS_ENDPOINT must be an https URL \(http only on loopback\)/,
      ],
      [{ ALIYUN_SMS_ENDPOINT: 'dysmsapi.aliyuncs.com' }, /ALIYUN_SMS_ENDPOINT must be an https URL/],
      [{ ALIYUN_SMS_ENDPOINT: 'https://dysmsapi.aliyuncs.com/sms?x=1' }, /ALIYUN_SMS_ENDPOINT must be an origin/],
      [{ ALIYUN_SMS_REGION: 'Hangzhou' }, /ALIYUN_SMS_REGION/],
    ];
    for (const [change, message] of bad) {
      const text = thrown(() => smsSettings({ ...aliyun, ...change }));
      expect(text, JSON.stringify(change)).toMatch(message);
      expect(text).not.toContain(SECRET);
    }
  });
});
