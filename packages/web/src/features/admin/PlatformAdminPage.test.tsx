// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { defaultDomainConfig, type DomainConfig, type User } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../api/sessionStore';
import { demoUser, installFakeApi, tokenFor, type FakeHandler } from '../../test/fakeApi';
import { renderApp } from '../../test/renderApp';

function open(user: User, extra: Record<string, FakeHandler> = {}, domain: DomainConfig = defaultDomainConfig) {
  let stored = domain;
  const api = installFakeApi({
    'GET domain': () => ({ status: 200, body: stored }),
    'GET accounts/me': () => ({ status: 200, body: user }),
    'PUT domain': (request) => {
      stored = { ...stored, ...(request.body as Partial<DomainConfig>) };
      return { status: 200, body: stored };
    },
    'POST admin/audit-logs/page-query': () => ({ status: 200, body: { logs: [], count: 0 } }),
    ...extra,
  });
  sessionStore.signIn(user.username, tokenFor(user.username, user.loginType));
  renderApp('/settings/admin');
  return api;
}

const admin = () => demoUser({ id: 'u-admin', username: 'admin', isPlatformAdmin: true });

describe('/settings/admin', () => {
  it('sets the strong-password policy and a 15-minute inactivity limit, sending only what changed', async () => {
    const api = open(admin());
    const user = userEvent.setup();
    await screen.findByRole('heading', { name: 'Platform administration' });
    await user.click(await screen.findByLabelText('Require strong passwords'));
    const minutes = screen.getByLabelText('Sign out after inactivity');
    await user.clear(minutes);
    await user.type(minutes, '15');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(/Site configuration saved/)).toBeTruthy();
    expect(api.requests.find((r) => r.method === 'PUT')?.body).toEqual({
      requireStrongPwd: true,
      maxInactiveMinutes: 15,
    });
  });

  it('previews the footer as the login page shows it: links kept, scripts gone', async () => {
    open(admin());
    const user = userEvent.setup();
    const footer = await screen.findByRole('textbox', { name: 'Login page footer (HTML)' });
    await user.click(footer);
    await user.paste(
      '© 仁和 <a href="https://beian.miit.gov.cn/">京ICP备1号</a><img src=x onerror="alert(1)"><a href="javascript:x">bad</a>',
    );
    const preview = screen.getByLabelText('Footer preview');
    const link = within(preview).getByRole('link', { name: '京ICP备1号' });
    expect(link.getAttribute('href')).toBe('https://beian.miit.gov.cn/');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
    expect(within(preview).queryByRole('link', { name: 'bad' })).toBeNull();
    expect(preview.querySelector('img')).toBeNull();
  });

  it('refuses a picture that is neither an http(s) address nor a site path', async () => {
    const api = open(admin());
    const user = userEvent.setup();
    await user.type(await screen.findByRole('textbox', { name: 'Logo' }), 'javascript:alert(1)');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(/Enter an http\(s\) address or a path/)).toBeTruthy();
    expect(api.requests.some((r) => r.method === 'PUT')).toBe(false);
  });

  it('lists every group of the platform', async () => {
    open(admin(), {
      'POST admin/groups/page-query': () => ({
        status: 200,
        body: {
          groups: [
            {
              id: 'demo-renhe',
              displayName: '仁和医疗集团',
              memberCount: 12,
              organizationCount: 3,
              enableStat: true,
              createdAt: '2026-01-02T00:00:00Z',
            },
          ],
          count: 1,
        },
      }),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: 'Groups' }));
    expect(await screen.findByText('仁和医疗集团')).toBeTruthy();
    expect(screen.getByText('demo-renhe')).toBeTruthy();
    expect(screen.getByText('1 groups')).toBeTruthy();
  });

  it('is for platform admins only, and only they see it in the settings menu', async () => {
    open(demoUser());
    expect(await screen.findByText('Only a platform administrator can open this page.')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Platform administration' })).toBeNull();
    await waitFor(() => expect(screen.getByRole('link', { name: 'Mobile number' })).toBeTruthy());
  });
  it('shows the SMS service in effect, its key id masked, and the form of a test message', async () => {
    open(admin(), {
      'GET admin/sms': () => ({
        status: 200,
        body: {
          mode: 'aliyun',
          endpoint: 'https://dysmsapi.aliyuncs.com',
          region: 'cn-hangzhou',
          signName: '仁和医院',
          templates: { resetPassword: 'SMS_100000001', bindMobile: 'SMS_100000002' },
          accessKeyId: 'LTAI****3f',
          inboxUrl: null,
          source: 'environment',
          updatedAt: null,
          secretUnreadable: false,
        },
      }),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: 'SMS' }));
    expect(await screen.findByText('Alibaba Cloud SMS')).toBeTruthy();
    expect(screen.getByText('【仁和医院】')).toBeTruthy();
    expect(screen.getByText('SMS_100000001')).toBeTruthy();
    expect(screen.getByText('LTAI****3f')).toBeTruthy();
    expect(screen.getByLabelText('Test number')).toBeTruthy();
    expect(screen.getByText('Send test message').closest('button')).toBeTruthy();
  });
});
