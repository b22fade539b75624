// @vitest-environment jsdom
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { defaultDomainConfig, type User } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../api/sessionStore';
import { demoUser, errorAnswer, installFakeApi, tokenFor, type FakeHandler } from '../../test/fakeApi';
import { renderApp } from '../../test/renderApp';

function openMobile(user: User, extra: Record<string, FakeHandler>) {
  const api = installFakeApi({
    'GET domain': () => ({ status: 200, body: defaultDomainConfig }),
    'GET accounts/me': () => ({ status: 200, body: user }),
    ...extra,
  });
  sessionStore.signIn(user.username, tokenFor(user.username, user.loginType));
  renderApp('/settings/mobile');
  return api;
}

describe('/settings/mobile', () => {
  it('sends a code to the new number and binds it with that code', async () => {
    const api = openMobile(demoUser({ mobile: null }), {
      'POST accounts/me/code/bind-mobile': () => ({ status: 204 }),
      'POST accounts/me/mobile/bind': (request) => ({
        status: 200,
        body: demoUser({ mobile: (request.body as { mobile: string }).mobile }),
      }),
    });
    const user = userEvent.setup();
    expect(await screen.findByText('No mobile number bound')).toBeTruthy();
    const bindButton = screen.getByRole('button', { name: 'Bind this number' });
    expect(bindButton).toHaveProperty('disabled', true);
    await user.type(screen.getByLabelText('New mobile number'), '13912345678');
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    expect(await screen.findByText(/A verification code was sent to 13912345678/)).toBeTruthy();
    expect(screen.getByRole('button', { name: /Resend in \d+ s/ })).toHaveProperty('disabled', true);
    await user.type(screen.getByLabelText('Verification code'), '482913');
    await user.click(screen.getByRole('button', { name: 'Bind this number' }));
    expect(await screen.findByText('Mobile number bound.')).toBeTruthy();
    expect(api.requests.filter((r) => r.method === 'POST').map((r) => [r.path, r.body])).toEqual([
      ['accounts/me/code/bind-mobile', { mobile: '13912345678' }],
      ['accounts/me/mobile/bind', { mobile: '13912345678', code: '482913' }],
    ]);
    expect(await screen.findByText('13912345678')).toBeTruthy();
  });

  it('refuses a number the SMS services do not take before calling the server', async () => {
    const api = openMobile(demoUser({ mobile: null }), {});
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('New mobile number'), '23912345678');
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    expect(await screen.findByText(/Enter an 11-digit mainland mobile number/)).toBeTruthy();
    expect(api.requests.some((r) => r.method === 'POST')).toBe(false);
  });

  it('names the tries left after a wrong code', async () => {
    openMobile(demoUser({ mobile: '13800000000' }), {
      'POST accounts/me/code/bind-mobile': () => ({ status: 204 }),
      'POST accounts/me/mobile/bind': () => errorAnswer(400, 'VerificationCodeIncorrect', { triesLeft: 4 }),
    });
    const user = userEvent.setup();
    expect(await screen.findByText('13800000000')).toBeTruthy();
    await user.type(screen.getByLabelText('New mobile number'), '+447700900123');
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    await user.type(await screen.findByLabelText('Verification code'), '000000');
    await user.click(screen.getByRole('button', { name: 'Bind this number' }));
    expect(await screen.findByText('The code is incorrect: 4 tries left.')).toBeTruthy();
  });

  it('saves the number without a code where the site sends no text messages', async () => {
    const api = openMobile(demoUser({ mobile: null }), {
      'POST accounts/me/code/bind-mobile': () => errorAnswer(503, 'ServiceNotConfigured'),
      'PATCH accounts/me': (request) => ({ status: 200, body: demoUser(request.body as Partial<User>) }),
    });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('New mobile number'), '13912345678');
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    expect(await screen.findByText(/cannot send text messages/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Save number' }));
    await waitFor(() =>
      expect(api.requests.find((r) => r.method === 'PATCH')?.body).toEqual({ mobile: '13912345678' }),
    );
    expect(await screen.findByText('Mobile number saved.')).toBeTruthy();
  });
});
