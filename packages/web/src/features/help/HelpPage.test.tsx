// @vitest-environment jsdom
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { defaultDomainConfig } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { setLanguage } from '../../i18n';
import { sessionStore } from '../../api/sessionStore';
import { demoUser, installFakeApi, tokenFor } from '../../test/fakeApi';
import { renderApp } from '../../test/renderApp';

function signedIn() {
  installFakeApi({
    'GET domain': () => ({
      status: 200,
      body: { ...defaultDomainConfig, company: 'Example Imaging Ltd', website: 'https://example.org' },
    }),
    'GET accounts/me': () => ({ status: 200, body: demoUser() }),
    'GET groups/mine': () => ({ status: 200, body: [] }),
    'GET global-configs/query': () => ({
      status: 200,
      body: {
        helpUrl: 'https://help.example.org/yyp',
        supportPhone: '+86 10 1234-5678',
        supportEmail: 'help@example.org',
        announcement: null,
      },
    }),
  });
  sessionStore.signIn('doctor', tokenFor('doctor'));
}

describe('/help', () => {
  it('opens from the navbar with the keyboard shortcuts and the contacts', async () => {
    signedIn();
    renderApp('/studies');
    const nav = await screen.findByRole('navigation', { name: 'Main navigation' }, { timeout: 10_000 });
    await userEvent.setup().click(within(nav).getByRole('link', { name: 'Help' }));
    const editor = await screen.findByRole('region', { name: 'Report editor' });
    expect(within(editor).getByText('Ctrl+Shift+Enter')).toBeTruthy();
    expect(within(editor).getByText('Approve the report')).toBeTruthy();
    expect(screen.getByText('Example Imaging Ltd')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'https://example.org' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Learning videos show how the platform is used.' })).toBeTruthy();
    // the platform admin's support settings (global configs)
    expect(screen.getByText('+86 10 1234-5678').closest('a')?.getAttribute('href')).toBe('tel:+861012345678');
    expect(screen.getByText('help@example.org').closest('a')?.getAttribute('href')).toBe('mailto:help@example.org');
    expect(screen.getByText('https://help.example.org/yyp').closest('a')?.getAttribute('target')).toBe('_blank');
  });

  it('speaks Chinese and Tibetan too', async () => {
    signedIn();
    await setLanguage('chs');
    renderApp('/help');
    expect(await screen.findByRole('heading', { name: '帮助' }, { timeout: 10_000 })).toBeTruthy();
    expect(screen.getByText('审核报告')).toBeTruthy();
    await setLanguage('tib');
    expect(await screen.findByRole('heading', { name: 'རོགས་རམ།' })).toBeTruthy();
    await setLanguage('en');
  });
});
