import type { ScreenPatient } from '@yyp/contracts';
import { describe, expect, it, vi } from 'vitest';
import { queueExamOf, screenPatientOf } from '../../test/callingFixtures';
import { createAnnouncer, speechLocale } from './announcer';
import { isCallNextKey } from './callShortcut';
import {
  clockText,
  partitionQueue,
  resortTargets,
  rowActions,
  SEEN_CALLS_LIMIT,
  unannouncedCalls,
} from './callingView';
import { forgetScreenToken, screenTokenKey, screenUrl, takeScreenToken } from './screenToken';

const exam = queueExamOf;

const call = (id: string, calledAt: string): ScreenPatient =>
  screenPatientOf({ queueExamId: id, queueNo: Number(id.slice(1)), calledAt });

describe('partitionQueue', () => {
  it('splits the open queue: waiting and missed by number, called newest first; done and moved left out', () => {
    const lists = partitionQueue([
      exam({ id: 'w3', queueNo: 3 }),
      exam({ id: 'w2', queueNo: 2 }),
      exam({ id: 'c1', queueNo: 1, status: 'called', calledAt: '2026-11-27T02:00:00Z' }),
      exam({ id: 'c4', queueNo: 4, status: 'called', calledAt: '2026-11-27T03:00:00Z' }),
      exam({ id: 'm6', queueNo: 6, status: 'missed' }),
      exam({ id: 'm5', queueNo: 5, status: 'missed' }),
      exam({ id: 'd7', queueNo: 7, status: 'done' }),
      exam({ id: 'x8', queueNo: 8, status: 'moved' }),
    ]);
    expect(lists.waiting.map((e) => e.id)).toEqual(['w2', 'w3']);
    expect(lists.called.map((e) => e.id)).toEqual(['c4', 'c1']);
    expect(lists.missed.map((e) => e.id)).toEqual(['m5', 'm6']);
  });
});

describe('rowActions', () => {
  it('offers what the machine allows, resort for waiting ones, and move only when another queue exists', () => {
    expect(rowActions(exam({ status: 'waiting' }), 1)).toEqual(['call', 'done', 'move', 'resort']);
    expect(rowActions(exam({ status: 'waiting' }), 0)).toEqual(['call', 'done', 'resort']);
    expect(rowActions(exam({ status: 'called' }), 1)).toEqual(['recall', 'pass', 'return', 'done', 'move']);
    expect(rowActions(exam({ status: 'missed' }), 0)).toEqual(['call', 'return', 'done']);
    expect(rowActions(exam({ status: 'done' }), 2)).toEqual([]);
  });

  it('resorts to the numbers of the other waiting patients', () => {
    const waiting = [exam({ id: 'a', queueNo: 2 }), exam({ id: 'b', queueNo: 5 }), exam({ id: 'c', queueNo: 9 })];
    expect(resortTargets(waiting, 'b')).toEqual([2, 9]);
  });
});

describe('unannouncedCalls', () => {
  it('announces nothing on the first load, then each new call once, oldest first; a recall is a new call', () => {
    const first = unannouncedCalls(null, [call('q1', '2026-11-27T01:00:00Z')]);
    expect(first.fresh).toEqual([]);
    const second = unannouncedCalls(first.seen, [
      call('q3', '2026-11-27T01:02:00Z'),
      call('q2', '2026-11-27T01:01:00Z'),
      call('q1', '2026-11-27T01:00:00Z'),
    ]);
    expect(second.fresh.map((c) => c.queueExamId)).toEqual(['q2', 'q3']);
    expect(unannouncedCalls(second.seen, [call('q3', '2026-11-27T01:02:00Z')]).fresh).toEqual([]);
    const recalled = unannouncedCalls(second.seen, [call('q1', '2026-11-27T01:05:00Z')]);
    expect(recalled.fresh.map((c) => c.queueExamId)).toEqual(['q1']);
  });

  it('remembers a bounded number of calls (a screen runs for days)', () => {
    let seen: string[] | null = [];
    for (let i = 0; i < SEEN_CALLS_LIMIT * 3; i++) {
      seen = unannouncedCalls(seen, [call(`q${i}`, `2026-11-27T01:00:${String(i % 60).padStart(2, '0')}Z`)]).seen;
    }
    expect(seen).toHaveLength(SEEN_CALLS_LIMIT);
  });
});

describe('isCallNextKey', () => {
  const field = document.createElement('input');
  const body = document.body;
  it('calls on F2 anywhere and on Space outside fields, once per press', () => {
    expect(isCallNextKey({ key: 'F2', target: field })).toBe(true);
    expect(isCallNextKey({ key: ' ', code: 'Space', target: body })).toBe(true);
    expect(isCallNextKey({ key: ' ', code: 'Space', target: field })).toBe(false);
    expect(isCallNextKey({ key: 'F2', target: body, repeat: true })).toBe(false);
    expect(isCallNextKey({ key: 'F2', target: body, ctrlKey: true })).toBe(false);
    expect(isCallNextKey({ key: 'Enter', target: body })).toBe(false);
  });

  it('leaves Space to buttons (a focused row button keeps its own Space)', () => {
    const button = document.createElement('button');
    expect(isCallNextKey({ key: ' ', code: 'Space', target: button })).toBe(false);
  });
});

describe('screen token', () => {
  function memory(): Storage {
    const map = new Map<string, string>();
    return {
      getItem: (k) => map.get(k) ?? null,
      setItem: (k, v) => void map.set(k, v),
      removeItem: (k) => void map.delete(k),
      clear: () => map.clear(),
      key: () => null,
      length: 0,
    } as Storage;
  }

  it('takes the token from the address once, keeps it per organization and cleans the address', () => {
    const storage = memory();
    expect(takeScreenToken('b1', { search: '?token=abc&x=1', storage })).toEqual({ token: 'abc', cleanSearch: '?x=1' });
    expect(storage.getItem(screenTokenKey('b1'))).toBe('abc');
    expect(takeScreenToken('b1', { search: '', storage })).toEqual({ token: 'abc', cleanSearch: '' });
    expect(takeScreenToken('b2', { search: '', storage }).token).toBeNull();
    forgetScreenToken('b1', storage);
    expect(takeScreenToken('b1', { search: '', storage }).token).toBeNull();
  });

  it('builds the address the settings show once', () => {
    expect(screenUrl('https://h', 'b 1', 'a+b')).toBe('https://h/calling/b%201/screen-show?token=a%2Bb');
  });
});

describe('announcer', () => {
  const flush = () => new Promise((r) => setTimeout(r, 0));

  it('plays the server audio one call after another, and uses the cached audio for a repeated text', async () => {
    const order: string[] = [];
    const render = vi.fn(async (text: string) => new Blob([text]));
    const play = vi.fn(async (blob: Blob) => void order.push(await blob.text()));
    const a = createAnnouncer({ render, play });
    a.announce('请 1 号', 'chs');
    a.announce('请 2 号', 'chs');
    a.announce('请 1 号', 'chs');
    await vi.waitFor(() => expect(order).toEqual(['请 1 号', '请 2 号', '请 1 号']));
    expect(render).toHaveBeenCalledTimes(2);
  });

  it('speaks with the browser when the server has no speech engine (503), and stops asking it', async () => {
    const render = vi.fn(async () => 'unavailable' as const);
    const speak = vi.fn(async () => undefined);
    const a = createAnnouncer({ render, play: vi.fn(), speak });
    a.announce('请 3 号', 'chs');
    a.announce('Number 4', 'en');
    await vi.waitFor(() => expect(speak).toHaveBeenCalledTimes(2));
    expect(speak).toHaveBeenCalledWith('Number 4', 'en');
    expect(render).toHaveBeenCalledTimes(1);
    expect(speechLocale('tib')).toBe('zh-CN');
  });

  it('keeps at most maxPending calls waiting (drops the oldest), reports failures and goes on', async () => {
    let release: () => void = () => undefined;
    const said: string[] = [];
    const onError = vi.fn();
    const play = vi.fn(async (blob: Blob) => {
      const text = await blob.text();
      if (text === 'first') await new Promise<void>((r) => (release = r));
      if (text === 'bad') throw new Error('no audio');
      said.push(text);
    });
    const a = createAnnouncer({ render: async (t) => new Blob([t]), play, onError }, 2);
    a.announce('first', 'chs');
    await flush();
    for (const text of ['x', 'bad', 'y']) a.announce(text, 'chs');
    expect(a.pending()).toBe(2);
    release();
    await vi.waitFor(() => expect(said).toEqual(['first', 'y']));
    expect(onError).toHaveBeenCalledTimes(1);
    a.dispose();
    a.announce('after', 'chs');
    expect(a.pending()).toBe(0);
  });
});

describe('clockText', () => {
  it('shows the time to the second and the date', () => {
    expect(clockText(new Date(2026, 10, 27, 9, 5, 7))).toEqual({ time: '09:05:07', date: '2026-11-27' });
  });
});
