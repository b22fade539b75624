// @vitest-environment jsdom
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { defaultDomainConfig, type MyNotificationSettings } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../api/sessionStore';
import { demoUser, installFakeApi, tokenFor } from '../../test/fakeApi';
import { renderApp } from '../../test/renderApp';

describe('/settings/notifications', () => {
  it('shows the stored settings and saves which kinds pop up and the sound', async () => {
    let stored: MyNotificationSettings = { mutedKinds: ['remote_report'], sound: false };
    const api = installFakeApi({
      'GET domain': () => ({ status: 200, body: defaultDomainConfig }),
      'GET accounts/me': () => ({ status: 200, body: demoUser() }),
      'GET accounts/me/notification-settings': () => ({ status: 200, body: stored }),
      'PUT accounts/me/notification-settings': (request) => {
        stored = request.body as MyNotificationSettings;
        return { status: 200, body: stored };
      },
    });
    sessionStore.signIn('doctor', tokenFor('doctor'));
    renderApp('/settings/notifications');
    const uploaded = await screen.findByRole(
      'checkbox',
      { name: 'A new exam uploaded through the upload link' },
      {
        timeout: 10_000,
      },
    );
    expect(uploaded).toHaveProperty('checked', true);
    expect(screen.getByRole('checkbox', { name: 'An expert report received' })).toHaveProperty('checked', false);
    expect(screen.getByRole('switch', { name: 'Play a sound' })).toHaveProperty('ariaChecked', 'false');
    expect(screen.getByRole('link', { name: 'Notifications' })).toBeTruthy();

    const user = userEvent.setup();
    await user.click(uploaded);
    await user.click(screen.getByRole('checkbox', { name: 'An expert report received' }));
    await user.click(screen.getByRole('switch', { name: 'Play a sound' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Notification settings saved.')).toBeTruthy();
    await waitFor(() =>
      expect(api.requests.filter((r) => r.method === 'PUT').map((r) => r.body)).toEqual([
        { mutedKinds: ['exam_uploaded'], sound: true },
      ]),
    );
  });
});
