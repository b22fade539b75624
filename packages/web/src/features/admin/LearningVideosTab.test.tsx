// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { defaultDomainConfig, type Learning } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../api/sessionStore';
import { demoUser, installFakeApi, tokenFor } from '../../test/fakeApi';
import { renderApp } from '../../test/renderApp';

const stored: Learning = {
  id: 'video-1',
  title: 'Reading basics',
  description: '',
  contentType: 'video/mp4',
  size: 4096,
  durationSeconds: null,
  sortOrder: 0,
  published: false,
  createdAt: '2026-11-22T08:00:00.000Z',
  updatedAt: '2026-11-22T08:00:00.000Z',
};

function openTab() {
  const items: Learning[] = [stored];
  const api = installFakeApi({
    'GET domain': () => ({ status: 200, body: defaultDomainConfig }),
    'GET accounts/me': () => ({ status: 200, body: demoUser({ isPlatformAdmin: true }) }),
    'GET learnings/list': () => ({ status: 200, body: { items, count: items.length } }),
    'POST learnings': (request) => {
      const query = new URLSearchParams(request.search);
      const made: Learning = {
        ...stored,
        id: 'video-2',
        title: query.get('title')!,
        contentType: 'video/webm',
        published: query.get('published') === 'true',
      };
      items.push(made);
      return { status: 201, body: made };
    },
    'PATCH learnings/:learningId': (request) => {
      Object.assign(items[0]!, request.body);
      return { status: 200, body: items[0]! };
    },
    'DELETE learnings/:learningId': () => {
      items.splice(0, 1);
      return { status: 204 };
    },
  });
  sessionStore.signIn('admin', tokenFor('admin'));
  renderApp('/settings/admin');
  return api;
}

describe('platform admin: learning videos', () => {
  it('uploads a WebM video as the raw body with its title, and refuses another type before sending', async () => {
    const api = openTab();
    const user = userEvent.setup({ applyAccept: false });
    await user.click(await screen.findByRole('tab', { name: 'Learning videos' }, { timeout: 10_000 }));
    expect(await screen.findByText('Reading basics')).toBeTruthy();
    // The upload control renders a new input after each choice: ask for it each time.
    const input = () => document.querySelector<HTMLInputElement>('input[type=file]')!;
    await user.upload(input(), new File(['not a video'], 'notes.txt', { type: 'text/plain' }));
    expect(await screen.findByText('Only MP4 and WebM videos can be uploaded.')).toBeTruthy();
    await user.upload(
      input(),
      new File([new Uint8Array([0x1a, 0x45, 0xdf, 0xa3])], 'intro.webm', { type: 'video/webm' }),
    );
    // The control hands the file over asynchronously; the title takes the file's name.
    await waitFor(() => expect((screen.getByLabelText('Title') as HTMLInputElement).value).toBe('intro'));
    await user.clear(screen.getByLabelText('Title'));
    await user.type(screen.getByLabelText('Title'), 'Introduction');
    await user.click(screen.getByRole('button', { name: /Upload a video/ }));
    expect(await screen.findByText('Video uploaded.')).toBeTruthy();
    const posted = api.requests.filter((r) => r.method === 'POST' && r.path === 'learnings');
    expect(posted).toHaveLength(1);
    expect(posted[0]!.headers['content-type']).toBe('video/webm');
    expect(new URLSearchParams(posted[0]!.search).get('title')).toBe('Introduction');
    expect(new URLSearchParams(posted[0]!.search).get('published')).toBe('true');
    expect(await screen.findByText('Introduction')).toBeTruthy();
  });

  it('publishes one through its edit dialog and deletes one after confirming', async () => {
    const api = openTab();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: 'Learning videos' }, { timeout: 10_000 }));
    // Text queries, not role queries: the admin page's DOM is large and role queries are slow in jsdom.
    const row = (await screen.findByText('Reading basics')).closest('tr')!;
    await user.click(within(row).getByText('Edit').closest('button')!);
    const dialog = (await screen.findByText('Edit learning video')).closest('.ant-modal') as HTMLElement;
    await user.click(dialog.querySelector<HTMLElement>('button[role=switch]')!);
    await user.click(within(dialog).getByText('Save').closest('button')!);
    expect(await screen.findByText('Video saved.')).toBeTruthy();
    expect(api.requests.find((r) => r.method === 'PATCH')?.body).toMatchObject({
      published: true,
      title: 'Reading basics',
    });
    await user.click(within(row).getByText('Delete').closest('button')!);
    await user.click((await screen.findByText('OK')).closest('button')!);
    await waitFor(() =>
      expect(api.requests.some((r) => r.method === 'DELETE' && r.path === 'learnings/video-1')).toBe(true),
    );
  });
});
