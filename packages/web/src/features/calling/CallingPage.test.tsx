// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { callingCalls, callKey, defaultDomainConfig, type QueueExam } from '@yyp/contracts';
import { describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../api/sessionStore';
import { callingBucketOf, queueExamOf, queueTypeOf } from '../../test/callingFixtures';
import { demoUser, installFakeApi, tokenFor, type FakeHandler } from '../../test/fakeApi';
import { buttonByText, findRow } from '../../test/queries';
import { renderApp } from '../../test/renderApp';
import { groupOf } from '../../test/tenancyFixtures';

/** The day's queue the fake server holds; the actions change it like the machine does. */
function signedIn(items: QueueExam[], actions = ['calling_call'], extra: Record<string, FakeHandler> = {}) {
  const api = installFakeApi({
    'GET domain': () => ({ status: 200, body: defaultDomainConfig }),
    'GET accounts/me': () => ({ status: 200, body: demoUser({ username: 'tech', name: 'Zhang' }) }),
    'GET groups/mine': () => ({ status: 200, body: [groupOf({ accessLevel: 0 })] }),
    [callKey(callingCalls.buckets)]: () => ({ status: 200, body: [callingBucketOf(actions)] }),
    [callKey(callingCalls.queueTypes)]: () => ({
      status: 200,
      body: [queueTypeOf(), queueTypeOf({ id: 't2', displayName: 'MR', modality: 'MR', roomName: 'MR 1' })],
    }),
    [callKey(callingCalls.query)]: () => ({ status: 200, body: { items, count: items.length } }),
    [callKey(callingCalls.callNext)]: () => {
      const next = items.filter((i) => i.status === 'waiting').sort((a, b) => a.queueNo - b.queueNo)[0];
      if (!next) return { status: 200, body: { queueExam: null, call: null } };
      const called = { ...next, status: 'called' as const, calledAt: new Date().toISOString(), room: 'CT 1' };
      items.splice(items.indexOf(next), 1, called);
      const text = `请 ${called.queueNo} 号 ${called.patientName} 到 CT 1 检查`;
      return {
        status: 200,
        body: {
          queueExam: called,
          call: {
            queueExamId: called.id,
            queueTypeId: 't1',
            queueNo: called.queueNo,
            name: called.patientName,
            room: 'CT 1',
            text,
            calledAt: called.calledAt,
          },
        },
      };
    },
    [callKey(callingCalls.action)]: (r) => ({ status: 200, body: { queueExam: null, call: null, id: r.params.id } }),
    [callKey(callingCalls.resort)]: () => ({ status: 200, body: [] }),
    ...extra,
  });
  // The server's speech engine is missing (503): the browser speaks.
  const speak = vi.fn((u: { text: string; onend?: () => void }) => u.onend?.());
  vi.stubGlobal('speechSynthesis', { speak });
  vi.stubGlobal(
    'SpeechSynthesisUtterance',
    class {
      lang = '';
      onend?: () => void;
      constructor(readonly text: string) {}
    },
  );
  const apiFetch = api.fetchMock;
  const speech: string[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    if (String(input) === '/yyp/api/text2speech') {
      speech.push(`${new Headers(init?.headers).get('Authorization')} ${String(init?.body)}`);
      return new Response(JSON.stringify({ code: 'ServiceNotConfigured', message: 'espeak-ng' }), { status: 503 });
    }
    return apiFetch(input, init);
  });
  sessionStore.signIn('tech', tokenFor('tech'));
  return { api, speak, speech, ...renderApp('/calling') };
}

/** /calling has loaded (its chunk and the queue types): the call key shows. */
async function deskLoaded() {
  await screen.findByText('Call next (F2)', { selector: 'button span, button' }, { timeout: 15_000 });
  return buttonByText('Call next (F2)');
}

const waiting = () => [
  queueExamOf({ id: 'q2', queueNo: 2, patientName: '李*', examName: 'CT Head' }),
  queueExamOf({ id: 'q1', queueNo: 1, patientName: '王*东', urgent: true }),
  queueExamOf({
    id: 'q3',
    queueNo: 3,
    patientName: '赵*',
    status: 'missed',
    calledAt: '2026-11-27T01:10:00.000Z',
    calledCount: 2,
    room: 'CT 1',
  }),
];

describe('/calling', () => {
  it('lists the queue in three lists and calls the next patient with the button and F2', async () => {
    const { api, speak, speech } = signedIn(waiting());
    const next = await deskLoaded();
    await findRow('王*东');
    const waitingList = screen.getByText('Waiting').closest('.ant-card') as HTMLElement;
    const rows = [...waitingList.querySelectorAll('.ant-table-row')];
    expect(rows.map((r) => r.querySelector('.yyp-calling__no')?.textContent)).toEqual(['1', '2']);
    expect(within(waitingList).getByText('Urgent')).toBeTruthy();
    const missedList = screen.getByText('Missed').closest('.ant-card') as HTMLElement;
    expect(within(missedList).getByText('赵*')).toBeTruthy();
    expect(within(missedList).getByText('called 2×')).toBeTruthy();
    // The navbar shows calling to a caller.
    expect(screen.getByRole('navigation', { name: 'Main navigation' }).textContent).toContain('Calling');
    expect(api.requests.find((r) => r.path === 'queue-exams/query')?.body).toMatchObject({
      bucketId: 'b1',
      queueTypeId: 't1',
      statuses: ['waiting', 'called', 'missed'],
    });

    fireEvent.click(next);
    await screen.findByText('Called No. 1 王*东 → CT 1');
    expect(api.requests.filter((r) => r.path === 'queue-exams/call-next').map((r) => r.body)).toEqual([
      { queueTypeId: 't1' },
    ]);
    // The server has no speech engine: its 503 hands the announcement to the browser's voice.
    await waitFor(() => expect(speak).toHaveBeenCalledTimes(1));
    expect(speak.mock.calls[0]![0]).toMatchObject({ text: '请 1 号 王*东 到 CT 1 检查', lang: 'en-US' });
    expect(speech[0]).toMatch(/^Bearer token-of-tech-/);

    fireEvent.keyDown(window, { key: 'F2' });
    await screen.findByText('Called No. 2 李* → CT 1');
    expect(api.requests.filter((r) => r.path === 'queue-exams/call-next')).toHaveLength(2);
  });

  it('calls on Space only when the focus is not in a field', async () => {
    const { api } = signedIn(waiting());
    await deskLoaded();
    const field = document.createElement('input');
    document.body.appendChild(field);
    fireEvent.keyDown(field, { key: ' ', code: 'Space' });
    fireEvent.keyDown(document.body, { key: ' ', code: 'Space' });
    await waitFor(() => expect(api.requests.filter((r) => r.path === 'queue-exams/call-next')).toHaveLength(1));
    field.remove();
  });

  it('passes a called patient, returns a missed one, and moves and resorts waiting ones', async () => {
    const items = [
      ...waiting(),
      queueExamOf({ id: 'q4', queueNo: 4, patientName: '钱*', status: 'called', calledAt: '2026-11-27T01:20:00Z' }),
    ];
    const { api } = signedIn(items);
    await deskLoaded();
    const called = await findRow('钱*');
    fireEvent.click(buttonByText('Pass', called));
    fireEvent.click(buttonByText('Return to queue', await findRow('赵*')));
    await waitFor(() =>
      expect(
        api.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/action')).map((r) => [r.path, r.body]),
      ).toEqual([
        ['queue-exams/q4/action', { action: 'pass' }],
        ['queue-exams/q3/action', { action: 'return' }],
      ]),
    );

    fireEvent.click(buttonByText('Move to another room', await findRow('李*')));
    const dialog = await screen.findByRole('dialog');
    fireEvent.mouseDown(within(dialog).getByRole('combobox'));
    fireEvent.click(await screen.findByText('MR (MR 1)'));
    fireEvent.click(buttonByText('Move', dialog));
    const lastAction = () => api.requests.filter((r) => r.path.startsWith('queue-exams/q2/')).at(-1);
    await waitFor(() => expect(lastAction()?.body).toEqual({ action: 'move', targetQueueTypeId: 't2' }));

    fireEvent.click(buttonByText('Move to number', await findRow('李*')));
    const resort = await screen.findByText('Move No. 2 to another place in the queue');
    const resortDialog = resort.closest('.ant-modal') as HTMLElement;
    fireEvent.mouseDown(within(resortDialog).getByRole('combobox'));
    const option = (await screen.findAllByTitle('1')).find((e) => e.classList.contains('ant-select-item-option'));
    fireEvent.click(option!);
    fireEvent.click(buttonByText('Move', resortDialog));
    await waitFor(() =>
      expect(lastAction()).toMatchObject({ path: 'queue-exams/q2/resort', body: { targetQueueNo: 1 } }),
    );
  });

  it('shows the queue without buttons to a queue manager who does not call', async () => {
    signedIn(waiting(), ['calling_manage_queue']);
    await screen.findByText('李*', {}, { timeout: 15_000 });
    await findRow('李*');
    expect(screen.queryByText('Call next (F2)')).toBeNull();
    expect(screen.queryByText('Pass')).toBeNull();
  });

  it('says so when the organization has no call queues', async () => {
    signedIn([], ['calling_call'], { [callKey(callingCalls.queueTypes)]: () => ({ status: 200, body: [] }) });
    await screen.findByText(/This organization has no call queues yet/);
  });
});

describe('/calling predicted waits (issue 26)', () => {
  it("shows each room's predicted wait and each waiting patient's, nothing where the history is too short", async () => {
    const items = [
      queueExamOf({ id: 'q1', queueNo: 1, patientName: '王*东', predictedWaitMinutes: 6 }),
      queueExamOf({ id: 'q2', queueNo: 2, patientName: '李*', predictedWaitMinutes: 12 }),
    ];
    signedIn(items, ['calling_call'], {
      [callKey(callingCalls.query)]: () => ({
        status: 200,
        body: {
          items,
          count: items.length,
          predictions: [
            { queueTypeId: 't1', paceMinutes: 6, samples: 9, waitingCount: 2, predictedWaitMinutes: 18 },
            { queueTypeId: 't2', paceMinutes: null, samples: 2, waitingCount: 4, predictedWaitMinutes: null },
          ],
        },
      }),
    });
    await deskLoaded();
    await findRow('王*东');
    const waits = await screen.findByLabelText('Estimated waits');
    expect(waits.textContent).toBe('CT 1 · Estimated wait about 18 min');
    expect(waits.textContent).not.toContain('MR');
    const waitingList = screen.getByText('Waiting').closest('.ant-card') as HTMLElement;
    expect(within(waitingList).getByText('Estimated wait')).toBeTruthy();
    expect(within(waitingList).getByText('about 6 min')).toBeTruthy();
    expect(within(waitingList).getByText('about 12 min')).toBeTruthy();
  });

  it('shows no wait at all when the server predicts none', async () => {
    signedIn(waiting());
    await deskLoaded();
    await findRow('王*东');
    expect(screen.queryByLabelText('Estimated waits')).toBeNull();
    expect(screen.queryByText(/about \d+ min/)).toBeNull();
  });
});
