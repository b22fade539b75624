import { defaultDomainConfig, type ExamItem } from '@yyp/contracts';
import { sessionStore } from '../api/sessionStore';
import { demoUser, installFakeApi, tokenFor, type FakeHandler } from './fakeApi';
import { renderApp } from './renderApp';
import { groupOf } from './tenancyFixtures';

/** One row of the study list: a CT of Zhang Wei in organization b1 ('Radiology'), no report yet. */
export function examItemOf(overrides: Partial<ExamItem> = {}): ExamItem {
  return {
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
    ...overrides,
  };
}

export interface StudiesCaller {
  username: string;
  name: string;
  /** the caller's level in the exam's organization b1 */
  level: string;
  /** the actions it holds there (exam_upload also makes b1 uploadable) */
  actions: string[];
}

/** /studies listing `exam` for `caller`, signed in; `extra` adds or replaces fake API answers. */
export function openStudiesAs(
  caller: StudiesCaller,
  exam: ExamItem,
  extra: Record<string, FakeHandler> = {},
  /** the URL opened: /studies, or /studies with search params */
  path = '/studies',
) {
  const api = installFakeApi({
    'GET domain': () => ({ status: 200, body: defaultDomainConfig }),
    'GET accounts/me': () => ({ status: 200, body: demoUser({ username: caller.username, name: caller.name }) }),
    'GET groups/mine': () => ({ status: 200, body: [groupOf({ accessLevel: 0 })] }),
    'GET accounts/me/permissions': () => ({
      status: 200,
      body: [{ bucketId: 'b1', groupId: 'g1', type: 1, accessLevel: caller.level, actions: caller.actions }],
    }),
    'GET buckets/uploadable': () => ({
      status: 200,
      body: caller.actions.includes('exam_upload')
        ? [{ id: 'b1', name: 'Radiology', groupId: 'g1', blocked: null }]
        : [],
    }),
    'GET custom-search/my': () => ({ status: 200, body: [] }),
    'POST exams/page-query': () => ({ status: 200, body: { exams: [exam], count: 1 } }),
    'POST exams/newly': () => ({ status: 200, body: { exams: [], count: 0 } }),
    ...extra,
  });
  sessionStore.signIn(caller.username, tokenFor(caller.username));
  return { api, ...renderApp(path) };
}
