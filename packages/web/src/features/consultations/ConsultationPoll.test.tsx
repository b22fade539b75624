// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import {
  CONSULTATION_POLL_MS,
  callKey,
  consultationCalls,
  defaultDomainConfig,
  type ConsultationListItem,
} from '@yyp/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../api/sessionStore';
import { demoUser, errorAnswer, installFakeApi, tokenFor, type FakeResponse } from '../../test/fakeApi';
import { locationOf, renderApp } from '../../test/renderApp';
import { groupOf } from '../../test/tenancyFixtures';
import { resetSeenConsultations } from './consultationPoll';
import { detailOf, listItemOf } from './consultationFixtures';

/** The pending consultations the fake server answers to the poll, and a chime counter. */
function server(settings: { enableConsultation: boolean; autoConsulNotifyAudio?: boolean }) {
  const state = { pending: [] as ConsultationListItem[], answer: null as FakeResponse | null, chimes: 0 };
  const api = installFakeApi({
    'GET domain': () => ({ status: 200, body: defaultDomainConfig }),
    'GET accounts/me': () => ({ status: 200, body: demoUser({ username: 'expert', name: 'Dr. Wang' }) }),
    'GET groups/mine': () => ({ status: 200, body: [groupOf({ accessLevel: 0, settings })] }),
    // the caller is staff of the expert organization asked (x1), nothing in the requesting ones
    'GET accounts/me/permissions': () => ({
      status: 200,
      body: [{ bucketId: 'x1', groupId: 'g2', type: 1, accessLevel: 'member', actions: ['consultation_update'] }],
    }),
    [callKey(consultationCalls.query)]: () => state.answer ?? { status: 200, body: { data: state.pending } },
    [callKey(consultationCalls.page)]: () => ({ status: 200, body: { data: [], count: 0 } }),
    [callKey(consultationCalls.detail)]: () => ({ status: 200, body: detailOf() }),
  });
  // the chime goes through the Web Audio API: count the contexts it opens
  class FakeAudioContext {
    currentTime = 0;
    destination = {};
    constructor() {
      state.chimes += 1;
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
  sessionStore.signIn('expert', tokenFor('expert'));
  return { api, state };
}

const polls = (api: ReturnType<typeof installFakeApi>) => api.requests.filter((r) => r.path === 'consultations/query');

async function nextPoll() {
  await act(async () => {
    vi.advanceTimersByTime(CONSULTATION_POLL_MS);
  });
}

const toasts = () => [...document.querySelectorAll('.ant-notification-notice')].map((n) => n.textContent ?? '');

describe('the consultation poll', { timeout: 40_000 }, () => {
  afterEach(() => {
    resetSeenConsultations();
    vi.unstubAllGlobals();
  });

  it('toasts each new pending consultation once, with patient, reason and organization, and a chime', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'], shouldAdvanceTime: true });
    const { api, state } = server({ enableConsultation: true, autoConsulNotifyAudio: true });
    state.pending = [listItemOf()];
    const { router } = renderApp('/consultations');
    await waitFor(() => expect(polls(api).length).toBe(1), { timeout: 15_000 });
    expect(polls(api)[0]!.body).toEqual({ limit: 5, skip: 0, filter: { status: { equal: 0 } } });
    const toast = await screen.findByText('New consultation request · Zhang Wei');
    expect(screen.getByText('Radiology: Nodule in the right upper lobe')).toBeTruthy();
    expect(state.chimes).toBe(1);

    // a click opens it and closes the toast; the next polls answer it again, and it stays quiet
    fireEvent.click(toast);
    await waitFor(() => expect(locationOf(router)).toBe('/consultations/c1'));
    await waitFor(() => expect(toasts()).toEqual([]));
    await nextPoll();
    await nextPoll();
    await waitFor(() => expect(polls(api).length).toBe(3));
    expect(toasts()).toEqual([]);
    expect(state.chimes).toBe(1);

    // a new one toasts; one asked of an organization the caller is not in (its requesters see it) does not
    state.pending = [
      listItemOf({ id: 'c3', patientName: 'Wu^Fei', targetBucketId: 'b9' }),
      listItemOf({ id: 'c2', patientName: 'Li^Na', reason: 'Mass', appliedBucketName: 'County' }),
      listItemOf(),
    ];
    await nextPoll();
    expect(await screen.findByText('New consultation request · Li Na')).toBeTruthy();
    expect(toasts().filter((text) => text.includes('Zhang Wei') || text.includes('Wu Fei'))).toEqual([]);
    expect(state.chimes).toBe(2);
  });

  it('stops polling on 401', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'], shouldAdvanceTime: true });
    const { api, state } = server({ enableConsultation: true });
    renderApp('/consultations');
    await waitFor(() => expect(polls(api).length).toBe(1), { timeout: 15_000 });
    state.answer = errorAnswer(401, 'Unauthenticated');
    await nextPoll();
    await waitFor(() => expect(polls(api).length).toBe(2));
    await nextPoll();
    await nextPoll();
    expect(polls(api).length).toBe(2);
    expect(state.chimes).toBe(0);
  });

  it('does not poll where no group of the caller has consultations on', async () => {
    const { api } = server({ enableConsultation: false });
    renderApp('/studies');
    await screen.findByRole('navigation', { name: 'Main navigation' }, { timeout: 15_000 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(polls(api)).toEqual([]);
    expect(screen.queryByRole('link', { name: /Consultations/ })).toBeNull();
  });
});
