// @vitest-environment jsdom
import { act, screen, waitFor } from '@testing-library/react';
import { defaultDomainConfig, type NotificationItem } from '@yyp/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../api/sessionStore';
import { demoUser, installFakeApi, tokenFor } from '../../test/fakeApi';
import { renderApp } from '../../test/renderApp';

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

/** A server whose list answers the user's sound setting with it, as GET notifications does. */
function server(initial: NotificationItem[], sound: boolean) {
  const state = { items: initial };
  const unread = () => state.items.filter((n) => n.readAt === null).length;
  installFakeApi({
    'GET domain': () => ({ status: 200, body: defaultDomainConfig }),
    'GET accounts/me': () => ({ status: 200, body: demoUser() }),
    'GET groups/mine': () => ({ status: 200, body: [] }),
    'GET notifications/status': () => ({
      status: 200,
      body: { unread: unread(), latestId: state.items[0]?.id ?? null },
    }),
    'GET notifications': () => ({ status: 200, body: { items: state.items.slice(0, 5), unread: unread(), sound } }),
  });
  return state;
}

const toasts = () => document.querySelectorAll('.yyp-notification-toast:not(.ant-notification-fade-leave)');

/** Counts the chimes: each one makes an AudioContext. */
function countChimes() {
  const made = { count: 0 };
  class FakeAudioContext {
    currentTime = 0;
    destination = {};
    constructor() {
      made.count += 1;
    }
    createOscillator() {
      return { frequency: { value: 0 }, connect: () => undefined, start: () => undefined, stop: () => undefined };
    }
    createGain() {
      return {
        gain: { setValueAtTime: () => undefined, exponentialRampToValueAtTime: () => undefined },
        connect: () => undefined,
      };
    }
    close() {
      return Promise.resolve();
    }
  }
  vi.stubGlobal('AudioContext', FakeAudioContext);
  return made;
}

async function poll() {
  await act(async () => {
    vi.advanceTimersByTime(30_000);
  });
}

afterEach(() => {
  vi.useRealTimers();
});

describe('muted notification kinds and the sound', () => {
  it('lists a quiet notification in the bell without a toast or a chime; a loud one toasts and chimes', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'], shouldAdvanceTime: true });
    const chimes = countChimes();
    const state = server([notification(1)], true);
    sessionStore.signIn('doctor', tokenFor('doctor'));
    renderApp('/studies');
    await screen.findByRole('button', { name: 'Notifications, 1 unread' }, { timeout: 10_000 });

    state.items = [notification(2, { quiet: true }), ...state.items];
    await poll();
    await screen.findByRole('button', { name: 'Notifications, 2 unread' });
    // Give a toast every chance to appear: none does.
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 200));
    });
    expect(toasts()).toHaveLength(0);
    expect(chimes.count).toBe(0);

    state.items = [notification(3, { kind: 'critical_value', quiet: false }), ...state.items];
    await poll();
    await screen.findByRole('button', { name: 'Notifications, 3 unread' });
    await waitFor(() => expect(toasts()).toHaveLength(1));
    expect(toasts()[0]?.textContent).toContain('Patient 3');
    expect(chimes.count).toBe(1);
  });

  it('toasts without a chime when the sound is off', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'], shouldAdvanceTime: true });
    const chimes = countChimes();
    const state = server([notification(1)], false);
    sessionStore.signIn('doctor', tokenFor('doctor'));
    renderApp('/studies');
    await screen.findByRole('button', { name: 'Notifications, 1 unread' }, { timeout: 10_000 });
    state.items = [notification(2), ...state.items];
    await poll();
    await waitFor(() => expect(toasts()).toHaveLength(1));
    expect(chimes.count).toBe(0);
  });
});
