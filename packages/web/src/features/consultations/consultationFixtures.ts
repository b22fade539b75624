import {
  callKey,
  consultationCalls,
  defaultDomainConfig,
  type ConsultationDetail,
  type ConsultationListItem,
} from '@yyp/contracts';
import { sessionStore } from '../../api/sessionStore';
import { demoUser, installFakeApi, tokenFor, type FakeHandler } from '../../test/fakeApi';
import { renderApp } from '../../test/renderApp';
import { groupOf } from '../../test/tenancyFixtures';

/** Test support of the consultation screens: a list row, a detail and a signed-in app with consultations on. */

export function listItemOf(overrides: Partial<ConsultationListItem> = {}): ConsultationListItem {
  return {
    id: 'c1',
    title: 'Chest CT review',
    status: 0,
    patientName: 'Zhang^Wei',
    created: '2026-11-27T08:00:00.000Z',
    scheduledAt: '2026-11-28T02:00:00.000Z',
    reason: 'Nodule in the right upper lobe',
    sourceBucketId: 'b1',
    appliedBucketName: 'Radiology',
    targetBucketId: 'x1',
    joinedBuckets: [{ bucketId: 'x1', bucketName: 'Expert Center', experts: ['Dr. Wang'] }],
    creatorName: 'Dr. Li',
    rating: null,
    paymentStatus: null,
    ...overrides,
  };
}

export function detailOf(overrides: Partial<ConsultationDetail> = {}): ConsultationDetail {
  return {
    ...listItemOf(),
    version: 3,
    groupId: 'g1',
    patient: { name: 'Zhang^Wei', age: '45Y', gender: 'M', tel: '', email: '', contactHospital: '' },
    note: '',
    clinicImpression: '',
    cancelReason: '',
    creatorId: 'u-doctor',
    updated: '2026-11-27T08:00:00.000Z',
    suggestion: '',
    treatmentPlan: '',
    result: '',
    resultByName: '',
    resultAt: null,
    ratingDetail: null,
    visit: { hospital: '', time: null, department: '', reason: '' },
    members: [],
    exams: [],
    cases: [],
    resultAttachments: [],
    links: [],
    originExamId: null,
    originReportId: null,
    fee: null,
    can: ['view', 'print'],
    roles: ['requester'],
    ...overrides,
  };
}

/** Signed in as the demo doctor of a group with consultations on, at `path`. */
export function openConsultations(path: string, handlers: Record<string, FakeHandler> = {}) {
  const api = installFakeApi({
    'GET domain': () => ({ status: 200, body: defaultDomainConfig }),
    'GET accounts/me': () => ({ status: 200, body: demoUser() }),
    'GET groups/mine': () => ({
      status: 200,
      body: [groupOf({ accessLevel: 0, settings: { enableConsultation: true } })],
    }),
    'GET accounts/me/permissions': () => ({
      status: 200,
      body: [{ bucketId: 'b1', groupId: 'g1', type: 1, accessLevel: 'member', actions: ['consultation_create'] }],
    }),
    [callKey(consultationCalls.query)]: () => ({ status: 200, body: { data: [] } }),
    [callKey(consultationCalls.buckets)]: () => ({
      status: 200,
      body: {
        sources: [{ bucketId: 'b1', name: 'Radiology', groupId: 'g1' }],
        targets: [
          {
            bucketId: 'x1',
            name: 'Expert Center',
            groupId: 'g2',
            isDefault: true,
            experts: [
              { accountId: 'e1', name: 'Dr. Wang' },
              { accountId: 'e2', name: 'Dr. Zhou' },
            ],
            price: { productName: 'MDT consultation', priceFen: 30_000, currency: 'CNY' },
          },
        ],
      },
    }),
    [callKey(consultationCalls.traces)]: () => ({ status: 200, body: { data: [] } }),
    ...handlers,
  });
  sessionStore.signIn('doctor', tokenFor('doctor'));
  return { api, ...renderApp(path) };
}
