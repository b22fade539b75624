// @vitest-environment jsdom
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../api/sessionStore';
import { demoUser, installFakeApi, tokenFor } from '../../test/fakeApi';
import { renderApp } from '../../test/renderApp';
import { DISMISSED_ANNOUNCEMENT_KEY } from './AnnouncementBanner';

function signedIn(announcement: string | null) {
  installFakeApi({
    'GET accounts/me': () => ({ status: 200, body: demoUser() }),
    'GET groups/mine': () => ({ status: 200, body: [] }),
    'GET global-configs/query': () => ({
      status: 200,
      body: { helpUrl: null, supportPhone: null, supportEmail: null, announcement },
    }),
  });
  sessionStore.signIn('doctor', tokenFor('doctor'));
}

describe('the platform announcement', () => {
  it('shows above every screen until hidden, and a new announcement shows again', async () => {
    signedIn('Maintenance on Sunday 02:00–04:00');
    const first = renderApp('/help');
    const banner = await screen.findByRole('status', { name: 'Platform announcement' }, { timeout: 10_000 });
    expect(banner.textContent).toContain('Maintenance on Sunday 02:00–04:00');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Hide this announcement' }));
    expect(screen.queryByText('Maintenance on Sunday 02:00–04:00')).toBeNull();
    expect(localStorage.getItem(DISMISSED_ANNOUNCEMENT_KEY)).toBe('Maintenance on Sunday 02:00–04:00');
    first.unmount();

    // hidden stays hidden on the next visit; another text is shown
    signedIn('Maintenance on Sunday 02:00–04:00');
    const second = renderApp('/help');
    await screen.findByRole('heading', { name: 'Help' }, { timeout: 10_000 });
    expect(screen.queryByText('Maintenance on Sunday 02:00–04:00')).toBeNull();
    second.unmount();
    localStorage.setItem(DISMISSED_ANNOUNCEMENT_KEY, 'Maintenance on Sunday 02:00–04:00');
    signedIn('New: report templates per organization');
    renderApp('/help');
    expect(await screen.findByText('New: report templates per organization', {}, { timeout: 10_000 })).toBeTruthy();
  });

  it('is absent when none is set', async () => {
    signedIn(null);
    renderApp('/help');
    await screen.findByRole('heading', { name: 'Help' }, { timeout: 10_000 });
    expect(screen.queryByRole('status', { name: 'Platform announcement' })).toBeNull();
  });
});
