// @vitest-environment jsdom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { callKey, defaultDomainConfig, screenCalls, type ScreenQueue } from '@yyp/contracts';
import { describe, expect, it, vi } from 'vitest';
import { screenPatientOf, screenQueueOf } from '../../test/callingFixtures';
import { errorAnswer, installFakeApi } from '../../test/fakeApi';
import { locationOf, renderApp } from '../../test/renderApp';
import { screenTokenKey } from './screenToken';

/** The screen's server: answers `board()` to the screen token 'tok1', refuses any other. */
function openScreen(path: string, board: () => ScreenQueue | 'down') {
  const api = installFakeApi({
    'GET domain': () => ({ status: 200, body: defaultDomainConfig }),
    [callKey(screenCalls.queue)]: (r) => {
      if (r.headers.authorization !== 'Screen tok1') return errorAnswer(401, 'Unauthenticated');
      const answer = board();
      return answer === 'down' ? errorAnswer(503, 'ServiceNotConfigured') : { status: 200, body: answer };
    },
  });
  const said: string[] = [];
  const apiFetch = api.fetchMock;
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    if (String(input) === '/yyp/api/text2speech') {
      said.push(JSON.parse(String(init?.body)).text as string);
      expect(new Headers(init?.headers).get('Authorization')).toBe('Screen tok1');
      return new Response(new Blob(['RIFF']), { status: 200, headers: { 'Content-Type': 'audio/wav' } });
    }
    return apiFetch(input, init);
  });
  // jsdom plays no audio: a played clip ends at once.
  vi.spyOn(window.HTMLMediaElement.prototype, 'play').mockImplementation(function (this: HTMLMediaElement) {
    setTimeout(() => this.onended?.(new Event('ended')), 0);
    return Promise.resolve();
  });
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:x', revokeObjectURL: () => undefined }));
  return { api, said, ...renderApp(path) };
}

const first = () =>
  screenQueueOf({
    calls: [
      screenPatientOf({ queueExamId: 'q3', queueNo: 3, name: '王*东', room: 'CT 1' }),
      screenPatientOf({ queueExamId: 'q7', queueNo: 7, name: '李*', room: 'MR 1', queueTypeId: 't2' }),
    ],
    queues: [
      {
        queueTypeId: 't1',
        displayName: 'CT',
        roomName: 'CT 1',
        next: [screenPatientOf({ queueExamId: 'q4', queueNo: 4, name: '赵*', status: 'waiting', calledAt: null })],
        waitingCount: 1,
      },
    ],
    missed: [screenPatientOf({ queueExamId: 'q2', queueNo: 2, name: '钱*', status: 'missed' })],
    announcements: { q3: '请 3 号 王*东 到 CT 1 检查' },
  });

describe('/calling/:bucketId/screen-show', () => {
  it('opens with the token of the address, keeps it, shows the calls masked and says each new call once', async () => {
    let board = first();
    const { api, said, router } = openScreen('/calling/b1/screen-show?token=tok1', () => board);
    await screen.findByText('City Radiology');
    // The token left the address and stays in this browser.
    expect(locationOf(router)).toBe('/calling/b1/screen-show');
    expect(localStorage.getItem(screenTokenKey('b1'))).toBe('tok1');
    expect(api.requests.find((r) => r.path === 'screen/queue')?.headers.authorization).toBe('Screen tok1');
    const main = document.querySelector('.yyp-screen__call--main') as HTMLElement;
    expect(main.textContent).toBe('No. 3王*东→ CT 1');
    expect(screen.getByText('4 赵*')).toBeTruthy();
    expect(screen.getByText('2 钱*')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toContain('Connected');

    // Sound needs a click; the calls on show when the screen opened are not said again.
    fireEvent.click(screen.getByText('Click anywhere to enable sound'));
    board = screenQueueOf({
      ...first(),
      calls: [screenPatientOf({ queueExamId: 'q4', queueNo: 4, name: '赵*', calledAt: '2026-11-27T02:00:00Z' })],
      announcements: { q4: '请 4 号 赵* 到 CT 1 检查' },
    });
    await waitFor(() => expect(said).toEqual(['请 4 号 赵* 到 CT 1 检查']), { timeout: 6_000 });
    await screen.findByText('No. 4');
  });

  it('says it is reconnecting while the server is away, keeps the last board, and recovers by itself', async () => {
    let up = true;
    openScreen('/calling/b1/screen-show?token=tok1', () => (up ? first() : 'down'));
    await screen.findByText('City Radiology');
    up = false;
    await screen.findByText('Reconnecting…', {}, { timeout: 6_000 });
    expect(document.querySelector('.yyp-screen__call--main')?.textContent).toContain('王*东');
    up = true;
    await screen.findByText('Connected (polling)', {}, { timeout: 8_000 });
  });

  it('opens again from the stored token, and forgets it when the server refuses it (revoked)', async () => {
    localStorage.setItem(screenTokenKey('b1'), 'revoked');
    openScreen('/calling/b1/screen-show', first);
    await screen.findByText(/The screen token was refused/);
    expect(localStorage.getItem(screenTokenKey('b1'))).toBeNull();
  });

  it('asks for the issued address without a token', async () => {
    openScreen('/calling/b1/screen-show', first);
    await screen.findByText(/This screen has no screen token/);
  });
});

describe('/calling/:bucketId/screen-show predicted waits (issue 26)', () => {
  it("shows each room's predicted wait in large type, and nothing for a room with too little history", async () => {
    const board = screenQueueOf({
      ...first(),
      queues: [
        { ...first().queues[0]!, predictedWaitMinutes: 12 },
        {
          queueTypeId: 't2',
          displayName: 'MR',
          roomName: 'MR 1',
          next: [],
          waitingCount: 0,
          predictedWaitMinutes: null,
        },
      ],
    });
    openScreen('/calling/b1/screen-show?token=tok1', () => board);
    await screen.findByText('City Radiology');
    const waits = [...document.querySelectorAll('.yyp-screen__queue')].map((q) => [
      q.querySelector('.yyp-screen__queue-name')?.textContent,
      q.querySelector('.yyp-screen__wait')?.textContent ?? null,
    ]);
    expect(waits).toEqual([
      ['CT 1', 'Estimated wait about 12 min'],
      ['MR 1', null],
    ]);
  });
});
