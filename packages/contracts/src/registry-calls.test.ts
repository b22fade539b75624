import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { callKey, type Call } from './call.js';
import { examCalls } from './exam-calls.js';
import { organizationCalls } from './organization-calls.js';
import { patientCalls, procedureCalls, registryCalls, scheduledExamCalls } from './registry-calls.js';
import { uploadCalls, archiveCalls } from './upload-calls.js';
import {
  hospitalDate,
  registrationCreateSchema,
  registryQuerySchema,
  scheduledExamInputSchema,
  scheduledIdsSchema,
} from './registry.js';

const flat = (set: Record<string, unknown>): Call[] =>
  Object.values(set).flatMap((v) => ('method' in (v as object) ? [v as Call] : flat(v as Record<string, unknown>)));
const calls = [registryCalls, scheduledExamCalls, patientCalls, procedureCalls].flatMap(flat);
const paramNames = (call: Call) => [...call.path.matchAll(/:([A-Za-z0-9]+)/g)].map((m) => m[1]!);

describe('the registry calls', () => {
  it('name every call once, also beside the exam, organization and upload calls', () => {
    const keys = [...calls, ...[examCalls, organizationCalls, uploadCalls, archiveCalls].flatMap(flat)].map(callKey);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it.each(calls.map((c) => [callKey(c), c] as const))('%s: params schema has exactly its path names', (_k, call) => {
    const shape = call.params instanceof z.ZodObject ? Object.keys(call.params.shape) : [];
    expect(shape.sort()).toEqual(paramNames(call).sort());
  });

  it('leave the answer out only for a 204, and create with a 201', () => {
    expect(calls.filter((c) => c.answer === undefined).every((c) => c.status === 204)).toBe(true);
    expect(calls.filter((c) => c.status === 201).map(callKey)).toEqual([
      'POST registry',
      'POST buckets/:bucketId/device-groups',
      'POST buckets/:bucketId/devices',
      'POST buckets/:bucketId/procedures',
      'POST buckets/:bucketId/modality-dictionary',
    ]);
  });
});

describe('the registry rules of spec 000 §5 and §9', () => {
  const exam = { modality: 'CT', scheduledDate: '2026-11-27' };
  const registration = (exams: unknown[]) => ({
    bucketId: 'b',
    patient: { name: '王^小东', gender: 'M' },
    exams,
  });

  it('takes one to five scheduled exams per registration', () => {
    expect(registrationCreateSchema.safeParse(registration([])).success).toBe(false);
    for (const n of [1, 5]) {
      expect(registrationCreateSchema.safeParse(registration(Array(n).fill(exam))).success).toBe(true);
    }
    expect(registrationCreateSchema.safeParse(registration(Array(6).fill(exam))).success).toBe(false);
  });

  it('needs a modality or a procedure, and a real scheduled date', () => {
    expect(scheduledExamInputSchema.safeParse({ scheduledDate: '2026-11-27' }).success).toBe(false);
    expect(scheduledExamInputSchema.safeParse({ procedureId: 'p', scheduledDate: '2026-11-27' }).success).toBe(true);
    for (const scheduledDate of ['', '2026-02-30', '20261127', '2026-11-27T08:00']) {
      expect(scheduledExamInputSchema.safeParse({ modality: 'CT', scheduledDate }).success).toBe(false);
    }
    expect(
      scheduledExamInputSchema.safeParse({ modality: 'CT', scheduledDate: '2026-11-27', scheduledTime: '24:00' })
        .success,
    ).toBe(false);
  });

  it('defaults the registry list to page size 10, created descending, internal source', () => {
    expect(registryQuerySchema.parse({})).toMatchObject({
      limit: 10,
      skip: 0,
      source: 'internal',
      sort: { field: 'created', direction: 'desc' },
    });
  });

  it('confirms at most 15 at once', () => {
    const ids = (n: number) => ({ ids: Array.from({ length: n }, (_, i) => `s${i}`) });
    expect(scheduledIdsSchema.safeParse(ids(15)).success).toBe(true);
    expect(scheduledIdsSchema.safeParse(ids(16)).success).toBe(false);
  });

  it("counts today on the hospital's clock (UTC+8)", () => {
    expect(hospitalDate(new Date('2026-11-26T15:59:59Z'))).toBe('2026-11-26');
    expect(hospitalDate(new Date('2026-11-26T16:00:00Z'))).toBe('2026-11-27');
    expect(hospitalDate(new Date('2026-11-26T16:00:00Z'), 3)).toBe('2026-11-30');
  });
});
