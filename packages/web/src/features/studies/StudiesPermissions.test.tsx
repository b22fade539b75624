// @vitest-environment jsdom
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { defaultDomainConfig, type ExamItem } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../api/sessionStore';
import { demoUser, errorAnswer, installFakeApi, tokenFor, type FakeHandler } from '../../test/fakeApi';
import { buttonByText } from '../../test/queries';
import { renderApp } from '../../test/renderApp';
import { groupOf } from '../../test/tenancyFixtures';

const exam: ExamItem = {
  id: 'e1',
  storeUid: 's1',
  bucketId: 'b1',
  bucketName: 'Radiology',
  patientName: 'Zhang^Wei',
  patientId: 'P001',
  patientGender: 'M',
  patientDob: '19800101',
  age: '045Y',
  accessionNumber: 'A001',
  modality: 'CT',
  bodyPart: 'CHEST',
  studyDate: '20260101',
  studyTime: '101010',
  studyDesc: 'Chest CT',
  created: '2026-01-01T10:10:10.000Z',
  hasImage: true,
  uploadStatus: 'completed',
  printed: false,
  seriesCount: 1,
  instanceCount: 10,
  patientSource: '',
  applyDept: '',
  orderPlacer: '',
  urgentFlag: false,
  teleMedFlag: false,
  isPrivacy: false,
  critical: false,
  reportStatus: 'none',
  assigneeId: null,
  assigneeName: null,
  aiStatus: '',
  tags: [],
  rowColor: null,
  reportColor: null,
  masked: false,
  deletedTime: null,
  recoverableUntil: null,
};

/** /studies for a caller holding `actions` in the exam's organization at `level`. */
function openStudies(level: string, actions: string[], extra: Record<string, FakeHandler> = {}) {
  const api = installFakeApi({
    'GET domain': () => ({ status: 200, body: defaultDomainConfig }),
    'GET accounts/me': () => ({ status: 200, body: demoUser({ username: 'notetaker', name: 'Qian' }) }),
    'GET groups/mine': () => ({ status: 200, body: [groupOf({ accessLevel: 0 })] }),
    'GET accounts/me/permissions': () => ({
      status: 200,
      body: [{ bucketId: 'b1', groupId: 'g1', type: 1, accessLevel: level, actions }],
    }),
    'GET buckets/uploadable': () => ({
      status: 200,
      body: actions.includes('exam_upload') ? [{ id: 'b1', name: 'Radiology', groupId: 'g1' }] : [],
    }),
    'GET custom-search/my': () => ({ status: 200, body: [] }),
    'POST exams/page-query': () => ({ status: 200, body: { exams: [exam], count: 1 } }),
    'POST exams/newly': () => ({ status: 200, body: { exams: [], count: 0 } }),
    ...extra,
  });
  sessionStore.signIn('notetaker', tokenFor('notetaker'));
  return { api, ...renderApp('/studies') };
}

const REPORT_ONLY = ['report_co_exam', 'report_print', 'report_trace', 'report_upsert'];

// The whole signed-in shell renders in jsdom: on a machine shared by many test runs that takes a while.
describe('/studies shows only the buttons the caller holds', { timeout: 40_000 }, () => {
  it('gives a note-taker (collaborator, report rights only) the report and nothing that deletes, exports or uploads', async () => {
    const { api } = openStudies('collaborator', REPORT_ONLY);
    // The first render loads the route chunks: allow it longer than a finding on a warm page.
    expect(await screen.findByTestId('report-e1', {}, { timeout: 25_000 })).toBeTruthy();
    await waitFor(() => expect(api.requests.some((r) => r.path === 'accounts/me/permissions')).toBe(true));
    await waitFor(() => expect(api.requests.some((r) => r.path === 'buckets/uploadable')).toBe(true));
    expect(screen.queryByText('Export', { selector: 'button span' })).toBeNull();
    expect(screen.queryByText('Deleted exams', { selector: 'button span' })).toBeNull();
    expect(screen.queryByText('Upload exams', { selector: 'button span' })).toBeNull();
    // No download, print mark or delete in the row: no menu at all.
    expect(screen.queryByTestId('more-e1')).toBeNull();
    // It prints reports, so the print bar is there.
    expect(screen.getByTestId('print-reports-bar')).toBeTruthy();
  });

  it('shows a doctor without export_exams and exam_delete no Export and no deleted view', async () => {
    openStudies('member', ['exam_get', 'exam_update', 'report_upsert']);
    expect(await screen.findByTestId('more-e1', {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.queryByText('Export', { selector: 'button span' })).toBeNull();
    expect(screen.queryByText('Deleted exams', { selector: 'button span' })).toBeNull();
    // Without report_print anywhere there is no printing from the list either.
    expect(screen.queryByTestId('print-reports-bar')).toBeNull();
  });

  it('says a refused export in words, never nothing', async () => {
    openStudies('member', ['exam_get', 'export_exams', 'exam_delete'], {
      'POST exports/exams': () => errorAnswer(403, 'InsufficientPermissions', { action: 'export_exams' }),
    });
    await screen.findByText('Export', { selector: 'button span' }, { timeout: 10_000 });
    expect(buttonByText('Deleted exams')).toBeTruthy();
    await userEvent.setup().click(buttonByText('Export'));
    expect(await screen.findByText('You do not have permission to do this.')).toBeTruthy();
  });
});
