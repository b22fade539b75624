// @vitest-environment jsdom
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  EMPTY_REPORT_CONTENT,
  REPORT_HEARTBEAT_MS,
  defaultDomainConfig,
  type ExamDetail,
  type Report,
} from '@yyp/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../api/sessionStore';
import { demoUser, installFakeApi, tokenFor, type FakeHandler } from '../../test/fakeApi';
import { renderApp } from '../../test/renderApp';
import { formatClock } from './ReportActionBar';

const ME = { id: 'u-doctor', name: 'Dr. Li' };

function report(overrides: Partial<Report> = {}): Report {
  return {
    id: 'e1',
    examId: 'e1',
    bucketId: 'b1',
    status: 'partial',
    transitions: ['save', 'submit', 'advise'],
    creator: ME,
    lastUpdater: ME,
    issuer: null,
    rejectReason: '',
    recallReason: '',
    version: 3,
    content: { ...EMPTY_REPORT_CONTENT, findings: 'Lungs clear.' },
    lock: null,
    adviceExperts: [],
    approver: null,
    noteTaker: null,
    savedAt: null,
    submittedAt: null,
    approvedAt: null,
    printApprovedAt: null,
    examIds: ['e1'],
    autoCheckCombineReport: false,
    combinable: [],
    canTrace: true,
    canForceUnlock: false,
    ...overrides,
  };
}

const mineLock = { lockedBy: ME, since: '2026-01-01T00:00:00Z', expires: '2026-01-01T00:05:00Z', mine: true };

function exam(): ExamDetail {
  return {
    id: 'e1',
    bucketId: 'b1',
    bucketName: 'Demo Hospital',
    patientName: 'Zhang San',
    patientId: 'P1',
    patientGender: 'M',
    patientDob: '',
    age: '045Y',
    accessionNumber: 'A1',
    modality: 'CT',
    bodyPart: 'CHEST',
    studyDate: '20260101',
    studyTime: '101500',
    studyDesc: '',
    created: '2026-01-01T02:15:00Z',
    hasImage: false,
    urgentFlag: true,
    clinicImpression: 'Cough for two weeks',
    coExamIds: [],
    series: [],
    actions: [],
    extensions: {},
  } as unknown as ExamDetail;
}

function openEditor(detail: Report, extra: Record<string, FakeHandler> = {}) {
  const api = installFakeApi({
    'GET domain': () => ({ status: 200, body: defaultDomainConfig }),
    'GET accounts/me': () => ({ status: 200, body: demoUser() }),
    'GET accounts/me/permissions': () => ({ status: 200, body: [] }),
    'GET reports/e1/detail': () => ({ status: 200, body: detail }),
    'POST reports/e1/lock': () => ({ status: 200, body: { ...detail, status: detail.status, lock: mineLock } }),
    'POST reports/e1/unlock': () => ({ status: 200, body: { ...detail, lock: null } }),
    'GET exams/e1/detail': () => ({ status: 200, body: exam() }),
    'GET reports/e1/worklist': () => ({ status: 200, body: { items: [] } }),
    'GET reports/e1/images': () => ({ status: 200, body: { images: [], limit: 6 } }),
    'GET reports/e1/report-trace': () => ({ status: 200, body: { traces: [] } }),
    'GET report-templates': () => ({ status: 200, body: [] }),
    'GET kb-items/query': () => ({ status: 200, body: { personal: [], group: [] } }),
    'GET image-desc-templates/find-by-org': () => ({ status: 200, body: [] }),
    ...extra,
  });
  sessionStore.signIn('doctor', tokenFor('doctor'));
  const view = renderApp('/studies/e1/reports/e1');
  return { api, ...view };
}

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
