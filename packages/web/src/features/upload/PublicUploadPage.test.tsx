// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { defaultDomainConfig } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../api/sessionStore';
import { errorAnswer, installFakeApi, tokenFor, type FakeHandler } from '../../test/fakeApi';
import { fakeUploader, fileOf, uploadSessionOf, uploadSummaryOf } from '../../test/fakeUploader';
import { buttonByText, findButtonByText, findRow } from '../../test/queries';
import { locationOf, renderApp } from '../../test/renderApp';

function linkServer(byToken: FakeHandler) {
  return installFakeApi({
    'GET domain': () => ({ status: 200, body: { ...defaultDomainConfig, displayName: 'Renhe Imaging' } }),
    'POST uploads/by-token': byToken,
    'POST uploads/summary': () => ({ status: 200, body: uploadSummaryOf({ stored: 1 }) }),
    'POST exams/post-upload': () => ({
      status: 200,
      body: uploadSummaryOf({ status: 'completed', stored: 1, examIds: ['e1'] }),
    }),
  });
}

function openLink(path: string) {
  const tus = fakeUploader();
  const view = renderApp(path, { wrap: tus.wrap });
  return { tus, ...view };
}

describe('/upload?token: the public upload link', () => {
  it('names the organization of the link and uploads into it without an account', async () => {
    const api = linkServer(() => ({ status: 201, body: uploadSessionOf({ bucketName: '放射科' }) }));
    const { tus, router } = openLink('/upload?token=link-token-1');
    expect(await screen.findByText('Upload exams to 放射科')).toBeTruthy();
    expect(api.requests.find((r) => r.path === 'uploads/by-token')?.body).toEqual({ token: 'link-token-1' });
    // Three steps, no organization to choose, and no way into the app.
    expect(
      screen.getByText('Choose files', { selector: '.ant-steps-item-title, .ant-steps-item-title *' }),
    ).toBeTruthy();
    expect(screen.queryByText('Exam info')).toBeNull();
    expect(screen.queryByRole('navigation')).toBeNull();
    expect(document.querySelector('a[href]')).toBeNull();

    const user = userEvent.setup();
    await user.upload(screen.getByLabelText('Choose files'), [fileOf('chest.dcm', 2048)]);
    await user.click(buttonByText('Start upload'));
    expect(await screen.findByText('Uploading to 放射科')).toBeTruthy();
    expect(tus.of('chest.dcm').request.session.sessionToken).toBe('session-token-1');

    tus.arrive('chest.dcm');
    expect(await screen.findByText('Upload complete')).toBeTruthy();
    expect(screen.getByText('Organization: 放射科')).toBeTruthy();
    expect(screen.queryByText('Go to the study list')).toBeNull();
    expect(locationOf(router)).toBe('/upload?token=link-token-1');

    // Another upload opens a new session with the link.
    await user.click(await findButtonByText('Upload more'));
    await screen.findByText('No files chosen yet.');
    await waitFor(() => expect(api.requests.filter((r) => r.path === 'uploads/by-token')).toHaveLength(2));
  });

  it('is public even for a signed-in user, and never sends the bearer token', async () => {
    const api = linkServer(() => ({ status: 201, body: uploadSessionOf() }));
    sessionStore.signIn('doctor', tokenFor('doctor'));
    const { tus } = openLink('/upload?token=link-token-1');
    await screen.findByText('Upload exams to Radiology');
    expect(screen.queryByText('Report workstation')).toBeNull();
    const user = userEvent.setup();
    await user.upload(screen.getByLabelText('Choose files'), [fileOf('chest.dcm', 10)]);
    await user.click(buttonByText('Start upload'));
    tus.arrive('chest.dcm');
    await screen.findByText('Upload complete');
    const calls = api.requests.filter((r) => r.path.startsWith('uploads/') || r.path === 'exams/post-upload');
    expect(calls.map((r) => r.path)).toEqual(['uploads/by-token', 'uploads/summary', 'exams/post-upload']);
    expect(calls.every((r) => r.headers.authorization === undefined)).toBe(true);
    expect(api.requests.some((r) => r.path === 'accounts/me')).toBe(false);
  });

  it('never asks for a password there, even when the stored login has expired', async () => {
    linkServer(() => ({ status: 201, body: uploadSessionOf() }));
    sessionStore.signIn('doctor', tokenFor('doctor'));
    sessionStore.clearToken({ keepUser: true, openExpiryDialog: true });
    openLink('/upload?token=link-token-1');
    await screen.findByText('Upload exams to Radiology');
    await waitFor(() => expect(sessionStore.getState().expiryDialogOpen).toBe(false));
    expect(screen.queryByText('Login expired')).toBeNull();
  });

  it.each([
    ['unknown or revoked', 'revoked-token', errorAnswer(404, 'NotFound')],
    ['malformed', 'bogus', errorAnswer(400, 'ValidationError')],
  ])('says clearly that a %s link is not valid', async (_what, token, answer) => {
    linkServer(() => answer);
    openLink(`/upload?token=${token}`);
    expect(await screen.findByText('This upload link is not valid')).toBeTruthy();
    expect(
      screen.getByText(
        'The link is wrong, or the organization has revoked it. Ask the organization for a new upload link.',
      ),
    ).toBeTruthy();
    expect(screen.queryByText('Drop files or folders here')).toBeNull();
  });

  it('offers a retry when the server cannot be reached', async () => {
    let calls = 0;
    linkServer(() => {
      calls += 1;
      return calls === 1 ? errorAnswer(503, 'UnknownError') : { status: 201, body: uploadSessionOf() };
    });
    openLink('/upload?token=link-token-1');
    const alert = (await screen.findByText('The data could not be loaded.')).closest('.ant-alert') as HTMLElement;
    await userEvent.setup().click(within(alert).getByText('Retry'));
    expect(await screen.findByText('Upload exams to Radiology')).toBeTruthy();
  });

  it('shows skipped files with their reason in the summary', async () => {
    installFakeApi({
      'GET domain': () => ({ status: 200, body: defaultDomainConfig }),
      'POST uploads/by-token': () => ({ status: 201, body: uploadSessionOf() }),
      'POST uploads/summary': () => ({ status: 200, body: uploadSummaryOf() }),
      'POST exams/post-upload': () => ({
        status: 200,
        body: uploadSummaryOf({
          status: 'completed',
          skipped: [
            { name: 'report.pdf', reason: 'notDicom' },
            { name: 'cut.dcm', reason: 'truncated' },
            { name: 'odd.dcm', reason: 'somethingNew' },
          ],
        }),
      }),
    });
    const { tus } = openLink('/upload?token=link-token-1');
    const user = userEvent.setup();
    await user.upload(await screen.findByLabelText('Choose files'), [
      fileOf('report.pdf', 10),
      fileOf('cut.dcm', 10),
      fileOf('odd.dcm', 10),
    ]);
    await user.click(buttonByText('Start upload'));
    await screen.findByText('Uploading to Radiology');
    tus.arrive('report.pdf');
    tus.arrive('cut.dcm');
    tus.arrive('odd.dcm');
    expect(await screen.findByText('No DICOM image was stored')).toBeTruthy();
    expect(within(await findRow('report.pdf')).getByText('Not a DICOM file')).toBeTruthy();
    expect(
      within(await findRow('cut.dcm')).getByText('The file is incomplete: its image data is cut short'),
    ).toBeTruthy();
    expect(within(await findRow('odd.dcm')).getByText('Not stored')).toBeTruthy();
  });
});

describe('/upload without a token', () => {
  it('needs login', async () => {
    linkServer(() => ({ status: 201, body: uploadSessionOf() }));
    const { router } = openLink('/upload');
    await screen.findByRole('button', { name: 'Log in' });
    expect(locationOf(router)).toBe('/login?redirect=%2Fupload');
  });
});
