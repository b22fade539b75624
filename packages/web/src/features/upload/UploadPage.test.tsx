// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { defaultDomainConfig, type UploadSummary } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import type { UploadableBucket } from '../../api/contractTypes';
import { sessionStore } from '../../api/sessionStore';
import { demoUser, errorAnswer, installFakeApi, tokenFor, type FakeHandler } from '../../test/fakeApi';
import { fakeUploader, fileOf, uploadSessionOf, uploadSummaryOf } from '../../test/fakeUploader';
import { buttonByText, findButtonByText, findRow } from '../../test/queries';
import { locationOf, renderApp } from '../../test/renderApp';
import { accountScope, savePending } from '../../shared/upload/pendingUploads';

const RADIOLOGY: UploadableBucket = { id: 'b1', name: 'Radiology', groupId: 'g1', blocked: null };

/** The server side of an upload: what has been skipped so far, and the summary on completion. */
function uploadServer(buckets: UploadableBucket[], extra: Record<string, FakeHandler> = {}) {
  const state = { skipped: [] as UploadSummary['skipped'], stored: 0, closed: false };
  const summary = () =>
    uploadSummaryOf({
      status: state.closed ? 'completed' : 'open',
      stored: state.stored,
      skipped: state.skipped,
      examIds: state.stored > 0 ? ['e1'] : [],
    });
  const api = installFakeApi({
    'GET domain': () => ({ status: 200, body: defaultDomainConfig }),
    'GET accounts/me': () => ({ status: 200, body: demoUser({ username: 'tech', name: 'Tech Zhang' }) }),
    'GET groups/mine': () => ({ status: 200, body: [] }),
    'GET buckets/uploadable': () => ({ status: 200, body: buckets }),
    'POST buckets/b1/studies/upload': () => ({ status: 201, body: uploadSessionOf() }),
    'POST uploads/summary': () => ({ status: 200, body: summary() }),
    'POST exams/post-upload': () => {
      state.closed = true;
      return { status: 200, body: summary() };
    },
    ...extra,
  });
  return { api, state };
}

function openWizard(path = '/upload') {
  const tus = fakeUploader();
  sessionStore.signIn('tech', tokenFor('tech'));
  const view = renderApp(path, { wrap: tus.wrap });
  return { tus, ...view };
}

async function chooseFiles(files: File[]) {
  const user = userEvent.setup();
  await user.upload(await screen.findByLabelText('Choose files'), files);
  return user;
}

describe('/upload, step 1: choose files', () => {
  it('lists the chosen files with count and total size, removes one, and needs at least one', async () => {
    uploadServer([RADIOLOGY]);
    openWizard();
    await screen.findByText('Drop files or folders here');
    expect(screen.getByText('No files chosen yet.')).toBeTruthy();
    expect(buttonByText('Next').disabled).toBe(true);

    const user = await chooseFiles([
      fileOf('IM1', 2048, 'CT/IM1'),
      fileOf('IM2', 1024, 'CT/IM2'),
      fileOf('a.txt', 1024),
    ]);
    expect(await screen.findByText('Files: 3')).toBeTruthy();
    expect(screen.getByText('Total size: 4.0 KB')).toBeTruthy();
    expect(screen.getByText('CT/IM1')).toBeTruthy();

    await user.click(within(await findRow('a.txt')).getByText('Remove'));
    expect(await screen.findByText('Files: 2')).toBeTruthy();
    expect(screen.getByText('Total size: 3.0 KB')).toBeTruthy();
    expect(screen.queryByText('a.txt')).toBeNull();
    expect(buttonByText('Next').disabled).toBe(false);

    await user.click(buttonByText('Clear all'));
    expect(await screen.findByText('No files chosen yet.')).toBeTruthy();
    expect(buttonByText('Next').disabled).toBe(true);
  });

  it('takes a dropped folder with its subfolders', async () => {
    uploadServer([RADIOLOGY]);
    openWizard();
    const zone = (await screen.findByText('Drop files or folders here')).closest('.yyp-dropzone') as HTMLElement;
    const entry = (path: string, size: number) => ({
      isFile: true,
      isDirectory: false,
      fullPath: `/${path}`,
      file: (ok: (f: File) => void) => ok(fileOf(path.split('/').pop() ?? path, size)),
    });
    const folder = (path: string, children: unknown[]) => ({
      isFile: false,
      isDirectory: true,
      fullPath: `/${path}`,
      createReader: () => {
        const left = [...children];
        return { readEntries: (ok: (batch: unknown[]) => void) => ok(left.splice(0)) };
      },
    });
    const study = folder('MR', [entry('MR/s1/IM1', 100), folder('MR/s2', [entry('MR/s2/IM1', 200)])]);
    fireEvent.drop(zone, {
      dataTransfer: { items: [{ kind: 'file', webkitGetAsEntry: () => study }], files: [] },
    });
    expect(await screen.findByText('Files: 2')).toBeTruthy();
    expect(screen.getByText('MR/s1/IM1')).toBeTruthy();
    expect(screen.getByText('MR/s2/IM1')).toBeTruthy();
    expect(screen.getByText('Total size: 300 B')).toBeTruthy();
  });

  it('tells a user who may upload nowhere, instead of a wizard that cannot finish', async () => {
    uploadServer([]);
    openWizard();
    expect(await screen.findByText('No organization to upload into')).toBeTruthy();
    expect(screen.queryByText('Drop files or folders here')).toBeNull();
  });
});

describe('/upload, steps 2 to 4', () => {
  it('preselects the only organization, sends 3 files at a time and shows each status and the totals', async () => {
    const { api } = uploadServer([RADIOLOGY]);
    const { tus } = openWizard();
    const user = await chooseFiles([
      fileOf('IM1', 1000, 'CT/IM1'),
      fileOf('IM2', 1000, 'CT/IM2'),
      fileOf('IM3', 1000, 'CT/IM3'),
      fileOf('IM4', 1000, 'CT/IM4'),
    ]);
    await user.click(buttonByText('Next'));

    // Step 2: the only organization is chosen already.
    expect(await screen.findByText('Radiology')).toBeTruthy();
    expect(screen.getByText('Files: 4')).toBeTruthy();
    await user.click(buttonByText('Start upload'));

    // Step 3: three at a time, in order.
    expect(await screen.findByText('Uploading to Radiology')).toBeTruthy();
    expect(api.requests.filter((r) => r.path === 'buckets/b1/studies/upload')).toHaveLength(1);
    expect(tus.running()).toEqual(['CT/IM1', 'CT/IM2', 'CT/IM3']);
    expect(tus.of('CT/IM1').request.session.sessionToken).toBe('session-token-1');
    expect(tus.of('CT/IM1').request.fingerprint).toContain('up1');
    expect(within(await findRow('CT/IM4')).getByText('Waiting')).toBeTruthy();
    expect(screen.getByText('Uploading 3')).toBeTruthy();

    tus.progress('CT/IM1', 500);
    await waitFor(() => expect(screen.getByText('500 B of 3.9 KB')).toBeTruthy());
    expect(within(await findRow('CT/IM1')).getByText('50%')).toBeTruthy();

    tus.arrive('CT/IM1');
    await waitFor(() => expect(within(findRowNow('CT/IM1')).getByText('Uploaded')).toBeTruthy());
    // A place is free: the fourth file starts.
    expect(tus.running()).toEqual(['CT/IM2', 'CT/IM3', 'CT/IM4']);
    await waitFor(() => expect(screen.getByText('1000 B of 3.9 KB')).toBeTruthy());
    expect(screen.getByText('Uploaded 1')).toBeTruthy();
  });

  it('lists an organization whose plan refuses uploads as disabled, with the reason', async () => {
    uploadServer([RADIOLOGY, { id: 'b3', name: 'Checkup', groupId: 'g1', blocked: 'BucketFull' }]);
    openWizard();
    const user = await chooseFiles([fileOf('IM1', 1000, 'CT/IM1')]);
    await user.click(buttonByText('Next'));
    await user.click(await screen.findByLabelText('Organization'));
    const option = await screen.findByText(/^Checkup \(This organization has used its plan/, {
      selector: '.ant-select-item-option-content',
    });
    expect(option.closest('.ant-select-item-option')?.className).toContain('ant-select-item-option-disabled');
    await user.click(option);
    expect(buttonByText('Start upload').disabled).toBe(true);
  });

  it('shows why a file was skipped, retries a failed one, and completes with the summary', async () => {
    const { api, state } = uploadServer([RADIOLOGY, { id: 'b2', name: 'Ultrasound', groupId: 'g1', blocked: null }]);
    const { tus, router } = openWizard();
    const user = await chooseFiles([
      fileOf('IM1', 1000, 'CT/IM1'),
      fileOf('notes.txt', 10),
      fileOf('IM2', 1000, 'CT/IM2'),
    ]);
    await user.click(buttonByText('Next'));

    // Two organizations: one must be chosen before the upload can start.
    await screen.findByText('Choose the organization that receives the exams');
    expect(buttonByText('Start upload').disabled).toBe(true);
    await user.click(screen.getByLabelText('Organization'));
    await user.click(await screen.findByText('Radiology', { selector: '.ant-select-item-option-content' }));
    await user.click(buttonByText('Start upload'));
    await screen.findByText('Uploading to Radiology');

    // The server stores IM1 and skips notes.txt; the summary after each arrival tells which.
    state.stored = 1;
    tus.arrive('CT/IM1');
    state.skipped = [{ name: 'notes.txt', reason: 'notDicom' }];
    tus.arrive('notes.txt');
    await waitFor(() => expect(within(findRowNow('notes.txt')).getByText('Skipped')).toBeTruthy());
    expect(within(findRowNow('notes.txt')).getByText('Not a DICOM file')).toBeTruthy();
    expect(within(findRowNow('CT/IM1')).getByText('Uploaded')).toBeTruthy();
    expect(api.requests.find((r) => r.path === 'uploads/summary')?.headers.authorization).toBeUndefined();

    // IM2 loses its connection: failed, with a retry that sends it again.
    tus.fail('CT/IM2', 'network');
    expect(await screen.findByText('The connection was lost.')).toBeTruthy();
    expect(
      screen.getByText(
        'Some files did not arrive. Retry them, or finish: the files that arrived are kept and listed in the summary.',
      ),
    ).toBeTruthy();
    await user.click(within(findRowNow('CT/IM2')).getByText('Retry'));
    expect(tus.transfers.filter((t) => t.request.name === 'CT/IM2')).toHaveLength(2);
    expect(tus.running()).toEqual(['CT/IM2']);

    // The last arrival closes the session and shows the summary.
    state.stored = 2;
    tus.arrive('CT/IM2');
    expect(await screen.findByText('Upload complete')).toBeTruthy();
    expect(screen.getByText('Organization: Radiology')).toBeTruthy();
    const stored = screen.getByText('Images stored').closest('.ant-statistic') as HTMLElement;
    expect(within(stored).getByText('2')).toBeTruthy();
    const skippedRow = await findRow('notes.txt');
    expect(within(skippedRow).getByText('Not a DICOM file')).toBeTruthy();
    expect(api.requests.filter((r) => r.path === 'exams/post-upload')).toHaveLength(1);
    expect(api.requests.find((r) => r.path === 'exams/post-upload')?.body).toEqual({ sessionToken: 'session-token-1' });

    // "Upload more" starts over; "Go to the study list" leaves.
    await user.click(await findButtonByText('Upload more'));
    expect(await screen.findByText('No files chosen yet.')).toBeTruthy();
    await chooseFiles([fileOf('IM9', 10)]);
    await user.click(buttonByText('Next'));
    await user.click(await findButtonByText('Back'));
    expect(await screen.findByText('IM9')).toBeTruthy();
    expect(locationOf(router)).toBe('/upload');
  });

  it('sends the corrections of step 2 with the closing call; empty fields keep what the files say', async () => {
    const { api, state } = uploadServer([RADIOLOGY]);
    const { tus } = openWizard();
    const user = await chooseFiles([fileOf('IM1', 100, 'CT/IM1')]);
    await user.click(buttonByText('Next'));
    expect(await screen.findByText('Correct the exam details')).toBeTruthy();
    await user.type(screen.getByLabelText('Patient name'), '  张^伟 ');
    await user.type(screen.getByLabelText('Patient ID'), 'P-0001');
    await user.type(screen.getByLabelText('Accession number'), 'ACC-9');
    await user.click(buttonByText('Start upload'));
    await screen.findByText('Uploading to Radiology');
    state.stored = 1;
    tus.arrive('CT/IM1');
    expect(await screen.findByText('Upload complete')).toBeTruthy();
    expect(api.requests.find((r) => r.path === 'exams/post-upload')?.body).toEqual({
      sessionToken: 'session-token-1',
      corrections: { patientName: '张^伟', patientId: 'P-0001', accessionNumber: 'ACC-9' },
    });
  }, 30_000);

  it('offers to finish without the corrections when the server refuses them', async () => {
    const { api } = uploadServer([RADIOLOGY], {
      'POST exams/post-upload': (request) =>
        (request.body as { corrections?: unknown }).corrections
          ? errorAnswer(400, 'ValidationError')
          : { status: 200, body: uploadSummaryOf({ status: 'completed', stored: 1, examIds: ['e1'] }) },
    });
    const { tus } = openWizard();
    const user = await chooseFiles([fileOf('IM1', 100, 'CT/IM1')]);
    await user.click(buttonByText('Next'));
    await user.type(await screen.findByLabelText('Accession number'), 'ACC-9');
    await user.click(buttonByText('Start upload'));
    await screen.findByText('Uploading to Radiology');
    tus.arrive('CT/IM1');
    expect(await screen.findByText(/The corrections were not accepted/)).toBeTruthy();
    await user.click(buttonByText('Finish without corrections'));
    expect(await screen.findByText('Upload complete')).toBeTruthy();
    const closing = api.requests.filter((r) => r.path === 'exams/post-upload').map((r) => r.body);
    expect(closing).toEqual([
      { sessionToken: 'session-token-1', corrections: { accessionNumber: 'ACC-9' } },
      { sessionToken: 'session-token-1' },
    ]);
  }, 30_000);

  it('stops on request and continues the stopped files', async () => {
    uploadServer([RADIOLOGY]);
    const { tus } = openWizard();
    const user = await chooseFiles([fileOf('IM1', 100), fileOf('IM2', 100)]);
    await user.click(buttonByText('Next'));
    await user.click(await findButtonByText('Start upload'));
    await screen.findByText('Uploading to Radiology');

    await user.click(buttonByText('Stop upload'));
    const popup = (await screen.findByText(/Stop the upload\?/)).closest('.ant-popover') as HTMLElement;
    await user.click(buttonByText('Stop upload', popup));
    await waitFor(() => expect(within(findRowNow('IM1')).getByText('Stopped')).toBeTruthy());
    expect(tus.transfers.every((t) => t.aborted)).toBe(true);

    await user.click(buttonByText('Continue upload'));
    expect(tus.running()).toEqual(['IM1', 'IM2']);
  });

  it('continues an unfinished upload of this user in the same session, without resending what arrived', async () => {
    const { api } = uploadServer([RADIOLOGY]);
    const done = fileOf('IM1', 100);
    savePending({
      scope: accountScope('tech', 'b1'),
      session: uploadSessionOf({ uploadId: 'up-old', sessionToken: 'old-session' }),
      bucketId: 'b1',
      doneKeys: [`IM1|100|${done.lastModified}`],
    });
    const { tus } = openWizard();
    expect(await screen.findByText(/An upload to Radiology did not finish\. Choose the same files again/)).toBeTruthy();
    const user = await chooseFiles([done, fileOf('IM2', 100)]);
    await user.click(buttonByText('Next'));
    await user.click(await findButtonByText('Start upload'));
    await screen.findByText('Uploading to Radiology');

    expect(api.requests.some((r) => r.path === 'buckets/b1/studies/upload')).toBe(false);
    expect(tus.transfers.map((t) => t.request.name)).toEqual(['IM2']);
    expect(tus.of('IM2').request.session.sessionToken).toBe('old-session');
    expect(tus.of('IM2').request.fingerprint).toContain('up-old');
  });

  it('reports a refused session start and stays on the step', async () => {
    uploadServer([RADIOLOGY], { 'POST buckets/b1/studies/upload': () => errorAnswer(403, 'InsufficientPermissions') });
    openWizard();
    const user = await chooseFiles([fileOf('IM1', 100)]);
    await user.click(buttonByText('Next'));
    await user.click(await findButtonByText('Start upload'));
    expect(await screen.findByText('You do not have permission to do this.')).toBeTruthy();
    expect(
      screen.getByText(
        'Patient and study details are read from the DICOM files themselves; correct them below if they are wrong.',
      ),
    ).toBeTruthy();
  });
});

describe('/studies', () => {
  it('offers the upload only to users who may upload somewhere', async () => {
    uploadServer([RADIOLOGY]);
    const { router } = openWizard('/studies');
    const user = userEvent.setup();
    await user.click(await findButtonByText('Upload exams'));
    await screen.findByText('Drop files or folders here');
    expect(locationOf(router)).toBe('/upload');
  });

  it('shows no upload button to the others', async () => {
    uploadServer([]);
    openWizard('/studies');
    await screen.findByText('No exams yet');
    await waitFor(() => expect(screen.queryByText('Upload exams')).toBeNull());
  });
});

function findRowNow(text: string): HTMLElement {
  return screen.getByText(text, { selector: 'td, td *' }).closest('tr') as HTMLElement;
}
