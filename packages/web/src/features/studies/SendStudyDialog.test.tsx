// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { callKey, examCalls, forwardingCalls, procedureCalls, type DicomSend } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { errorAnswer, type FakeHandler } from '../../test/fakeApi';
import { deviceOf } from '../../test/procedureFixtures';
import { buttonByText } from '../../test/queries';
import { examDetailOf } from '../../test/reportEditorFixture';
import { examItemOf, openStudiesAs } from '../../test/studiesFixture';

function sendOf(overrides: Partial<DicomSend> = {}): DicomSend {
  return {
    id: 'x1',
    examId: 'e1',
    destinationId: 'd2',
    destinationAe: 'PACS_B',
    seriesUids: null,
    trigger: 'manual',
    ruleId: null,
    status: 'queued',
    total: 0,
    sent: 0,
    failed: 0,
    failedInstances: [],
    attempts: 0,
    lastError: null,
    created: '2026-01-02T08:00:00.000Z',
    finished: null,
    ...overrides,
  };
}

/**
 * A fake server's sends of exam e1: a new send is queued, and each time the list is read a send
 * under way moves on (queued → running 4 of 10 → done 10 of 10), as the job would.
 */
function sendsServer(initial: DicomSend[] = [], answer?: (path: string) => ReturnType<FakeHandler> | undefined) {
  const sends = [...initial];
  let next = 1;
  const progress = (s: DicomSend): DicomSend =>
    s.status === 'queued'
      ? { ...s, status: 'running', total: 10, sent: 4 }
      : s.status === 'running'
        ? { ...s, status: 'done', total: 10, sent: 10, finished: '2026-01-02T08:01:00.000Z' }
        : s;
  const queue = (body: Partial<DicomSend>) => {
    const send = sendOf({ ...body, id: `new${next++}` });
    sends.unshift(send);
    return { status: 202, body: send };
  };
  const handlers: Record<string, FakeHandler> = {
    [callKey(procedureCalls.devices.list)]: () => ({
      status: 200,
      // only the devices with a host and a port can be chosen
      body: [
        deviceOf({ id: 'd1', name: 'CT room 1', host: null, port: null }),
        deviceOf({ id: 'd2', name: 'Archive B', aeTitle: 'PACS_B', host: '10.0.0.9', port: 11112 }),
      ],
    }),
    [callKey(examCalls.detail)]: () => ({
      status: 200,
      body: examDetailOf({
        id: 'e1',
        bucketId: 'b1',
        hasImage: true,
        patientName: 'Zhang^Wei',
        actions: ['exam_get', 'study_package'],
        series: [
          {
            seriesUid: '1.2.3.1',
            modality: 'CT',
            seriesNumber: 1,
            description: 'Scout',
            bodyPart: 'CHEST',
            instanceCount: 2,
          },
          {
            seriesUid: '1.2.3.2',
            modality: 'CT',
            seriesNumber: 2,
            description: 'Axial 1mm',
            bodyPart: 'CHEST',
            instanceCount: 8,
          },
        ],
      }),
    }),
    [callKey(forwardingCalls.examSends)]: () => {
      sends.splice(0, sends.length, ...sends.map(progress));
      return { status: 200, body: sends.map((s) => ({ ...s })) };
    },
    [callKey(forwardingCalls.send)]: (r) => {
      const refused = answer?.(r.path);
      if (refused) return refused;
      const body = r.body as { destinationId: string; seriesUids?: string[] };
      return queue({ destinationId: body.destinationId, seriesUids: body.seriesUids ?? null });
    },
    [callKey(forwardingCalls.retrySend)]: (r) => {
      const refused = answer?.(r.path);
      if (refused) return refused;
      const failed = sends.find((s) => s.id === r.params.sendId);
      return queue({ destinationId: failed?.destinationId ?? null, seriesUids: failed?.seriesUids ?? null });
    },
  };
  return { sends, handlers };
}

const packager = { username: 'doc', name: 'Doc', level: 'member', actions: ['exam_get', 'study_package'] };

async function openDialog(handlers: Record<string, FakeHandler>, actions = packager.actions) {
  const user = userEvent.setup();
  const { api } = openStudiesAs({ ...packager, actions }, examItemOf(), handlers);
  await user.click(await screen.findByTestId('more-e1', {}, { timeout: 25_000 }));
  await user.click(await screen.findByText('Send to…'));
  const dialog = (await screen.findByText('Send Zhang Wei to a DICOM node')).closest('.ant-modal') as HTMLElement;
  return { api, user, dialog };
}

/** Choose the destination device by its label in the dialog's list. */
async function chooseDestination(user: ReturnType<typeof userEvent.setup>, dialog: HTMLElement, label: string) {
  await user.click(within(dialog).getByLabelText('Destination'));
  await user.click(await screen.findByText(label, { selector: '.ant-select-item-option-content' }));
}

const posts = (api: { requests: { method: string; path: string; body: unknown }[] }, path: string) =>
  api.requests.filter((r) => r.method === 'POST' && r.path === path);

describe('sending an exam to a DICOM node (study list row menu)', { timeout: 60_000 }, () => {
  it('sends the whole study to a device with a host and port, then shows its progress until done', async () => {
    const server = sendsServer();
    const { api, user, dialog } = await openDialog(server.handlers);
    expect(await within(dialog).findByText('This exam has not been sent yet.')).toBeTruthy();
    // nothing chosen: Send refuses before calling
    await user.click(buttonByText('Send', dialog));
    expect(await within(dialog).findByText('Destination is required')).toBeTruthy();
    await user.click(within(dialog).getByLabelText('Destination'));
    // a device without host and port is not offered
    expect(await screen.findByText('Archive B · PACS_B (10.0.0.9:11112)')).toBeTruthy();
    expect(screen.queryByText(/CT room 1/, { selector: '.ant-select-item-option-content' })).toBeNull();
    await user.click(screen.getByText('Archive B · PACS_B (10.0.0.9:11112)'));
    await user.click(buttonByText('Send', dialog));

    expect(await screen.findByText('Queued: the study is sent in the background.')).toBeTruthy();
    expect(posts(api, 'exams/e1/dicom-sends')[0]?.body).toEqual({ destinationId: 'd2' });
    // read again while under way: running 4 of 10, then done 10 of 10 (the list stops asking then)
    expect(await within(dialog).findByText('4 / 10 images', {}, { timeout: 10_000 })).toBeTruthy();
    expect(within(dialog).getByText('Sending')).toBeTruthy();
    expect(await within(dialog).findByText('10 / 10 images', {}, { timeout: 10_000 })).toBeTruthy();
    expect(within(dialog).getByText('Done')).toBeTruthy();
    expect(within(dialog).getByText('Whole study · By hand')).toBeTruthy();
    const reads = api.requests.filter((r) => r.path === 'exams/e1/dicom-sends' && r.method === 'GET').length;
    await new Promise((r) => setTimeout(r, 2500));
    expect(api.requests.filter((r) => r.path === 'exams/e1/dicom-sends' && r.method === 'GET')).toHaveLength(reads);
  });

  it('sends chosen series (Enter sends once valid) and says what a 400 refused', async () => {
    let refuse = true;
    const server = sendsServer([], () => (refuse ? errorAnswer(400, 'ValidationError') : undefined));
    const { api, user, dialog } = await openDialog(server.handlers);
    await chooseDestination(user, dialog, 'Archive B · PACS_B (10.0.0.9:11112)');
    await user.click(within(dialog).getByText('Chosen series'));
    await user.click(await within(dialog).findByText('#2 CT Axial 1mm · 8 images'));
    await user.click(buttonByText('Send', dialog));
    expect(
      await screen.findByText(
        'This cannot be sent: the device needs a host and a port, and the chosen series must be in the study.',
      ),
    ).toBeTruthy();
    refuse = false;
    // Enter in the form sends
    within(dialog).getByText('#1 CT Scout · 2 images').closest('label')?.querySelector('input')?.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(posts(api, 'exams/e1/dicom-sends')).toHaveLength(2));
    expect(posts(api, 'exams/e1/dicom-sends')[1]?.body).toEqual({ destinationId: 'd2', seriesUids: ['1.2.3.2'] });
    expect(await within(dialog).findByText('1 series · By hand')).toBeTruthy();
  });

  it('sends a failed send again, and says so when the server refuses (409)', async () => {
    let conflict = false;
    const failed = sendOf({
      id: 'old',
      status: 'failed',
      total: 10,
      sent: 7,
      failed: 3,
      attempts: 3,
      lastError: 'association rejected',
      finished: '2026-01-01T09:00:00.000Z',
    });
    const server = sendsServer([failed], () => (conflict ? errorAnswer(409, 'Conflict') : undefined));
    const { api, user, dialog } = await openDialog(server.handlers);
    expect(await within(dialog).findByText('3 failed')).toBeTruthy();
    expect(within(dialog).getByText('Failed')).toBeTruthy();
    expect(within(dialog).getByText('7 / 10 images')).toBeTruthy();

    conflict = true;
    await user.click(buttonByText('Send again', dialog));
    expect(
      await screen.findByText('Only a failed send can be sent again, and only while its device exists.'),
    ).toBeTruthy();
    conflict = false;
    await user.click(buttonByText('Send again', dialog));
    expect(await screen.findByText('Queued again: what was not delivered is sent once more.')).toBeTruthy();
    expect(posts(api, 'exams/e1/dicom-sends/old/retry')).toHaveLength(2);
    // the new send runs to the end beside the failed one
    expect(await within(dialog).findByText('10 / 10 images', {}, { timeout: 10_000 })).toBeTruthy();
    expect(within(dialog).getAllByText('Send again')).toHaveLength(1);
  });

  it('is offered in the detail drawer too', async () => {
    const user = userEvent.setup();
    openStudiesAs(packager, examItemOf(), sendsServer().handlers);
    await user.click(await screen.findByText('Details', { selector: 'button span' }, { timeout: 25_000 }));
    await user.click(await screen.findByText('Send to…', { selector: 'button span' }));
    const dialog = (await screen.findByText('Send Zhang Wei to a DICOM node')).closest('.ant-modal') as HTMLElement;
    expect(await within(dialog).findByText('This exam has not been sent yet.')).toBeTruthy();
    await user.click(within(dialog).getByText('Chosen series'));
    expect(await within(dialog).findByText('#2 CT Axial 1mm · 8 images')).toBeTruthy();
  });

  it('is not offered without study_package on the exam', async () => {
    const user = userEvent.setup();
    openStudiesAs({ ...packager, actions: ['exam_get', 'exam_update'] }, examItemOf(), sendsServer().handlers);
    await user.click(await screen.findByTestId('more-e1', {}, { timeout: 25_000 }));
    expect(await screen.findByText('Mark films printed')).toBeTruthy();
    expect(screen.queryByText('Send to…')).toBeNull();
  });
});
