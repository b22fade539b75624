import { describe, expect, it } from 'vitest';
import { createDevSms } from './dev.js';
import { serviceNumber } from './phone.js';
import { smsSettings } from './settings.js';

const aliyun = {
  YYP_SMS: 'aliyun',
  ALIYUN_SMS_ACCESS_KEY_ID: 'LTAI5tExample0000',
  ALIYUN_SMS_ACCESS_KEY_SECRET: 'a-secret-never-shown',
  ALIYUN_SMS_SIGN_NAME: '仁和医院',
  ALIYUN_SMS_TEMPLATE_RESET_PASSWORD: 'SMS_100000001',
  ALIYUN_SMS_TEMPLATE_BIND_MOBILE: 'SMS_100000002',
};

describe('YYP_SMS', () => {
  it('is the simulator by default, and off by default in production', () => {
    expect(smsSettings({})).toMatchObject({ mode: 'sim', simPort: 0 });
    expect(smsSettings({ NODE_ENV: 'production' }).mode).toBe('off');
    expect(smsSettings({ YYP_SMS: 'SIM', YYP_SMS_SIM_PORT: '5099' })).toMatchObject({ mode: 'sim', simPort: 5099 });
  });

  it('refuses the development log in production, and unknown modes and ports', () => {
    expect(() => smsSettings({ YYP_SMS: 'dev', NODE_ENV: 'production' })).toThrow(/refused in production/);
    expect(smsSettings({ YYP_SMS: 'dev' }).mode).toBe('dev');
    expect(() => smsSettings({ YYP_SMS: 'twilio' })).toThrow(/off, dev, sim or aliyun/);
    expect(() => smsSettings({ YYP_SMS_SIM_PORT: '70000' })).toThrow(/YYP_SMS_SIM_PORT/);
    expect(() => createDevSms({ info: () => undefined }, { NODE_ENV: 'production' })).toThrow(/production/);
  });

  it('reads the Alibaba Cloud settings, naming what is missing without showing the secret', () => {
    expect(smsSettings(aliyun).aliyun).toEqual({
      endpoint: 'https://dysmsapi.aliyuncs.com',
      region: 'cn-hangzhou',
      accessKeyId: 'LTAI5tExample0000',
      accessKeySecret: 'a-secret-never-shown',
      signName: '仁和医院',
      templates: { 'reset-password': 'SMS_100000001', 'bind-mobile': 'SMS_100000002' },
    });
    for (const name of Object.keys(aliyun).filter((k) => k !== 'YYP_SMS')) {
      expect(() => smsSettings({ ...aliyun, [name]: '' }), name).toThrow(name);
    }
    expect(() => smsSettings({ ...aliyun, ALIYUN_SMS_TEMPLATE_BIND_MOBILE: 'bind' })).toThrow(/SMS_123456789/);
    expect(() => smsSettings({ ...aliyun, ALIYUN_SMS_ENDPOINT: 'http://sms.example.org' })).toThrow(/https/);
    expect(smsSettings({ ...aliyun, ALIYUN_SMS_ENDPOINT: 'http://127.0.0.1:9000/' }).aliyun?.endpoint).toBe(
      'http://127.0.0.1:9000',
    );
    try {
      smsSettings({ ...aliyun, ALIYUN_SMS_ACCESS_KEY_ID: 'bad id!' });
    } catch (err) {
      expect(String(err)).not.toContain('a-secret-never-shown');
    }
  });
});

describe('numbers as the service takes them', () => {
  it('sends mainland numbers as 11 digits and others as country code and number', () => {
    expect(serviceNumber('13912345678')).toBe('13912345678');
    expect(serviceNumber('+8613912345678')).toBe('13912345678');
    expect(serviceNumber('+447700900123')).toBe('447700900123');
  });
});
