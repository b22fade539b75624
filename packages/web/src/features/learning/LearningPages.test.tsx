// @vitest-environment jsdom
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { defaultDomainConfig, type Learning, type LearningDetail } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../api/sessionStore';
import { demoUser, errorAnswer, installFakeApi, tokenFor } from '../../test/fakeApi';
import { locationOf, renderApp } from '../../test/renderApp';

function learning(n: number, overrides: Partial<Learning> = {}): Learning {
  return {
    id: `video-${n}`,
    title: `Reading basics ${n}`,
    description: `How to read, part ${n}`,
    contentType: 'video/webm',
    size: 2048,
    durationSeconds: 125,
    sortOrder: n,
    published: true,
    createdAt: '2026-11-22T08:00:00.000Z',
    updatedAt: '2026-11-22T08:00:00.000Z',
    ...overrides,
  };
}

const detail = (n: number): LearningDetail => ({
  ...learning(n),
  videoUrl: `/yyp/api/v1/learnings/video-${n}/video?token=signed`,
  videoUrlExpires: 1_900_000_000,
});

describe('/learning', () => {
  it('lists the learning videos from the navbar entry, each opening its player', async () => {
    const api = installFakeApi({
      'GET domain': () => ({ status: 200, body: defaultDomainConfig }),
      'GET accounts/me': () => ({ status: 200, body: demoUser() }),
      'GET groups/mine': () => ({ status: 200, body: [] }),
      'GET learnings/list': () => ({ status: 200, body: { items: [learning(1), learning(2)], count: 2 } }),
      'GET learnings/:learningId': (request) =>
        request.params.learningId === 'video-2' ? { status: 200, body: detail(2) } : errorAnswer(404, 'NotFound'),
    });
    sessionStore.signIn('doctor', tokenFor('doctor'));
    const { router } = renderApp('/studies');
    const user = userEvent.setup();
    const nav = await screen.findByRole('navigation', { name: 'Main navigation' }, { timeout: 10_000 });
    await user.click(await within(nav).findByRole('link', { name: 'Learning videos' }));
    expect(await screen.findByText('Reading basics 1')).toBeTruthy();
    expect(screen.getByText('How to read, part 2')).toBeTruthy();
    expect(screen.getAllByText('2 min 5 s')).toHaveLength(2);
    expect(api.requests.find((r) => r.path === 'learnings/list')?.search).toBe('?skip=0&limit=20');
    await user.click(screen.getByRole('link', { name: 'Watch: Reading basics 2' }));
    const player = await screen.findByLabelText('Video: Reading basics 2');
    expect(locationOf(router)).toBe('/learning/video-2');
    expect(player.tagName).toBe('VIDEO');
    expect(player.getAttribute('src')).toBe('/yyp/api/v1/learnings/video-2/video?token=signed');
    expect(screen.getByRole('link', { name: 'All learning videos' })).toBeTruthy();
  });

  it('says when there are none', async () => {
    installFakeApi({
      'GET domain': () => ({ status: 200, body: defaultDomainConfig }),
      'GET accounts/me': () => ({ status: 200, body: demoUser() }),
      'GET learnings/list': () => ({ status: 200, body: { items: [], count: 0 } }),
    });
    sessionStore.signIn('doctor', tokenFor('doctor'));
    renderApp('/learning');
    expect(await screen.findByText('No learning videos yet.', {}, { timeout: 10_000 })).toBeTruthy();
  });
});

describe('/learning/{id} for a visitor', () => {
  it('plays a published video without a session, sending no token, with a way to sign in', async () => {
    const api = installFakeApi({
      'GET domain': () => ({ status: 200, body: defaultDomainConfig }),
      'GET learnings/:learningId': () => ({ status: 200, body: detail(1) }),
    });
    renderApp('/learning/video-1');
    const player = await screen.findByLabelText('Video: Reading basics 1', {}, { timeout: 10_000 });
    expect(player.getAttribute('src')).toContain('/learnings/video-1/video?token=');
    expect(screen.getByText('How to read, part 1')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe(
      '/login?redirect=%2Flearning%2Fvideo-1',
    );
    const asked = api.requests.find((r) => r.path === 'learnings/video-1');
    expect(asked?.headers.authorization).toBeUndefined();
  });

  it('says a video that is missing or not published is not found', async () => {
    installFakeApi({
      'GET domain': () => ({ status: 200, body: defaultDomainConfig }),
      'GET learnings/:learningId': () => errorAnswer(404, 'NotFound'),
    });
    renderApp('/learning/draft');
    expect(await screen.findByText('Video not found', {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.getByText('This learning video does not exist or is not published.')).toBeTruthy();
  });
});
