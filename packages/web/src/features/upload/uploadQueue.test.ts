import type { UploadSummary } from '@yyp/contracts';
import { describe, expect, it, vi } from 'vitest';
import type { FileUploader, UploadCallbacks } from './fileUploader';
import { pickedFile } from './pickedFiles';
import { matchSkipped, queueTotals, type QueueItem } from './queueItems';
import { UploadQueue } from './uploadQueue';

const session = {
  uploadId: 'up1',
  sessionToken: 'tok',
  endpoint: '/yyp/api/v1/uploads/files/',
  expires: 0,
  bucketName: 'Radiology',
};

function item(path: string, overrides: Partial<QueueItem> = {}): QueueItem {
  return { key: path, path, size: 10, sent: 10, status: 'checking', ...overrides };
}

function file(path: string, size = 10) {
  return pickedFile(new File([new Uint8Array(size)], path.split('/').pop() ?? path), path);
}

function harness(skipped: UploadSummary['skipped'] = []) {
  const sent: { name: string; callbacks: UploadCallbacks; aborted: boolean }[] = [];
  const uploader: FileUploader = (request, callbacks) => {
    const entry = { name: request.name, callbacks, aborted: false };
    sent.push(entry);
    return { abort: () => (entry.aborted = true) };
  };
  const summary = { skipped };
  const fetchSummary = vi.fn(async () => ({
    uploadId: 'up1',
    status: 'open' as const,
    stored: 0,
    duplicates: 0,
    skipped: summary.skipped,
    examIds: [],
  }));
  const onArrived = vi.fn();
  const queue = new UploadQueue({ uploader, fetchSummary, onArrived });
  const last = (name: string) => sent.filter((s) => s.name === name).pop()!;
  const status = () => Object.fromEntries(queue.getSnapshot().items.map((i) => [i.path, i.status]));
  return { queue, sent, last, status, summary, fetchSummary, onArrived };
}

describe('matchSkipped', () => {
  it('matches skipped names with the files of that name in order of arrival', () => {
    const a = item('s1/IM1', { arrival: 2 });
    const b = item('s2/IM1', { arrival: 1 });
    const c = item('s1/IM2', { arrival: 3 });
    const outcome = matchSkipped([a, b, c], [a, b, c], [{ name: 'IM1', reason: 'truncated' }]);
    expect(outcome.get('s2/IM1')).toEqual({ status: 'skipped', reason: 'truncated' });
    expect(outcome.get('s1/IM1')).toEqual({ status: 'done' });
    expect(outcome.get('s1/IM2')).toEqual({ status: 'done' });
  });

  it('does not give a skipped entry twice: files already marked skipped hold theirs', () => {
    const earlier = item('a/notes.txt', { status: 'skipped', reason: 'notDicom' });
    const later = item('b/notes.txt', { arrival: 5 });
    const skipped = [{ name: 'notes.txt', reason: 'notDicom' }];
    expect(matchSkipped([earlier, later], [later], skipped).get('b/notes.txt')).toEqual({ status: 'done' });
    expect(
      matchSkipped([earlier, later], [later], [...skipped, { name: 'notes.txt', reason: 'malformed' }]).get(
        'b/notes.txt',
      ),
    ).toEqual({ status: 'skipped', reason: 'malformed' });
  });
});

describe('UploadQueue', () => {
  it('sends three files at a time and starts the next as one arrives', async () => {
    const h = harness();
    h.queue.start(session, [file('1'), file('2'), file('3'), file('4'), file('5')]);
    expect(h.sent.map((s) => s.name)).toEqual(['1', '2', '3']);
    expect(h.status()['4']).toBe('waiting');
    h.last('2').callbacks.onSuccess();
    expect(h.sent.map((s) => s.name)).toEqual(['1', '2', '3', '4']);
    expect(h.onArrived).toHaveBeenCalledWith(h.queue.getSnapshot().items[1]?.key);
    await vi.waitFor(() => expect(h.status()['2']).toBe('done'));
    h.last('1').callbacks.onError('rejected');
    expect(h.sent.map((s) => s.name)).toEqual(['1', '2', '3', '4', '5']);
    expect(h.status()['1']).toBe('failed');
  });

  it('counts bytes and files per status, telling progress at most every 150 ms', async () => {
    const h = harness();
    h.queue.start(session, [file('a', 100), file('b', 300)]);
    h.fetchSummary.mockImplementation(() => new Promise(() => undefined));
    h.last('a').callbacks.onProgress(50);
    h.last('b').callbacks.onSuccess();
    await vi.waitFor(() => expect(queueTotals(h.queue.getSnapshot()).sentBytes).toBe(350));
    const totals = queueTotals(h.queue.getSnapshot());
    expect(totals).toMatchObject({ files: 2, bytes: 400, sentBytes: 350, active: true, allArrived: false });
    expect(totals.counts).toMatchObject({ uploading: 1, checking: 1 });
  });

  it('marks a file skipped with the reason from the summary after it arrives', async () => {
    const h = harness([{ name: 'notes.txt', reason: 'notDicom' }]);
    h.queue.start(session, [file('x/notes.txt'), file('x/IM1')]);
    h.last('x/notes.txt').callbacks.onSuccess();
    h.last('x/IM1').callbacks.onSuccess();
    await vi.waitFor(() => expect(h.status()).toEqual({ 'x/notes.txt': 'skipped', 'x/IM1': 'done' }));
    expect(h.queue.getSnapshot().items[0]?.reason).toBe('notDicom');
    expect(queueTotals(h.queue.getSnapshot()).allArrived).toBe(true);
  });

  it('stops everything on cancel and continues the stopped files on retry', () => {
    const h = harness();
    h.queue.start(session, [file('1'), file('2'), file('3'), file('4')]);
    h.queue.cancel();
    expect(h.sent.every((s) => s.aborted)).toBe(true);
    expect(new Set(Object.values(h.status()))).toEqual(new Set(['cancelled']));
    // A late callback of an aborted transfer changes nothing.
    h.last('1').callbacks.onSuccess();
    expect(h.status()['1']).toBe('cancelled');
    h.queue.retryAll();
    expect(h.sent.slice(3).map((s) => s.name)).toEqual(['1', '2', '3']);
  });

  it('retries the files that failed for the connection when it is back, not those the server refused', () => {
    const h = harness();
    h.queue.start(session, [file('net'), file('big')]);
    h.last('net').callbacks.onError('network');
    h.last('big').callbacks.onError('tooLarge');
    h.queue.retryNetworkFailures();
    expect(h.status()).toEqual({ net: 'uploading', big: 'failed' });
  });

  it('does not send again the files that arrived before the page was reopened', async () => {
    const h = harness([{ name: 'old.txt', reason: 'notDicom' }]);
    const old = file('old.txt');
    h.queue.start(session, [old, file('new')], new Set([old.key]));
    expect(h.sent.map((s) => s.name)).toEqual(['new']);
    await vi.waitFor(() => expect(h.status()['old.txt']).toBe('skipped'));
  });

  it('settles the files still being checked with the final summary', () => {
    const h = harness();
    h.queue.start(session, [file('a.txt'), file('b')]);
    h.fetchSummary.mockImplementation(() => new Promise(() => undefined));
    h.last('a.txt').callbacks.onSuccess();
    h.last('b').callbacks.onSuccess();
    h.queue.settleWith({
      uploadId: 'up1',
      status: 'completed',
      stored: 1,
      duplicates: 0,
      skipped: [{ name: 'a.txt', reason: 'notDicom' }],
      examIds: ['e1'],
    });
    expect(h.status()).toEqual({ 'a.txt': 'skipped', b: 'done' });
  });
});
