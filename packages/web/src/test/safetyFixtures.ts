import type { CriticalValue, CriticalValuePageItem } from '@yyp/contracts';

/** Test data for the critical-value screens, shaped like the server's answers. */

/** A critical value sent to the emergency department and not yet received. */
export function criticalValueOf(overrides: Partial<CriticalValue> = {}): CriticalValue {
  return {
    id: 'cv1',
    reportId: 'e1',
    bucketId: 'b1',
    itemId: null,
    text: 'Tension pneumothorax',
    level: '',
    status: 'sent',
    notifyDept: 'Emergency',
    reporter: { id: 'u1', name: 'Dr. Li' },
    sentAt: '2026-11-22T08:00:00.000Z',
    receiver: '',
    receivedAt: null,
    confirmor: '',
    readbackOpinion: '',
    handler: null,
    handledAt: null,
    handleNote: '',
    ...overrides,
  };
}

/** The same critical value as a row of the critical-values page, with its organization and exam. */
export function criticalValuePageItemOf(overrides: Partial<CriticalValuePageItem> = {}): CriticalValuePageItem {
  return {
    ...criticalValueOf({ level: 'high', reporter: { id: 'u1', name: 'Dr. Wang' } }),
    bucketName: 'Radiology',
    patientName: 'Z*o',
    patientGender: 'M',
    modality: 'CT',
    bodyPart: 'CHEST',
    studyDate: '20261122',
    canFollow: true,
    ...overrides,
  };
}
