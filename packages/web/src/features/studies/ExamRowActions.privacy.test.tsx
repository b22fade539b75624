// @vitest-environment jsdom
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { defaultDomainConfig, type ExamItem } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../api/sessionStore';
import { demoUser, installFakeApi, tokenFor } from '../../test/fakeApi';
import { renderApp } from '../../test/renderApp';
import { groupOf } from '../../test/tenancyFixtures';

const plain: ExamItem = {
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

/** /studies listing `exam` for a caller holding exam_get and study_package in its organization. */
function openStudies(exam: ExamItem) {
  const api = installFakeApi({
    'GET domain': () => ({ status: 200, body: defaultDomainConfig }),
    'GET accounts/me': () => ({ status: 200, body: demoUser({ username: 'teledoctor', name: 'Chen' }) }),
    'GET groups/mine': () => ({ status: 200, body: [groupOf({ accessLevel: 0 })] }),
    'GET accounts/me/permissions': () => ({
      status: 200,
      body: [{ bucketId: 'b1', groupId: 'g1', type: 1, accessLevel: 'member', actions: ['exam_get', 'study_package'] }],
    }),
    'GET buckets/uploadable': () => ({ status: 200, body: [] }),
    'GET custom-search/my': () => ({ status: 200, body: [] }),
    'POST exams/page-query': () => ({ status: 200, body: { exams: [exam], count: 1 } }),
    'POST exams/newly': () => ({ status: 200, body: { exams: [], count: 0 } }),
  });
  sessionStore.signIn('teledoctor', tokenFor('teledoctor'));
  return { api, ...renderApp('/studies') };
}

// Issue 20 item 1: a stored file carries the private fields unmasked (the server answers 403).
describe('the study package download and the privacy rule', { timeout: 40_000 }, () => {
  it('is offered on a row shown unmasked', async () => {
    openStudies(plain);
    await userEvent.setup().click(await screen.findByTestId('more-e1', {}, { timeout: 25_000 }));
    expect(await screen.findByText('Download')).toBeTruthy();
  });

  it('is not offered on a row shown masked, the only action of that menu: no menu', async () => {
    const { api } = openStudies({ ...plain, masked: true, patientName: 'Z*', patientId: 'P*' });
    expect(await screen.findByTestId('report-e1', {}, { timeout: 25_000 })).toBeTruthy();
    await waitFor(() => expect(api.requests.some((r) => r.path === 'accounts/me/permissions')).toBe(true));
    expect(screen.queryByTestId('more-e1')).toBeNull();
  });
});
