// @vitest-environment jsdom
import { QueryClient } from '@tanstack/react-query';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../i18n';
import { AppProviders } from '../../test/appProviders';
import { FollowBanner, FollowButtons } from './FollowControls';
import type { FollowMode } from './useFollowMode';

const expert = { peerId: 'p-expert', accountId: 'acc-expert', name: 'Dr Wang' };

function mode(over: Partial<FollowMode> = {}): FollowMode {
  return {
    enabled: true,
    status: 'open',
    error: null,
    presenting: false,
    presenter: null,
    following: true,
    missingStudy: false,
    togglePresent: vi.fn(),
    toggleFollow: vi.fn(),
    ...over,
  };
}

function show(follow: FollowMode) {
  return render(
    <AppProviders queryClient={new QueryClient()}>
      <FollowButtons follow={follow} />
      <FollowBanner follow={follow} />
    </AppProviders>,
  );
}

const present = () => screen.getByTestId('follow-present');
const followButton = () => screen.getByTestId('follow-follow');
const banner = () => screen.queryByTestId('follow-banner');

afterEach(async () => {
  await act(() => setLanguage('en'));
});

describe('shared viewing controls', () => {
  it('show nothing without a consultation', () => {
    show(mode({ enabled: false }));
    expect(screen.queryByTestId('follow-controls')).toBeNull();
    expect(banner()).toBeNull();
  });

  it('wait for the room before Present can be pressed; Follow needs a presenter', () => {
    const { unmount } = show(mode({ status: 'connecting', presenter: expert }));
    expect((present() as HTMLButtonElement).disabled).toBe(true);
    expect((followButton() as HTMLButtonElement).disabled).toBe(true);
    unmount();
    const follow = mode();
    show(follow);
    expect((present() as HTMLButtonElement).disabled).toBe(false);
    expect(present()?.textContent).toContain('Present');
    expect(screen.queryByTestId('follow-follow')).toBeNull();
    expect(banner()).toBeNull();
    fireEvent.click(present());
    expect(follow.togglePresent).toHaveBeenCalledOnce();
  });

  it('name the presenter being followed, and leave from the banner', () => {
    const follow = mode({ presenter: expert, following: true });
    show(follow);
    expect(followButton()?.textContent).toContain('Follow Dr Wang');
    expect(followButton()?.getAttribute('aria-pressed')).toBe('true');
    expect(banner()?.getAttribute('data-state')).toBe('following');
    expect(banner()?.textContent).toContain('Following Dr Wang’s presentation');
    fireEvent.click(screen.getByTestId('follow-banner-action'));
    expect(follow.toggleFollow).toHaveBeenCalledOnce();
  });

  it('offer to follow again after leaving', () => {
    const follow = mode({ presenter: expert, following: false });
    show(follow);
    expect(followButton()?.getAttribute('aria-pressed')).toBe('false');
    expect(banner()?.getAttribute('data-state')).toBe('paused');
    expect(banner()?.textContent).toContain('Dr Wang is presenting');
    expect(screen.getByTestId('follow-banner-action')?.textContent).toContain('Follow again');
    fireEvent.click(followButton());
    expect(follow.toggleFollow).toHaveBeenCalledOnce();
  });

  it('tell the presenter it presents, and stop from the banner', () => {
    const follow = mode({ presenting: true, following: false });
    show(follow);
    expect(present()?.textContent).toContain('Stop presenting');
    expect(screen.queryByTestId('follow-follow')).toBeNull();
    expect(banner()?.getAttribute('data-state')).toBe('presenting');
    fireEvent.click(screen.getByTestId('follow-banner-action'));
    expect(follow.togglePresent).toHaveBeenCalledOnce();
  });

  it('say when the presenter shows a study not open here', () => {
    show(mode({ presenter: expert, missingStudy: true }));
    expect(banner()?.textContent).toContain('not open here');
  });

  it('speak Chinese: 正在跟随 … 的演示 · 退出跟随', async () => {
    await act(() => setLanguage('chs'));
    show(mode({ presenter: { ...expert, name: '王专家' } }));
    expect(banner()?.textContent).toContain('正在跟随 王专家 的演示');
    expect(screen.getByTestId('follow-banner-action')?.textContent).toContain('退出跟随');
    // Ant Design spaces out a two-character Chinese label
    expect(present()?.textContent?.replace(/\s/g, '')).toBe('演示');
  });
});
