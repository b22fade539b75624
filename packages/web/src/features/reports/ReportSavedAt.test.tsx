// @vitest-environment jsdom
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { REPORT_HEARTBEAT_MS } from '@yyp/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mineLock, openEditor, reportOf as report, writerPermissions } from '../../test/reportEditorFixture';
import { formatClock } from './ReportActionBar';

afterEach(() => {
  vi.useRealTimers();
});

describe('the editor\'s "saved at"', () => {
  it('follows the last save by anyone, as the heartbeat reports it', async () => {
    // Only the heartbeat's interval runs on the test's clock; everything else keeps real time.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const ownSave = '2026-01-01T10:20:30Z';
    const laterSave = '2026-01-01T10:47:05Z';
    const { api } = openEditor(report(), {
      // The action bar shows Save, so Ctrl+S saves.
      ...writerPermissions,
      'POST reports/e1/save': () => ({
        status: 200,
        body: report({ version: 4, lock: mineLock, savedAt: ownSave }),
      }),
      'POST reports/e1/sync': () => ({
        status: 200,
        body: { ...report({ version: 5, lock: mineLock }), savedAt: laterSave },
      }),
    });
    const field = await screen.findByLabelText<HTMLTextAreaElement>('Findings', {}, { timeout: 10_000 });
    const user = userEvent.setup();
    await user.type(field, ' Heart normal.');
    await waitFor(() => expect(api.requests.some((r) => r.path === 'reports/e1/lock')).toBe(true));
    await user.keyboard('{Control>}s{/Control}');
    const saved = (iso: string) => `Saved at ${formatClock(new Date(iso))}`;
    await waitFor(() => expect(screen.getByTestId('save-state').textContent).toBe(saved(ownSave)));

    // Saved again elsewhere: the next heartbeat answers the later time, and the editor shows it.
    vi.advanceTimersByTime(REPORT_HEARTBEAT_MS);
    await waitFor(() => expect(api.requests.some((r) => r.path === 'reports/e1/sync')).toBe(true));
    await waitFor(() => expect(screen.getByTestId('save-state').textContent).toBe(saved(laterSave)));
  });
});
