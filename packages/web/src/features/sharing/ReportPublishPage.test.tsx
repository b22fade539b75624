// @vitest-environment jsdom
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { defaultDomainConfig, type PublishDetail, type PublishedReportRow } from '@yyp/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { sessionStore } from '../../api/sessionStore';
import { demoUser, installFakeApi, tokenFor } from '../../test/fakeApi';
import { renderApp } from '../../test/renderApp';

const row: PublishedReportRow = {
  id: 'l1',
  examId: 'e1',
  reportId: 'e1',
  bucketId: 'b1',
  bucketName: 'Radiology',
  patientName: 'Z*n',
  patientId: '***01',
  patientSex: 'F',
  patientAge: '036Y',
  modality: 'DX',
  bodyPart: 'CHEST',
  studyDate: '20261124',
  accessionNumber: 'A-3',
  state: 'live',
  superseded: true,
  publishedBy: 'Dr. Wang',
  publishedAt: '2026-11-24T08:00:00Z',
  expiresAt: '2026-12-24T08:00:00Z',
  viewCount: 3,
  lastViewedAt: null,
};

const signedIn = {
  'GET domain': () => ({ status: 200, body: defaultDomainConfig }),
  'GET accounts/me': () => ({ status: 200, body: demoUser() }),
  'GET groups/mine': () => ({ status: 200, body: [] }),
  'GET accounts/me/permissions': () => ({ status: 200, body: [] }),
};

afterEach(() => sessionStore.signOut());

describe('report publish pages', () => {
  it('lists the published reports and filters them by state', async () => {
    const api = installFakeApi({
      ...signedIn,
      'POST report-publish/page-query': () => ({ status: 200, body: { data: [row], count: 1 } }),
    });
    sessionStore.signIn('senior', tokenFor('senior'));
    renderApp('/report-publish');
    expect(await screen.findByText('Z*n')).toBeTruthy();
    expect(screen.getByText('Superseded')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'View' }).getAttribute('href')).toBe(
      '/report-publish/detail?examId=e1&reportId=e1',
    );
    const user = userEvent.setup();
    await user.click(screen.getByLabelText('State'));
    await user.click(await screen.findByTitle('Revoked'));
    await waitFor(() =>
      expect(
        api.requests.some(
          (r) =>
            r.path === 'report-publish/page-query' &&
            JSON.stringify(r.body).includes('"field":"state","values":["revoked"]'),
        ),
      ).toBe(true),
    );
  });

  it('shows a published report with its links and publishes it again with the token in the body', async () => {
    const detail: PublishDetail = {
      report: {
        kind: 'publish',
        state: 'current',
        superseded: false,
        hint: '',
        supersededAt: null,
        examId: 'e1',
        reportId: 'e1',
        organizationName: 'Renhe Radiology',
        patientName: 'Zhang San',
        patientSex: 'F',
        patientAge: '036Y',
        exam: {
          modality: 'DX',
          bodyPart: 'CHEST',
          studyDate: '20261124',
          studyDescription: '',
          accessionNumber: 'A-3',
          extra: null,
        },
        report: {
          findings: 'Clear lungs.',
          conclusion: 'Normal.',
          reporter: 'Dr. Li',
          approver: 'Dr. Wang',
          approvedAt: null,
          version: 2,
        },
        images: [],
        viewerPath: null,
        expiresAt: null,
      },
      links: [],
    };
    const api = installFakeApi({
      ...signedIn,
      'GET report-publish/detail': () => ({ status: 200, body: detail }),
      'POST orders/publish-reports': () => ({
        status: 200,
        body: {
          results: [
            {
              examId: 'e1',
              ok: true,
              reportId: 'e1',
              reason: null,
              link: {
                id: 'l2',
                kind: 'publish',
                linkId: 'NEWLINK',
                url: '/reports/s?link=NEWLINK',
                expiresAt: '2026-12-24T08:00:00Z',
                allowImages: false,
              },
            },
          ],
        },
      }),
    });
    const senior = tokenFor('senior');
    sessionStore.signIn('senior', senior);
    renderApp('/report-publish/detail?examId=e1&reportId=e1');
    expect(await screen.findByText('Clear lungs.')).toBeTruthy();
    await userEvent.setup().click(screen.getByRole('button', { name: /Publish again/ }));
    expect(((await screen.findByLabelText('Link')) as HTMLInputElement).value).toContain('/reports/s?link=NEWLINK');
    const call = api.requests.find((r) => r.path === 'orders/publish-reports')!;
    // Spec 001 §8: no stored token on this path; the body carries its own.
    expect(call.body).toEqual({ examIds: ['e1'], token: senior.accessToken });
    expect(call.headers.authorization).toBeUndefined();
  });
});
