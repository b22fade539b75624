import type { RegistryBucket, RegistryItem } from '@yyp/contracts';

/** Test data of the front desk (/registry): an organization where the caller works at the desk, and list rows. */

export function bucketOf(actions: string[]): RegistryBucket {
  return { id: 'b1', name: 'Radiology', groupId: 'g1', groupName: 'City Hospital', actions };
}

let seq = 0;
export function itemOf(overrides: Partial<RegistryItem> = {}): RegistryItem {
  seq += 1;
  const now = '2026-11-26T08:00:00.000Z';
  return {
    id: `s${seq}`,
    registrationId: `r${seq}`,
    bucketId: 'b1',
    status: 'Scheduled',
    procedureId: null,
    procedureName: 'CT Chest',
    procedureCode: 'CT01',
    modality: 'CT',
    bodyPart: 'Chest',
    studyDesc: '',
    bodyPartCount: null,
    deviceId: null,
    deviceName: 'CT-1',
    stationAeTitle: 'CT1',
    scheduledDate: '2026-11-27',
    scheduledTime: '09:30',
    accessionNumber: `A${1000 + seq}`,
    studyInstanceUid: '',
    imagingOptional: false,
    examId: null,
    arrivedAt: null,
    arriverName: '',
    startedAt: null,
    performedAt: null,
    cancelledAt: null,
    cancelReason: '',
    discontinuedReason: '',
    created: now,
    updated: now,
    passCode: `P${seq}`,
    source: 'internal',
    patient: {
      id: `p${seq}`,
      groupId: 'g1',
      patientId: `PID${seq}`,
      name: `Patient ${seq}`,
      gender: 'F',
      birthDate: '19800101',
      phone: '',
      idCard: '',
      address: '',
      animal: null,
      created: now,
    },
    patientSource: 'O',
    applyDept: '',
    orderPlacer: '',
    urgent: false,
    registrarName: 'Zhao',
    ...overrides,
  };
}
