import { PATIENT_CLASS_KEYS, PATIENT_SOURCES } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import {
  classKeyChanges,
  extensionProblems,
  missingRequired,
  pickAssignee,
  privateFieldsIn,
  type AssignRuleLike,
} from './exams.manage.rules.js';

describe('classKeyChanges', () => {
  const all = { inpatientId: 'ZY1', outpatientId: 'MZ1', bedNum: '3', physicalExamId: 'TJ1' };
  const kept: Record<string, string[]> = {
    I: ['inpatientId', 'bedNum'],
    O: ['outpatientId'],
    NO: ['outpatientId'],
    P: ['physicalExamId'],
    E: [],
  };
  for (const source of PATIENT_SOURCES) {
    it(`keeps only ${kept[source]!.join(', ') || 'nothing'} for source ${source}`, () => {
      const out = classKeyChanges(source, all);
      for (const key of PATIENT_CLASS_KEYS) {
        expect(out[key]).toBe(kept[source]!.includes(key) ? all[key] : '');
      }
    });
  }
  it('keeps what is given when the source is unknown', () => {
    expect(classKeyChanges('', { bedNum: '7' })).toEqual({ bedNum: '7' });
  });
  it('leaves an identifier of the source alone when not given', () => {
    expect(classKeyChanges('I', { bedNum: '7' })).toEqual({ bedNum: '7', outpatientId: '', physicalExamId: '' });
  });
});

describe('privateFieldsIn', () => {
  it('names the private fields being changed', () => {
    expect(privateFieldsIn({ patientName: 'x', urgentFlag: true, patientPhone: '123456' }).sort()).toEqual([
      'patientName',
      'patientPhone',
    ]);
    expect(privateFieldsIn({ studyDesc: 'x', bedNum: '1' })).toEqual([]);
  });
});

describe('extension values', () => {
  const configs = [
    { id: 'n', name: 'n', data: { type: 'number' } },
    { id: 's', name: 's', data: { type: 'select', options: ['a', 'b'] } },
    { id: 'd', name: 'd', data: { type: 'date', required: true } },
    { id: 't', name: 't', data: { type: 'text' } },
  ];
  it('accepts values of the right type', () => {
    expect(extensionProblems(configs, { n: 3.5, s: 'a', d: '2026-11-24', t: 'hello' })).toEqual({});
  });
  it('names each wrong value', () => {
    expect(Object.keys(extensionProblems(configs, { n: 'x', s: 'c', d: '24/11/2026', t: 5, z: 'q' })).sort()).toEqual([
      'd',
      'n',
      's',
      't',
      'z',
    ]);
  });
  it('lets a value be cleared, and finds required ones left empty', () => {
    expect(extensionProblems(configs, { s: '' })).toEqual({});
    expect(missingRequired(configs, { n: 1 })).toEqual(['d']);
    expect(missingRequired(configs, { d: '' })).toEqual(['d']);
    expect(missingRequired(configs, { d: '2026-01-01' })).toEqual([]);
  });
});

describe('pickAssignee', () => {
  const rule = (r: Partial<AssignRuleLike>): AssignRuleLike => ({
    bucketIds: [],
    modality: null,
    doctorId: null,
    memberIds: [],
    ...r,
  });
  const reporters = new Set(['d1', 'd2', 'd3']);
  const none = new Map<string, number>();
  const ct = { bucketId: 'b1', modality: 'CT\\SR' };

  it('takes the doctor of the first matching rule', () => {
    expect(
      pickAssignee([rule({ modality: 'MR', doctorId: 'd1' }), rule({ doctorId: 'd2' })], ct, reporters, none),
    ).toBe('d2');
    expect(pickAssignee([rule({ modality: 'ct', doctorId: 'd1' })], ct, reporters, none)).toBe('d1');
  });
  it('matches organizations (none = all)', () => {
    expect(pickAssignee([rule({ bucketIds: ['b2'], doctorId: 'd1' })], ct, reporters, none)).toBeNull();
    expect(pickAssignee([rule({ bucketIds: ['b2', 'b1'], doctorId: 'd1' })], ct, reporters, none)).toBe('d1');
  });
  it('skips a doctor who may not report there, falling to members then to the next rule', () => {
    expect(pickAssignee([rule({ doctorId: 'x', memberIds: ['d3'] })], ct, reporters, none)).toBe('d3');
    expect(pickAssignee([rule({ doctorId: 'x' }), rule({ doctorId: 'd2' })], ct, reporters, none)).toBe('d2');
    expect(pickAssignee([rule({ doctorId: 'x', memberIds: ['y'] })], ct, reporters, none)).toBeNull();
  });
  it('gives members the exam by least open work, ties in listed order', () => {
    const members = rule({ memberIds: ['d1', 'd2', 'd3'] });
    expect(pickAssignee([members], ct, reporters, none)).toBe('d1');
    expect(
      pickAssignee(
        [members],
        ct,
        reporters,
        new Map([
          ['d1', 4],
          ['d2', 1],
          ['d3', 1],
        ]),
      ),
    ).toBe('d2');
    expect(
      pickAssignee(
        [members],
        ct,
        reporters,
        new Map([
          ['d1', 2],
          ['d2', 3],
        ]),
      ),
    ).toBe('d3');
  });
  it('assigns nobody without rules or without a modality match', () => {
    expect(pickAssignee([], ct, reporters, none)).toBeNull();
    expect(pickAssignee([rule({ modality: 'US', doctorId: 'd1' })], ct, reporters, none)).toBeNull();
    expect(
      pickAssignee([rule({ modality: 'CT', doctorId: 'd1' })], { bucketId: 'b1', modality: '' }, reporters, none),
    ).toBeNull();
  });
});
