// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { defaultDomainConfig, type PrintReport, type PrintView } from '@yyp/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../../api/sessionStore';
import { demoUser, errorAnswer, installFakeApi, tokenFor, type FakeHandler } from '../../../test/fakeApi';
import { renderApp } from '../../../test/renderApp';
import { examDetailOf } from '../../../test/reportEditorFixture';

function signedIn(path: string, extra: Record<string, FakeHandler>) {
  const api = installFakeApi({
    'GET domain': () => ({ status: 200, body: defaultDomainConfig }),
    'GET accounts/me': () => ({ status: 200, body: demoUser({ username: 'senior', name: 'Wang' }) }),
    ...extra,
  });
  sessionStore.signIn('senior', tokenFor('senior'));
  return { api, ...renderApp(path) };
}

const exam = (id: string, patientName: string, bucketName: string) =>
  examDetailOf({
    id,
    patientName,
    bucketName,
    bucketId: bucketName,
    modality: 'CT',
    bodyPart: 'ABDOMEN',
    accessionNumber: `A-${id}`,
  });

function printed(reportId: string, patientName: string, over: Partial<PrintReport> = {}): PrintReport {
  return {
    reportId,
    examIds: [reportId],
    status: 'corrected',
    approved: true,
    isPrinted: false,
    version: 2,
    exam: {
      patientName,
      patientId: 'P1',
      patientGender: 'M',
      age: '055Y',
      accessionNumber: `A-${reportId}`,
      modality: 'CT',
      bodyPart: 'ABDOMEN',
      studyDate: '20250310',
      studyTime: '080000',
      studyDesc: '',
      patientSource: '',
      inpatientId: '',
      outpatientId: '',
      bedNum: '',
      applyDept: '',
      clinicImpression: '',
      urgent: false,
    },
    findings: '所见',
    conclusion: '结论',
    positive: null,
    writer: null,
    approver: null,
    submittedAt: null,
    approvedAt: null,
    printSubmittedAt: null,
    printApprovedAt: null,
    images: [],
    sampleGraphs: [],
    attributes: [],
    ...over,
  };
}

const view = (reports: PrintReport[]): PrintView => ({
  bucketId: 'rad',
  template: {
    hospitalName: '仁和医院',
    title: '',
    logoUrl: null,
    stampUrl: null,
    footerText: '',
    showSignatures: true,
  },
  imageColumns: 2,
  masked: false,
  reports,
});

afterEach(() => {
  sessionStore.signOut();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** What the server answers a recorded print (contracts printTimeSchema). */
const printTime = (reportId: string) => ({
  reportId,
  status: 'printed',
  isPrinted: true,
  printSubmittedAt: null,
  printApprovedAt: '2026-11-26T08:00:00.000Z',
});

describe('printing sheets page', () => {
  it('prints the reports as one document, sample graph marks drawn, and records each print', async () => {
    const print = vi.fn();
    vi.stubGlobal('print', print);
    // jsdom loads no pictures: the print waits for none.
    vi.spyOn(HTMLImageElement.prototype, 'complete', 'get').mockReturnValue(true);
    const graph = {
      id: 'g1',
      title: '肝脏分段',
      url: '/blob/g1.png',
      width: 400,
      height: 300,
      index: 0,
      points: [
        { x: 100, y: 80, color: '#f5222d', label: '1' },
        { x: 390, y: 200, color: '#1677ff', label: '2' },
      ],
    };
    const { api } = signedIn('/studies/print-sheets?examIds=e1,e2', {
      'POST reports/print-sheets': () => ({
        status: 200,
        body: view([printed('e1', '赵一', { sampleGraphs: [graph] }), printed('e2', '钱二')]),
      }),
      'POST reports/e1/update-print-time': () => ({ status: 200, body: printTime('e1') }),
      'POST reports/e2/update-print-time': () => ({ status: 200, body: printTime('e2') }),
    });
    const sheets = await screen.findAllByRole('article');
    expect(sheets).toHaveLength(2);
    expect(api.requests.find((r) => r.path === 'reports/print-sheets')?.body).toEqual({ examIds: ['e1', 'e2'] });
    const drawn = within(sheets[0]!).getByTestId('print-sample-graph');
    const marks = within(drawn).getAllByTestId('print-sample-mark');
    expect(marks.map((m) => m.textContent)).toEqual(['1', '2']);
    // The second mark, near the right edge, puts its label left of its circle.
    expect(marks[1]!.querySelector('text')?.getAttribute('text-anchor')).toBe('end');
    expect(within(sheets[1]!).queryByTestId('print-sample-graph')).toBeNull();

    await userEvent.click(screen.getByTestId('print-button'));
    await waitFor(() =>
      expect(api.requests.filter((r) => r.path.endsWith('update-print-time')).map((r) => r.path)).toEqual([
        'reports/e1/update-print-time',
        'reports/e2/update-print-time',
      ]),
    );
    expect(print).toHaveBeenCalledTimes(1);
  });

  it('names the organization of each exam when they differ', async () => {
    signedIn('/studies/print-sheets?examIds=e1,e2,e3', {
      'POST reports/print-sheets': () =>
        errorAnswer(400, 'ValidationError', {
          field: 'examIds',
          problem: 'differentOrganizations',
          organizations: { e1: 'rad', e2: 'us', e3: 'rad' },
        }),
      'GET exams/e1/detail': () => ({ status: 200, body: exam('e1', '赵一', '放射科') }),
      'GET exams/e2/detail': () => ({ status: 200, body: exam('e2', '钱二', '超声科') }),
      'GET exams/e3/detail': () => ({ status: 200, body: exam('e3', '孙三', '放射科') }),
    });
    const refused = await screen.findByTestId('print-sheets-refused');
    expect(refused.textContent).toContain('These exams belong to different organizations');
    const groups = within(refused).getAllByTestId('print-sheets-group');
    await waitFor(() => expect(groups[0]!.textContent).toContain('放射科'));
    expect(groups[0]!.textContent).toContain('赵一');
    expect(groups[0]!.textContent).toContain('孙三');
    await waitFor(() => expect(groups[1]!.textContent).toContain('超声科'));
    expect(groups[1]!.textContent).toContain('钱二');
    expect(screen.queryByTestId('print-button')).toBeNull();
  });

  it('asks for exams when none are named', async () => {
    signedIn('/studies/print-sheets', {});
    expect((await screen.findByTestId('print-sheets-invalid')).textContent).toContain('No exams were chosen');
  });
});
