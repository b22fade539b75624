// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../api/sessionStore';
import { errorAnswer, installFakeApi, tokenFor, type FakeHandler } from '../../test/fakeApi';
import { mineLock, reportOf as report } from '../../test/reportEditorFixture';
import { useReportEditor } from './useReportEditor';

function openHook(handlers: Record<string, FakeHandler> = {}) {
  const api = installFakeApi({
    'GET reports/e1/detail': () => ({ status: 200, body: report() }),
    'POST reports/e1/lock': () => ({ status: 200, body: report({ lock: mineLock }) }),
    'POST reports/e1/unlock': () => ({ status: 200, body: report() }),
    ...handlers,
  });
  sessionStore.signIn('doctor', tokenFor('doctor'));
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  const hook = renderHook(() => useReportEditor('e1', () => undefined), { wrapper });
  const calls = (path: string) => api.requests.filter((r) => r.method === 'POST' && r.path === `reports/e1/${path}`);
  return { api, hook, calls };
}

/** Lets queued fetches and effects run. */
const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 50)));

describe('useReportEditor: opening is not locking (issue 20 item 5)', () => {
  it('opens to read without a lock, takes it at the first edit only, and gives it back on leaving', async () => {
    const { hook, calls } = openHook();
    await waitFor(() => expect(hook.result.current.draft?.findings).toBe('Lungs clear.'));
    await settle();
    expect(calls('lock')).toHaveLength(0);
    expect(hook.result.current.lockPhase).toBe('idle');
    // Editable and free: the text can be typed into before any lock.
    expect(hook.result.current.writable).toBe(true);
    expect(hook.result.current.canStartEditing).toBe(true);

    act(() => hook.result.current.change({ findings: 'Lungs clear. H' }));
    act(() => hook.result.current.change({ findings: 'Lungs clear. He' }));
    await waitFor(() => expect(hook.result.current.lockPhase).toBe('held'));
    // Two keystrokes, one lock; the text typed meanwhile stays.
    expect(calls('lock')).toHaveLength(1);
    expect(hook.result.current.draft?.findings).toBe('Lungs clear. He');
    expect(hook.result.current.dirty).toBe(true);
    expect(hook.result.current.canSave).toBe(true);

    hook.unmount();
    await waitFor(() => expect(calls('unlock')).toHaveLength(1));
  });

  it('leaves without a lock to give back when nothing was edited', async () => {
    const { hook, calls } = openHook();
    await waitFor(() => expect(hook.result.current.report).toBeDefined());
    await settle();
    hook.unmount();
    await settle();
    expect(calls('lock')).toHaveLength(0);
    expect(calls('unlock')).toHaveLength(0);
  });

  it('puts the first edit back and names the holder when someone else took the lock', async () => {
    const { hook, calls } = openHook({
      'POST reports/e1/lock': () => errorAnswer(409, 'ReportLocked', { lockedBy: { id: 'u2', name: 'Dr. Wang' } }),
    });
    await waitFor(() => expect(hook.result.current.writable).toBe(true));
    act(() => hook.result.current.change({ findings: 'Lungs clear. X' }));
    await waitFor(() => expect(hook.result.current.lockPhase).toBe('refused'));
    expect(calls('lock')).toHaveLength(1);
    expect(hook.result.current.lockHolder).toBe('Dr. Wang');
    expect(hook.result.current.draft?.findings).toBe('Lungs clear.');
    expect(hook.result.current.writable).toBe(false);
    hook.unmount();
    await settle();
    expect(calls('unlock')).toHaveLength(0);
  });

  it('reads a report another user holds without asking for the lock', async () => {
    const { hook, calls } = openHook({
      'GET reports/e1/detail': () => ({
        status: 200,
        body: report({ lock: { ...mineLock, lockedBy: { id: 'u2', name: 'Dr. Wang' }, mine: false } }),
      }),
    });
    await waitFor(() => expect(hook.result.current.lockHolder).toBe('Dr. Wang'));
    await settle();
    expect(hook.result.current.writable).toBe(false);
    expect(hook.result.current.canStartEditing).toBe(false);
    expect(hook.result.current.draft?.findings).toBe('Lungs clear.');
    expect(calls('lock')).toHaveLength(0);
  });

  it('takes the lock on an explicit Edit', async () => {
    const { hook, calls } = openHook();
    await waitFor(() => expect(hook.result.current.canStartEditing).toBe(true));
    let held = false;
    await act(async () => {
      held = await hook.result.current.startEditing();
    });
    expect(held).toBe(true);
    expect(hook.result.current.lockPhase).toBe('held');
    expect(calls('lock')).toHaveLength(1);
  });
});
