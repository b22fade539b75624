// @vitest-environment jsdom
import { screen, waitFor } from '@testing-library/react';
import { defaultDomainConfig, type SharedReport } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../api/sessionStore';
import { errorAnswer, installFakeApi, tokenFor } from '../../test/fakeApi';
import { locationOf, renderApp } from '../../test/renderApp';

function shared(overrides: Partial<SharedReport> = {}): SharedReport {
  return {
    kind: 'share',
    state: 'current',
    superseded: false,
    hint: '',
    supersededAt: null,
    examId: 'e1',
    reportId: 'e1',
    organizationName: 'Renhe Hospital Radiology',
    patientName: 'Z*n',
    patientSex: 'M',
    patientAge: '045Y',
    exam: {
      modality: 'CT',
      bodyPart: 'CHEST',
      studyDate: '20261120',
      studyDescription: 'CT chest plain',
      accessionNumber: 'A100',
      extra: null,
    },
    report: {
      findings: 'Both lungs are clear.',
      conclusion: 'No abnormality.',
      reporter: 'Dr. Li',
      approver: 'Dr. Wang',
      approvedAt: '2026-11-20T08:00:00Z',
      version: 2,
    },
    images: [{ id: 'i1', url: '/img/1.png', desc: 'Right lung', index: 0 }],
    viewerPath: null,
    expiresAt: '2026-11-27T08:00:00Z',
    ...overrides,
  };
}

const domain = { 'GET domain': () => ({ status: 200, body: defaultDomainConfig }) };

describe('shared report page', () => {
  it('shows the report to a visitor and never sends a stored token on the public calls', async () => {
    const api = installFakeApi({
      ...domain,
      'GET share/report': () => ({ status: 200, body: shared() }),
      'GET publishers/find-co-exams': () => ({ status: 200, body: [] }),
      'GET publishers/find-past-exams': () => ({ status: 500, body: { code: 'UnknownError', message: 'x' } }),
    });
    // Someone signed in on this browser opens a shared link: their session is no part of it.
    sessionStore.signIn('doctor', tokenFor('doctor'));
    renderApp('/reports/s?link=LINK123');
    expect(await screen.findByText('Both lungs are clear.')).toBeTruthy();
    expect(screen.getByText('No abnormality.')).toBeTruthy();
    expect(screen.getByText('Renhe Hospital Radiology')).toBeTruthy();
    expect(screen.getByText('Z*n')).toBeTruthy();
    expect(screen.getByText('2026-11-20')).toBeTruthy();
    expect(screen.getByAltText('Right lung')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Open images/ })).toBeNull();
    await waitFor(() => expect(api.requests.some((r) => r.path === 'publishers/find-past-exams')).toBe(true));
    const pub = api.requests.filter((r) => r.path === 'share/report' || r.path.startsWith('publishers/'));
    expect(pub.length).toBeGreaterThanOrEqual(3);
    expect(pub.every((r) => r.headers.authorization === undefined)).toBe(true);
    expect(api.requests.find((r) => r.path === 'share/report')!.search).toBe('?link=LINK123');
    sessionStore.signOut();
  });

  it('says when the report was withdrawn, without any text', async () => {
    installFakeApi({
      ...domain,
      'GET share/report': () => ({
        status: 200,
        body: shared({
          state: 'withdrawn',
          superseded: true,
          report: null,
          images: [],
          supersededAt: '2026-11-21T08:00:00Z',
        }),
      }),
    });
    renderApp('/reports/s?link=L2');
    expect(await screen.findByText('This report has been withdrawn for correction')).toBeTruthy();
    expect(screen.queryByText('Findings')).toBeNull();
  });

  it('opens the images when the link allows them, and says when a link no longer works', async () => {
    installFakeApi({
      ...domain,
      'GET share/report': (r) =>
        r.search.includes('GONE')
          ? errorAnswer(403, 'LinkInvalid')
          : {
              status: 200,
              body: shared({ viewerPath: { openpath: 'p', rsuid: '1.2', expires: 1, url: '/viewer/p?rsuid=1.2' } }),
            },
    });
    const first = renderApp('/reports/s?link=OK');
    expect(await screen.findByRole('button', { name: /Open images/ })).toBeTruthy();
    first.unmount();
    renderApp('/reports/s?link=GONE');
    expect(await screen.findByText('This link is invalid or has expired')).toBeTruthy();
  });

  it('sends a /web link on to web-report with its query as signed', async () => {
    const api = installFakeApi({
      ...domain,
      'GET web-report': () => ({ status: 200, body: shared({ kind: 'web', patientName: 'Zhang San' }) }),
    });
    const { router } = renderApp('/web?groupId=g1&patientId=P%201&expires=9&timestamp=8&signature=ab&other=x');
    expect(await screen.findByText('Zhang San')).toBeTruthy();
    expect(locationOf(router)).toMatch(/^\/web-report\?/);
    const call = api.requests.find((r) => r.path === 'web-report')!;
    expect(Object.fromEntries(new URLSearchParams(call.search))).toEqual({
      groupId: 'g1',
      patientId: 'P 1',
      expires: '9',
      timestamp: '8',
      signature: 'ab',
    });
    expect(call.headers.authorization).toBeUndefined();
  });
});
