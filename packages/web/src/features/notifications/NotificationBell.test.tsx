// @vitest-environment jsdom
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { defaultDomainConfig, type NotificationItem } from '@yyp/contracts';
import { describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../api/sessionStore';
import { demoUser, errorAnswer, installFakeApi, tokenFor, type FakeResponse } from '../../test/fakeApi';
import { locationOf, renderApp } from '../../test/renderApp';

function notification(n: number, overrides: Partial<NotificationItem> = {}): NotificationItem {
  return {
    id: `n${n}`,
    kind: 'exam_uploaded',
    bucketId: 'b-rad',
    exam: {
      id: `e${n}`,
      patientName: `Patient^${n}`,
      modality: 'CT',
      bodyPart: 'CHEST',
      examTime: '2026-11-21T09:30:05',
      bucketName: 'Radiology',
    },
    createdAt: '2026-11-22T08:00:00.000Z',
    readAt: null,
    masked: false,
    ...overrides,
  };
}

/** A server with a notification list the test changes; status and list answer from it. */
function server(initial: NotificationItem[]) {
  const state = { items: initial, statusAnswer: null as FakeResponse | null };
  const unread = () => state.items.filter((n) => n.readAt === null).length;
  const api = installFakeApi({
    'GET domain': () => ({ status: 200, body: { ...defaultDomainConfig, displayName: 'Test Hospital' } }),
    'GET accounts/me': () => ({ status: 200, body: demoUser() }),
    'GET groups/mine': () => ({ status: 200, body: [] }),
    'GET notifications/status': () =>
      state.statusAnswer ?? { status: 200, body: { unread: unread(), latestId: state.items[0]?.id ?? null } },
    'GET notifications': () => ({ status: 200, body: { items: state.items.slice(0, 5), unread: unread() } }),
    'POST notifications/read-all': () => {
      state.items = state.items.map((n) => ({ ...n, readAt: n.readAt ?? '2026-11-22T09:00:00.000Z' }));
      return { status: 204 };
    },
  });
  return { api, state };
}

function statusCalls(api: ReturnType<typeof installFakeApi>) {
  return api.requests.filter((r) => r.path === 'notifications/status').length;
}

function usePollClock() {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'], shouldAdvanceTime: true });
}

async function poll() {
  await act(async () => {
    vi.advanceTimersByTime(30_000);
  });
}

/** Toasts showing: a closed one lingers in jsdom with its leave motion, which never ends there. */
const toasts = () => document.querySelectorAll('.yyp-notification-toast:not(.ant-notification-fade-leave)');

/** The signed-in shell is up: its first render loads the route chunks. */
async function shellReady() {
  await screen.findByText('Dr. Li', {}, { timeout: 10_000 });
}

describe('notification bell', () => {
  it('shows the unread count and the newest entries, and marks all read', async () => {
    const { api } = server([notification(2), notification(1, { readAt: '2026-11-22T08:30:00.000Z' })]);
    sessionStore.signIn('doctor', tokenFor('doctor'));
    renderApp('/studies');
    await shellReady();
    const bell = await screen.findByRole('button', { name: 'Notifications, 1 unread' });
    await userEvent.setup().click(bell);
    const panel = await screen.findByRole('dialog', { name: 'Notifications' });
    expect(within(panel).getByText('Patient 2')).toBeTruthy();
    expect(within(panel).getByText('Patient 1')).toBeTruthy();
    expect(within(panel).getAllByText('CT · CHEST')).toHaveLength(2);
    expect(within(panel).getAllByText('Radiology · 2026-11-21 09:30')).toHaveLength(2);

    await userEvent.setup().click(within(panel).getByRole('button', { name: 'Mark all read' }));
    await waitFor(() => expect(api.requests.some((r) => r.path === 'notifications/read-all')).toBe(true));
    expect(await screen.findByRole('button', { name: 'Notifications' })).toBeTruthy();
  });

  it('names each kind: an expert report back from a remote read', async () => {
    server([notification(3, { kind: 'remote_report' }), notification(4, { kind: 'critical_value' })]);
    sessionStore.signIn('doctor', tokenFor('doctor'));
    renderApp('/studies');
    await shellReady();
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Notifications, 2 unread' }));
    const panel = await screen.findByRole('dialog', { name: 'Notifications' });
    expect(within(panel).getByText('Expert report received')).toBeTruthy();
    expect(within(panel).getByText('Critical value reported')).toBeTruthy();
  });

  it('opens an entry: marks it read and goes to the study list', async () => {
    const { api } = server([notification(1)]);
    sessionStore.signIn('doctor', tokenFor('doctor'));
    const { router } = renderApp('/groups');
    await shellReady();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Notifications, 1 unread' }));
    await user.click(await screen.findByText('Patient 1'));
    await waitFor(() => expect(locationOf(router)).toBe('/studies'));
    await waitFor(() =>
      expect(api.requests.some((r) => r.method === 'POST' && r.path === 'notifications/n1/read')).toBe(true),
    );
  });

  it('toasts what arrived since the last poll, at most 3 at once, and nothing at sign-in', async () => {
    usePollClock();
    const { state } = server([notification(1)]);
    sessionStore.signIn('doctor', tokenFor('doctor'));
    renderApp('/studies');
    await shellReady();
    await screen.findByRole('button', { name: 'Notifications, 1 unread' });
    expect(toasts()).toHaveLength(0);

    state.items = [notification(2), ...state.items];
    await poll();
    await screen.findByRole('button', { name: 'Notifications, 2 unread' });
    await waitFor(() => expect(toasts()).toHaveLength(1));
    expect(toasts()[0]?.textContent).toContain('Patient 2');

    state.items = [notification(7), notification(6), notification(5), notification(4), notification(3), ...state.items];
    await poll();
    await screen.findByRole('button', { name: 'Notifications, 7 unread' });
    await waitFor(() => expect(toasts()).toHaveLength(3));
    const shown = [...toasts()].map((toast) => toast.textContent ?? '');
    for (const name of ['Patient 7', 'Patient 6', 'Patient 5']) {
      expect(shown.some((text) => text.includes(name))).toBe(true);
    }
  });

  it('stops polling when a call answers 401', async () => {
    usePollClock();
    const { api, state } = server([]);
    sessionStore.signIn('doctor', tokenFor('doctor'));
    renderApp('/studies');
    await shellReady();
    await screen.findByRole('button', { name: 'Notifications' });
    await poll();
    await waitFor(() => expect(statusCalls(api)).toBe(2));

    state.statusAnswer = errorAnswer(401, 'Unauthenticated');
    await poll();
    await waitFor(() => expect(statusCalls(api)).toBe(3));
    await poll();
    await poll();
    expect(statusCalls(api)).toBe(3);
  });
});
