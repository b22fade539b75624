// @vitest-environment jsdom
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ACCESS_TOKEN_KEY, defaultDomainConfig, type User } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../api/sessionStore';
import { demoUser, errorAnswer, installFakeApi, tokenFor, type FakeHandler } from '../../test/fakeApi';
import { renderApp } from '../../test/renderApp';

function server(user: User, extra: Record<string, FakeHandler> = {}, strong = false) {
  return installFakeApi({
    'GET domain': () => ({ status: 200, body: { ...defaultDomainConfig, requireStrongPwd: strong } }),
    'GET accounts/me': () => ({ status: 200, body: user }),
    ...extra,
  });
}

function openProfile(user: User = demoUser(), extra: Record<string, FakeHandler> = {}, strong = false) {
  const api = server(user, extra, strong);
  sessionStore.signIn(user.username, tokenFor(user.username, user.loginType));
  renderApp('/settings/profile');
  return api;
}

describe('profile', () => {
  it('shows the username read-only and saves the edited details', async () => {
    const api = openProfile(demoUser({ mobile: '13800000000' }), {
      'PATCH accounts/me': (request) => ({ status: 200, body: { ...demoUser(), ...(request.body as object) } }),
    });
    const user = userEvent.setup();
    const username = await screen.findByLabelText('Username');
    expect(username).toHaveProperty('disabled', true);
    expect(username).toHaveProperty('value', 'doctor');

    await user.clear(screen.getByLabelText('Name'));
    await user.type(screen.getByLabelText('Name'), '  Dr. Li Wei ');
    await user.type(screen.getByLabelText('Professional title'), 'Chief physician');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Profile saved.')).toBeTruthy();
    expect(api.requests.find((r) => r.method === 'PATCH')?.body).toEqual({
      name: 'Dr. Li Wei',
      licenseIssuer: null,
      professionalTitle: 'Chief physician',
    });
  });

  it('shows the mobile number with a link to bind another by code, and sends none with the profile', async () => {
    openProfile(demoUser({ mobile: '13800000000' }));
    expect(await screen.findByText('13800000000')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Change' }).getAttribute('href')).toBe('/settings/mobile');
  });
});

describe('profile picture', () => {
  const policy = {
    key: 'uploads/avatars/u-doctor/0f0e6c1e-3f41-4a55-9c4b-0a8f2f0d9e11.png',
    upload: { method: 'PUT', url: '/yyp/api/v1/blobs/upload?token=t1', headers: { 'content-type': 'image/png' } },
    expiresAt: 2_000_000_000,
    maxBytes: 2 * 1024 * 1024,
    accept: ['image/png', 'image/jpeg', 'image/webp'],
  };

  function fileInput(): HTMLInputElement {
    return document.querySelector('.yyp-avatar-field input[type=file]') as HTMLInputElement;
  }

  it('asks for a policy, sends the picture to its URL and saves the key on the profile', async () => {
    const api = openProfile(demoUser(), {
      'GET policies/avatars': () => ({ status: 200, body: policy }),
      'PUT blobs/upload': () => ({ status: 204 }),
      'PATCH accounts/me': () => ({ status: 200, body: demoUser({ avatar: '/yyp/api/v1/blobs/download?token=a1' }) }),
    });
    const user = userEvent.setup();
    await screen.findByText('Upload picture');
    await user.upload(fileInput(), new File([new Uint8Array(300)], 'me.png', { type: 'image/png' }));

    expect(await screen.findByText('Profile picture updated.')).toBeTruthy();
    const asked = api.requests.find((r) => r.path === 'policies/avatars');
    expect(new URLSearchParams(asked?.search)).toEqual(
      new URLSearchParams({ contentType: 'image/png', size: '300', fileName: 'me.png' }),
    );
    const sent = api.requests.find((r) => r.path === 'blobs/upload');
    expect(sent?.method).toBe('PUT');
    expect(sent?.search).toBe('?token=t1');
    expect(sent?.headers['content-type']).toBe('image/png');
    // The upload URL is the credential: the bearer token never goes along.
    expect(sent?.headers.authorization).toBeUndefined();
    expect(api.requests.find((r) => r.method === 'PATCH')?.body).toEqual({ avatar: policy.key });
    expect(await screen.findByText('Change picture')).toBeTruthy();
    expect(document.querySelector('.yyp-avatar-field img')?.getAttribute('src')).toBe(
      '/yyp/api/v1/blobs/download?token=a1',
    );
  });

  it('refuses a picture over 2 MB before asking the server', async () => {
    const api = openProfile();
    const user = userEvent.setup();
    await screen.findByText('Upload picture');
    await user.upload(fileInput(), new File([new Uint8Array(2 * 1024 * 1024 + 1)], 'big.png', { type: 'image/png' }));
    expect(await screen.findByText('The picture is larger than 2 MB.')).toBeTruthy();
    expect(api.requests.some((r) => r.path.startsWith('policies/'))).toBe(false);
  });

  it('tells an expired upload link apart and keeps the old picture', async () => {
    const api = openProfile(demoUser(), {
      'GET policies/avatars': () => ({ status: 200, body: policy }),
      'PUT blobs/upload': () => errorAnswer(403, 'LinkInvalid'),
    });
    const user = userEvent.setup();
    await screen.findByText('Upload picture');
    await user.upload(fileInput(), new File([new Uint8Array(10)], 'me.png', { type: 'image/png' }));
    expect(await screen.findByText('The link is invalid or has expired. Please try again.')).toBeTruthy();
    expect(api.requests.some((r) => r.method === 'PATCH')).toBe(false);
  });

  it('removes the picture', async () => {
    const api = openProfile(demoUser({ avatar: '/yyp/api/v1/blobs/download?token=a1' }), {
      'PATCH accounts/me': () => ({ status: 200, body: demoUser() }),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByText('Remove picture'));
    expect(await screen.findByText('Profile picture removed.')).toBeTruthy();
    expect(api.requests.find((r) => r.method === 'PATCH')?.body).toEqual({ avatar: null });
    expect(await screen.findByText('Upload picture')).toBeTruthy();
  });
});

describe('change password', () => {
  async function fillPasswords(oldPassword: string, newPassword: string, confirm = newPassword) {
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Current password'), oldPassword);
    await user.type(screen.getByLabelText('New password'), newPassword);
    await user.type(screen.getByLabelText('Confirm new password'), confirm);
    await user.click(screen.getByRole('button', { name: 'Change password' }));
  }

  it('stores the new token the server answers, so the session goes on', async () => {
    const fresh = tokenFor('doctor');
    const api = openProfile(demoUser(), { 'POST accounts/change-password': () => ({ status: 200, body: fresh }) });
    await fillPasswords('Yyp@2026', 'Better2026!');
    expect(await screen.findByText('Password changed.')).toBeTruthy();
    expect(api.requests.find((r) => r.path === 'accounts/change-password')?.body).toEqual({
      oldPassword: 'Yyp@2026',
      newPassword: 'Better2026!',
    });
    expect(JSON.parse(localStorage.getItem(ACCESS_TOKEN_KEY) ?? '{}')).toEqual({ ...fresh, username: 'doctor' });
  });

  it('refuses a new password equal to the current one', async () => {
    openProfile();
    await fillPasswords('Yyp@2026', 'Yyp@2026');
    expect(await screen.findByText('The new password must differ from the current one.')).toBeTruthy();
  });

  it('checks the policy and the confirmation before calling the server', async () => {
    const api = openProfile();
    await fillPasswords('Yyp@2026', 'abcdef', 'abcdeg');
    expect(await screen.findByText('The password is too simple.')).toBeTruthy();
    expect(screen.getByText('The two passwords do not match.')).toBeTruthy();
    expect(api.requests.some((r) => r.path === 'accounts/change-password')).toBe(false);
  });

  it('applies the strong policy when the domain requires it', async () => {
    openProfile(demoUser(), {}, true);
    expect(
      await screen.findByText(
        '8 to 32 characters, with upper- and lower-case letters, a digit and a special character.',
      ),
    ).toBeTruthy();
    await fillPasswords('Yyp@2026', 'abc12345');
    expect(await screen.findByText('The password is too simple.')).toBeTruthy();
  });

  it('marks a wrong current password on its field', async () => {
    openProfile(demoUser(), { 'POST accounts/change-password': () => errorAnswer(400, 'OldPasswordIncorrect') });
    await fillPasswords('nope1234', 'Better2026!');
    expect(await screen.findByText('The current password is incorrect.')).toBeTruthy();
  });

  it('is not offered to single sign-on accounts', async () => {
    openProfile(demoUser({ loginType: 'sso' }));
    expect(
      await screen.findByText('Your account signs in through single sign-on; its password is managed there.'),
    ).toBeTruthy();
    await waitFor(() => expect(screen.queryByLabelText('Current password')).toBeNull());
  });
});
