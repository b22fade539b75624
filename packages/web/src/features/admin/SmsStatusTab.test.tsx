// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { defaultDomainConfig, type SmsStatus } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../api/sessionStore';
import { demoUser, installFakeApi, tokenFor } from '../../test/fakeApi';
import { renderApp } from '../../test/renderApp';

const fromEnvironment: SmsStatus = {
  mode: 'sim',
  endpoint: 'http://127.0.0.1:40001',
  region: 'cn-hangzhou',
  signName: 'yyp',
  templates: { resetPassword: 'SMS_000000001', bindMobile: 'SMS_000000002' },
  accessKeyId: 'LTAI****a1',
  inboxUrl: 'http://127.0.0.1:40001/inbox',
  source: 'environment',
  updatedAt: null,
  secretUnreadable: false,
};

function open() {
  let status = fromEnvironment;
  const admin = demoUser({ id: 'u-admin', username: 'admin', isPlatformAdmin: true });
  const api = installFakeApi({
    'GET domain': () => ({ status: 200, body: defaultDomainConfig }),
    'GET accounts/me': () => ({ status: 200, body: admin }),
    'GET admin/sms': () => ({ status: 200, body: status }),
    'PUT admin/sms': (request) => {
      const body = request.body as { signName: string; templates: SmsStatus['templates']; endpoint: string };
      status = {
        ...fromEnvironment,
        mode: 'aliyun',
        source: 'platform',
        updatedAt: '2026-11-29T02:00:00Z',
        signName: body.signName,
        templates: body.templates,
        endpoint: body.endpoint,
        accessKeyId: 'LTAI****01',
        inboxUrl: null,
      };
      return { status: 200, body: status };
    },
    'DELETE admin/sms': () => {
      status = fromEnvironment;
      return { status: 200, body: status };
    },
  });
  sessionStore.signIn(admin.username, tokenFor(admin.username));
  renderApp('/settings/admin');
  return api;
}

describe('/settings/admin, SMS: an account of the platform’s own', () => {
  it('puts an Alibaba Cloud account in place of the environment’s, then goes back to it', async () => {
    const api = open();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: 'SMS' }));
    expect(await screen.findByText('The server environment')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /Use an account of the platform’s own/ }));
    const dialog = await screen.findByRole('dialog', { name: 'SMS account of the platform' });
    const field = (label: string) => within(dialog).getByLabelText(label);
    await user.type(field('AccessKey ID'), 'LTAI5tPlatformOwn01');
    await user.type(field('AccessKey secret'), 'platform-own-secret');
    await user.type(field('Signature'), '【仁和医院】');
    await user.type(field('Template: reset password'), 'SMS_465001001');
    await user.type(field('Template: bind mobile'), '465001002');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    // The form says what is wrong and sends nothing.
    expect(await within(dialog).findByText('The signature without brackets, 2 to 32 characters')).toBeTruthy();
    expect(within(dialog).getByText('A template code like SMS_123456789')).toBeTruthy();
    expect(api.requests.some((r) => r.method === 'PUT')).toBe(false);
    await user.clear(field('Signature'));
    await user.type(field('Signature'), '仁和医院');
    await user.clear(field('Template: bind mobile'));
    await user.type(field('Template: bind mobile'), 'SMS_465001002');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.requests.some((r) => r.method === 'PUT')).toBe(true));
    expect(api.requests.find((r) => r.method === 'PUT')?.body).toEqual({
      mode: 'aliyun',
      accessKeyId: 'LTAI5tPlatformOwn01',
      accessKeySecret: 'platform-own-secret',
      signName: '仁和医院',
      templates: { resetPassword: 'SMS_465001001', bindMobile: 'SMS_465001002' },
      region: 'cn-hangzhou',
      endpoint: 'https://dysmsapi.aliyuncs.com',
    });
    expect(await screen.findByText(/This page \(saved/)).toBeTruthy();
    expect(screen.getByText('【仁和医院】')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: /Back to the server environment/ }));
    await user.click(await screen.findByRole('button', { name: 'Back to the server environment' }));
    await waitFor(() => expect(api.requests.some((r) => r.method === 'DELETE')).toBe(true));
    expect(await screen.findByText('The server environment')).toBeTruthy();
  });
});
