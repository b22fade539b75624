import { describe, expect, it } from 'vitest';
import { examAge, listMasked, presentExam, type ExamListRow } from './exams.presenter.js';

const created = new Date('2026-11-22T08:00:00Z');

describe('examAge', () => {
  it.each([
    ['19810615', '20260614', '044Y'],
    ['19810615', '20260615', '045Y'],
    ['20251122', '20261121', '011M'],
    ['20260922', '20261122', '002M'],
    ['20261101', '20261122', '003W'],
    ['20261118', '20261122', '004D'],
    ['20261122', '20261122', '000D'],
    ['20240229', '20250228', '011M'],
    ['18000101', '20261122', '226Y'],
  ])('born %s, study %s → %s', (dob, study, age) => {
    expect(examAge(dob, study, created)).toBe(age);
  });
  it('uses the arrival day without a study date', () => {
    expect(examAge('19861122', '', created)).toBe('040Y');
  });
  it('is null without a valid birth date or with a birth after the study', () => {
    expect(examAge('', '20261122', created)).toBeNull();
    expect(examAge('19860231', '20261122', created)).toBeNull();
    expect(examAge('1986', '20261122', created)).toBeNull();
    expect(examAge('20261123', '20261122', created)).toBeNull();
  });
});

describe('presentExam', () => {
  const row: ExamListRow = {
    id: 'e1',
    storeUid: '1.2.3',
    bucketId: 'b1',
    bucketName: '放射科',
    patientName: '王^小东',
    patientId: 'YYP12345678',
    patientGender: 'M',
    patientDob: '19810615',
    accessionNumber: 'A000000123',
    modality: 'CT\\SR',
    bodyPart: 'CHEST',
    studyDate: '20260615',
    studyTime: '101500',
    studyDesc: 'CT CHEST',
    created,
    hasImage: true,
    uploadStatus: 'completed',
    studyPrinted: true,
    seriesCount: 2,
    instanceCount: 40,
    deletedTime: null,
    groupId: 'g1',
    patientSource: 'I',
    applyDept: '呼吸科',
    orderPlacer: '李医生',
    urgentFlag: true,
    teleMedFlag: false,
    isPrivacy: false,
    criticalFlag: false,
    reportStatus: 'none',
    assigneeId: 'a1',
    assigneeName: 'Doctor',
    aiStatus: 'queued',
    tagsJson: '[{"id":"t1","name":"随访","color":"#ff0000"},{"id":"t2","name":"教学","color":null}]',
  };
  it('shows private fields to a caller with view_privacy', () => {
    expect(presentExam(row, false)).toMatchObject({
      patientName: '王^小东',
      patientId: 'YYP12345678',
      patientDob: '19810615',
      accessionNumber: 'A000000123',
      age: '045Y',
      masked: false,
      printed: true,
      created: '2026-11-22T08:00:00.000Z',
      deletedTime: null,
      recoverableUntil: null,
    });
  });
  it('masks them otherwise, keeping the age', () => {
    expect(presentExam(row, true)).toMatchObject({
      patientName: '王*东',
      patientId: 'YY*******78',
      patientDob: '',
      accessionNumber: 'A0******23',
      age: '045Y',
      masked: true,
    });
  });
  it('carries the flags, assignee, tags and row colour', () => {
    const item = presentExam(row, false, { foreColor: '#000000', backgroundColor: '#ffeeee' });
    expect(item).toMatchObject({
      patientSource: 'I',
      urgentFlag: true,
      reportStatus: 'none',
      assigneeName: 'Doctor',
      aiStatus: 'queued',
      rowColor: { foreColor: '#000000', backgroundColor: '#ffeeee' },
    });
    expect(item.tags).toEqual([
      { id: 't1', name: '随访', color: '#ff0000' },
      { id: 't2', name: '教学', color: null },
    ]);
    expect(presentExam({ ...row, tagsJson: null }, false).tags).toEqual([]);
  });
  it('masks by the group flag, view_privacy and the confidential mark (contracts privateFieldsMasked)', () => {
    const privacy = new Map([
      ['off', { groupPrivacy: false, viewPrivacy: false }],
      ['on', { groupPrivacy: true, viewPrivacy: false }],
      ['seer', { groupPrivacy: true, viewPrivacy: true }],
    ]);
    expect(listMasked({ bucketId: 'off', isPrivacy: false }, privacy)).toBe(false);
    expect(listMasked({ bucketId: 'off', isPrivacy: true }, privacy)).toBe(true);
    expect(listMasked({ bucketId: 'on', isPrivacy: false }, privacy)).toBe(true);
    expect(listMasked({ bucketId: 'seer', isPrivacy: true }, privacy)).toBe(false);
    // An organization without facts masks.
    expect(listMasked({ bucketId: 'unknown', isPrivacy: false }, privacy)).toBe(true);
  });
  it('says until when a deleted exam can be recovered', () => {
    const deleted = presentExam({ ...row, deletedTime: new Date('2026-11-01T00:00:00Z') }, false);
    expect(deleted.recoverableUntil).toBe('2026-12-01T00:00:00.000Z');
  });
});
