// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { EMPTY_REPORT_CONTENT, type Report, type ReportContent } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { errorAnswer, type FakeHandler } from '../../test/fakeApi';
import { locationOf } from '../../test/renderApp';
import {
  ME,
  mineLock,
  openEditor as openEditorAs,
  reportOf as report,
  writerPermissions,
} from '../../test/reportEditorFixture';

function openEditor(detail: Report, extra: Record<string, FakeHandler> = {}) {
  return openEditorAs(detail, { ...writerPermissions, ...extra });
}

const findings = () => screen.findByLabelText<HTMLTextAreaElement>('Findings');
const actionBar = () => screen.getByRole('toolbar');
const saveBody = (content: ReportContent, version: number) => ({ version, content });

describe('report editor', () => {
  it('opens without the lock, takes it at the first keystroke, shows exactly the allowed actions, and saves with Ctrl+S on the version it was based on', async () => {
    const saved = report({ version: 4, content: { ...EMPTY_REPORT_CONTENT, findings: 'Lungs clear. Heart normal.' } });
    const { api } = openEditor(report(), {
      'POST reports/e1/save': () => ({
        status: 200,
        body: { ...saved, lock: mineLock, savedAt: '2026-01-01T10:20:30Z' },
      }),
    });
    expect((await findings()).value).toBe('Lungs clear.');
    // Reading: the text can be typed into, and no lock is asked for until it is.
    expect((screen.getByLabelText('Findings') as HTMLTextAreaElement).readOnly).toBe(false);
    expect(await screen.findByTestId('start-editing')).toBeTruthy();
    expect(api.requests.some((r) => r.path === 'reports/e1/lock')).toBe(false);

    const buttons = [...actionBar().querySelectorAll('[data-action]')].map((b) => b.getAttribute('data-action'));
    expect(buttons).toEqual(['save', 'submit', 'advise']);
    expect(await screen.findByRole('heading', { name: 'Zhang San' })).toBeTruthy();
    expect(screen.getByText('Urgent')).toBeTruthy();

    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Findings'), ' Heart normal.');
    expect(screen.getByTestId('save-state').textContent).toBe('Unsaved changes');
    expect(api.requests.filter((r) => r.path === 'reports/e1/lock')).toHaveLength(1);
    await waitFor(() => expect(screen.queryByTestId('start-editing')).toBeNull());
    await user.keyboard('{Control>}s{/Control}');

    await waitFor(() => expect(api.requests.some((r) => r.path === 'reports/e1/save')).toBe(true));
    const save = api.requests.find((r) => r.path === 'reports/e1/save')!;
    expect(save.body).toEqual(saveBody({ ...EMPTY_REPORT_CONTENT, findings: 'Lungs clear. Heart normal.' }, 3));
    await waitFor(() => expect(screen.getByTestId('save-state').textContent).toMatch(/^Saved at \d\d:\d\d:\d\d$/));
    expect((screen.getByLabelText('Findings') as HTMLTextAreaElement).value).toBe('Lungs clear. Heart normal.');
    // The first render of the editor in a worker takes seconds on a loaded 2-core machine.
  }, 30_000);

  it('opens read-only with the holder named when someone else holds the lock', async () => {
    const held = report({
      transitions: [],
      lock: { ...mineLock, lockedBy: { id: 'u2', name: 'Dr. Wang' }, mine: false },
    });
    const { api } = openEditor(held);
    expect(await screen.findByText('Report locked by Dr. Wang')).toBeTruthy();
    expect((await findings()).readOnly).toBe(true);
    expect((await findings()).value).toBe('Lungs clear.');
    expect(actionBar().querySelectorAll('[data-action]')).toHaveLength(0);
    // Trying to type names the holder again, as a toast.
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Findings'), 'x');
    await waitFor(() => expect(screen.getAllByText('Report locked by Dr. Wang')).toHaveLength(2));
    expect((screen.getByLabelText('Findings') as HTMLTextAreaElement).value).toBe('Lungs clear.');
    expect(api.requests.some((r) => r.path === 'reports/e1/lock')).toBe(false);
  });

  it('opens to read, and at the first keystroke goes read-only with the holder named when the lock is refused', async () => {
    const { api } = openEditor(report(), {
      'POST reports/e1/lock': () => errorAnswer(409, 'ReportLocked', { lockedBy: { id: 'u2', name: 'Dr. Wang' } }),
    });
    expect((await findings()).readOnly).toBe(false);
    expect(api.requests.some((r) => r.path === 'reports/e1/lock')).toBe(false);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Findings'), 'x');
    expect((await screen.findAllByText('Report locked by Dr. Wang')).length).toBeGreaterThan(0);
    await waitFor(() => expect((screen.getByLabelText('Findings') as HTMLTextAreaElement).readOnly).toBe(true));
    // The refused keystroke is not kept.
    expect((screen.getByLabelText('Findings') as HTMLTextAreaElement).value).toBe('Lungs clear.');
  });

  it('leaves a report opened only to read without taking or giving back a lock', async () => {
    const { api, router } = openEditor(report());
    expect((await findings()).value).toBe('Lungs clear.');
    const user = userEvent.setup();
    await user.click(screen.getByRole('link', { name: 'Back to the study list' }));
    await waitFor(() => expect(locationOf(router)).toBe('/studies'));
    expect(api.requests.some((r) => r.path === 'reports/e1/lock' || r.path === 'reports/e1/unlock')).toBe(false);
  });

  it('shows both texts on a version conflict and saves mine on the newest version', async () => {
    let saves = 0;
    const theirs: ReportContent = { ...EMPTY_REPORT_CONTENT, findings: 'Their text.' };
    const { api } = openEditor(report(), {
      'POST reports/e1/save': (request) => {
        saves += 1;
        if (saves === 1) {
          return errorAnswer(409, 'ReportVersionConflict', {
            currentVersion: 7,
            rejected: (request.body as { content: ReportContent }).content,
            current: theirs,
            lastUpdater: { id: 'u2', name: 'Dr. Wang' },
          });
        }
        return {
          status: 200,
          body: report({ version: 8, lock: mineLock, content: (request.body as { content: ReportContent }).content }),
        };
      },
    });
    const user = userEvent.setup();
    await waitFor(async () => expect((await findings()).readOnly).toBe(false));
    await user.type(screen.getByLabelText('Findings'), ' Mine.');
    await user.click(within(actionBar()).getByRole('button', { name: /Save/ }));

    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/Dr. Wang saved a newer version/)).toBeTruthy();
    expect(within(dialog).getByTestId('conflict-theirs').textContent).toContain('Their text.');
    expect(within(dialog).getByTestId('conflict-mine').textContent).toContain('Lungs clear. Mine.');
    await user.click(within(dialog).getByRole('button', { name: 'Keep mine and save' }));

    await waitFor(() => expect(saves).toBe(2));
    const second = api.requests.filter((r) => r.path === 'reports/e1/save')[1]!;
    expect(second.body).toEqual(saveBody({ ...EMPTY_REPORT_CONTENT, findings: 'Lungs clear. Mine.' }, 7));
  });

  it('rejects only with a reason and keeps the text on screen', async () => {
    const submitted = report({
      status: 'final',
      transitions: ['approve', 'reject'],
      creator: { id: 'u2', name: 'Dr. Wang' },
    });
    const { api } = openEditor(submitted, {
      'POST reports/e1/reject': () => ({
        status: 200,
        body: {
          id: 'e1',
          status: 'hold',
          transitions: [],
          creator: { id: 'u2', name: 'Dr. Wang' },
          lastUpdater: ME,
          issuer: null,
          rejectReason: 'Describe the nodule size.',
          recallReason: '',
        },
      }),
    });
    const user = userEvent.setup();
    await waitFor(async () => expect((await findings()).readOnly).toBe(false));
    expect([...actionBar().querySelectorAll('[data-action]')].map((b) => b.getAttribute('data-action'))).toEqual([
      'approve',
      'reject',
    ]);
    await user.click(within(actionBar()).getByRole('button', { name: 'Reject' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(await within(dialog).findByText('A reason is required.')).toBeTruthy();
    expect(api.requests.some((r) => r.path === 'reports/e1/reject')).toBe(false);

    await user.type(within(dialog).getByLabelText('Reason'), 'Describe the nodule size.');
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    await waitFor(() => expect(api.requests.some((r) => r.path === 'reports/e1/reject')).toBe(true));
    expect(api.requests.find((r) => r.path === 'reports/e1/reject')!.body).toEqual({
      reason: 'Describe the nodule size.',
    });
    expect(await screen.findByText('Rejected')).toBeTruthy();
    expect((screen.getByLabelText('Findings') as HTMLTextAreaElement).value).toBe('Lungs clear.');
    expect(actionBar().querySelectorAll('[data-action]')).toHaveLength(0);

    fireEvent.click(screen.getByRole('tab', { name: 'Comments' }));
    expect((await screen.findByTestId('comment-reject')).textContent).toBe('Describe the nodule size.');
  });

  it('asks before leaving with unsaved text, and gives the lock back when it leaves', async () => {
    const { api, router } = openEditor(report());
    const user = userEvent.setup();
    await waitFor(async () => expect((await findings()).readOnly).toBe(false));
    await user.type(screen.getByLabelText('Findings'), ' More.');

    await user.click(screen.getByRole('link', { name: 'Back to the study list' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Your latest changes to this report are not saved yet.')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Stay' }));
    expect(locationOf(router)).toBe('/studies/e1/reports/e1');
    expect((screen.getByLabelText('Findings') as HTMLTextAreaElement).value).toBe('Lungs clear. More.');

    await user.click(screen.getByRole('link', { name: 'Back to the study list' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Leave without saving' }));
    await waitFor(() => expect(locationOf(router)).toBe('/studies'));
    await waitFor(() => expect(api.requests.some((r) => r.path === 'reports/e1/unlock')).toBe(true));
    expect(api.requests.some((r) => r.path === 'reports/e1/save')).toBe(false);
  });

  it('approves and prints text typed a moment ago and goes straight to the print view, without the leave question', async () => {
    const writer = report({ status: 'none', transitions: ['save', 'submit', 'approve', 'approveAndPrint'] });
    const { api, router } = openEditor(writer, {
      'POST reports/e1/approve-and-print': (request) => ({
        status: 200,
        body: report({
          status: 'printed',
          transitions: [],
          version: 4,
          content: (request.body as { content: ReportContent }).content,
        }),
      }),
    });
    const user = userEvent.setup();
    await user.type(await findings(), ' Heart normal.');
    await user.click(within(actionBar()).getByRole('button', { name: /Approve and print/ }));
    await waitFor(() => expect(locationOf(router)).toBe('/studies/e1/reports/e1/print?auto=1&recorded=1'));
    expect(screen.queryByText('Your latest changes to this report are not saved yet.')).toBeNull();
    const sent = api.requests.find((r) => r.path === 'reports/e1/approve-and-print')!;
    expect(sent.body).toEqual(saveBody({ ...EMPTY_REPORT_CONTENT, findings: 'Lungs clear. Heart normal.' }, 3));
  });

  it('asks before a template replaces written text, and can append it instead', async () => {
    const template = {
      id: 't1',
      scope: 'bucket',
      bucketId: 'b1',
      ownerId: null,
      category: 'Chest',
      title: 'Normal chest CT',
      modality: 'CT',
      bodyPart: 'CHEST',
      findings: 'No nodules.',
      conclusion: 'Normal.',
      editable: false,
      createdTime: '',
      updatedTime: '',
    };
    openEditor(report(), { 'GET report-templates': () => ({ status: 200, body: [template] }) });
    const user = userEvent.setup();
    await waitFor(async () => expect((await findings()).readOnly).toBe(false));
    await user.click(await screen.findByRole('button', { name: /Normal chest CT/ }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/Replace them with template "Normal chest CT"/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Append' }));
    await waitFor(() =>
      expect((screen.getByLabelText('Findings') as HTMLTextAreaElement).value).toBe('Lungs clear.\nNo nodules.'),
    );
    expect((screen.getByLabelText('Conclusion') as HTMLTextAreaElement).value).toBe('Normal.');
  });
});
