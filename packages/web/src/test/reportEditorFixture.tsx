import {
  EMPTY_REPORT_CONTENT,
  defaultDomainConfig,
  type ExamDetail,
  type Report,
  type ReportTraceItem,
} from '@yyp/contracts';
import { sessionStore } from '../api/sessionStore';
import { demoUser, installFakeApi, tokenFor, type FakeHandler } from './fakeApi';
import { renderApp } from './renderApp';
import { examItemOf } from './studiesFixture';

/** Test data for the report editor and the exam screens, shaped like the server's answers. */

export const ME = { id: 'u-doctor', name: 'Dr. Li' };

/** The editing lock as its holder (ME) sees it. */
export const mineLock = { lockedBy: ME, since: '2026-01-01T00:00:00Z', expires: '2026-01-01T00:05:00Z', mine: true };

/** Report e1 of exam e1 in organization b1: partial, version 3, written by ME, not locked. */
export function reportOf(overrides: Partial<Report> = {}): Report {
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

/** Exam e1 of organization b1 (a CT of the chest); the overrides add or replace fields. */
export function examDetailOf(overrides: Record<string, unknown> = {}): ExamDetail {
  return {
    ...examItemOf({
      bucketName: 'Demo Hospital',
      patientName: 'Zhang San',
      patientId: 'P1',
      patientDob: '',
      accessionNumber: 'A1',
      studyTime: '101500',
      studyDesc: '',
      created: '2026-01-01T02:15:00Z',
      hasImage: false,
      seriesCount: 0,
      instanceCount: 0,
    }),
    // the detail's own fields (exams.presenter), empty, off or none
    patientPhone: '',
    inpatientId: '',
    outpatientId: '',
    bedNum: '',
    physicalExamId: '',
    clinicImpression: '',
    scanTech: '',
    physician: '',
    bodyPartCount: null,
    weight: null,
    height: null,
    institution: '',
    referringPhysician: '',
    source: '',
    extensions: {},
    attachmentCount: 0,
    coExamIds: [],
    aiResult: null,
    series: [],
    actions: [],
    ...overrides,
  } as unknown as ExamDetail;
}

/** The exam the report editor shows beside report e1: urgent, with a clinical impression. */
export function editorExam(): ExamDetail {
  return examDetailOf({
    hasImage: false,
    urgentFlag: true,
    clinicImpression: 'Cough for two weeks',
    coExamIds: [],
    extensions: {},
  });
}

/** A writing and approving doctor of b1: the action bar shows the transitions these allow. */
export const writerPermissions: Record<string, FakeHandler> = {
  'GET accounts/me/permissions': () => ({
    status: 200,
    body: [
      {
        bucketId: 'b1',
        groupId: 'g1',
        type: 1,
        accessLevel: 'member',
        actions: ['exam_get', 'report_upsert', 'report_advice', 'report_approval', 'report_print'],
      },
    ],
  }),
};

/**
 * Opens /studies/e1/reports/e1 signed in as 'doctor' (no permissions unless `extra` answers
 * 'GET accounts/me/permissions'), the server answering `detail` for the report and `extra` on top.
 */
export function openEditor(detail: Report, extra: Record<string, FakeHandler> = {}) {
  const api = installFakeApi({
    'GET domain': () => ({ status: 200, body: defaultDomainConfig }),
    'GET accounts/me': () => ({ status: 200, body: demoUser() }),
    'GET accounts/me/permissions': () => ({ status: 200, body: [] }),
    'GET reports/e1/detail': () => ({ status: 200, body: detail }),
    'POST reports/e1/lock': () => ({ status: 200, body: { ...detail, status: detail.status, lock: mineLock } }),
    'POST reports/e1/unlock': () => ({ status: 200, body: { ...detail, lock: null } }),
    'GET exams/e1/detail': () => ({ status: 200, body: editorExam() }),
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

/** One step of a report's trail, by Dr. Li at version 1; the overrides replace fields. */
export function traceStepOf(
  id: string,
  action: ReportTraceItem['action'],
  overrides: Partial<ReportTraceItem> = {},
): ReportTraceItem {
  return {
    id,
    action,
    actor: { id: 'u1', name: 'Dr. Li' },
    at: '2026-01-01T00:00:00Z',
    statusFrom: 'partial',
    statusTo: 'partial',
    version: 1,
    reason: '',
    changed: true,
    ...overrides,
  };
}
