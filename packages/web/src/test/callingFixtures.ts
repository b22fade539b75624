import {
  queueActionsFor,
  type CallingBucket,
  type QueueExam,
  type QueueType,
  type ScreenPatient,
  type ScreenQueue,
} from '@yyp/contracts';

/** Test data of patient calling (/calling, the screen, the call queue settings). */

export function callingBucketOf(actions: string[] = ['calling_call']): CallingBucket {
  return { id: 'b1', name: 'Radiology', groupId: 'g1', groupName: 'City Hospital', actions };
}

export function queueTypeOf(over: Partial<QueueType> = {}): QueueType {
  return {
    id: 't1',
    bucketId: 'b1',
    displayName: 'CT',
    modality: 'CT',
    roomName: 'CT 1',
    urgentFirst: true,
    created: '2026-11-27T00:00:00.000Z',
    ...over,
  };
}

export function queueExamOf(over: Partial<QueueExam> = {}): QueueExam {
  const status = over.status ?? 'waiting';
  return {
    id: 'q1',
    bucketId: 'b1',
    queueTypeId: 't1',
    queueTypeName: 'CT',
    scheduledExamId: 's1',
    queueNo: 1,
    checkInDate: '2026-11-27',
    checkedInAt: '2026-11-27T01:00:00.000Z',
    status,
    urgent: false,
    patientName: '王*东',
    masked: true,
    patientGender: 'M',
    modality: 'CT',
    examName: 'CT Chest',
    accessionNumber: 'A1',
    room: '',
    calledAt: null,
    calledCount: 0,
    callerName: '',
    finishedAt: null,
    movedToId: null,
    actions: queueActionsFor(status),
    ...over,
  };
}

export function screenPatientOf(over: Partial<ScreenPatient> = {}): ScreenPatient {
  return {
    queueExamId: 'q1',
    queueTypeId: 't1',
    queueNo: 1,
    name: '王*东',
    room: 'CT 1',
    status: 'called',
    calledAt: '2026-11-27T01:00:00.000Z',
    ...over,
  };
}

export function screenQueueOf(over: Partial<ScreenQueue> = {}): ScreenQueue {
  return {
    bucketId: 'b1',
    bucketName: 'City Radiology',
    checkInDate: '2026-11-27',
    queues: [{ queueTypeId: 't1', displayName: 'CT', roomName: 'CT 1', next: [], waitingCount: 0 }],
    calls: [],
    missed: [],
    announcements: {},
    ...over,
  };
}
