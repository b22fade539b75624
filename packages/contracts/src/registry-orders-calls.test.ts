import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { callKey, type Call } from './call.js';
import { organizationCalls } from './organization-calls.js';
import { procedureCalls, registryCalls, scheduledExamCalls } from './registry-calls.js';
import { bucketExtensionCalls, registryOrderCalls, scheduledExamExtensionCalls } from './registry-orders-calls.js';
import {
  bucketExtensionInputSchema,
  MAX_EXPORT_SCHEDULES,
  scheduleExportSchema,
  serviceOrderSchema,
  upsertExtensionSchema,
} from './registry-orders.js';

const flat = (set: Record<string, unknown>): Call[] =>
  Object.values(set).flatMap((v) => ('method' in (v as object) ? [v as Call] : flat(v as Record<string, unknown>)));
const calls = [registryOrderCalls, scheduledExamExtensionCalls, bucketExtensionCalls].flatMap(flat);
const paramNames = (call: Call) => [...call.path.matchAll(/:([A-Za-z0-9]+)/g)].map((m) => m[1]!);

describe('the desk orders and extension calls', () => {
  it('name every call once, also beside the registry, procedure and organization calls', () => {
    const keys = [
      ...calls,
      ...[registryCalls, scheduledExamCalls, procedureCalls, organizationCalls].flatMap(flat),
    ].map(callKey);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it.each(calls.map((c) => [callKey(c), c] as const))('%s: params schema has exactly its path names', (_k, call) => {
    const shape = call.params instanceof z.ZodObject ? Object.keys(call.params.shape) : [];
    expect(shape.sort()).toEqual(paramNames(call).sort());
  });

  it('answer a file only for the export', () => {
    expect(calls.filter((c) => c.answer === undefined).map(callKey)).toEqual(['POST exports/schedules']);
  });
});

describe('their bodies', () => {
  it('export the registry query without paging, at most as many as the exam export', () => {
    expect(MAX_EXPORT_SCHEDULES).toBe(3000);
    expect(scheduleExportSchema.parse({ bucketId: 'b' })).toMatchObject({ source: 'internal', statuses: [] });
    expect(scheduleExportSchema.safeParse({ bucketId: 'b', skip: 0 }).success).toBe(false);
    expect(scheduleExportSchema.safeParse({ bucketId: 'b', language: 'fr' }).success).toBe(false);
  });

  it('take an order with an order id and one to five exams, no appointment', () => {
    const order = {
      bucketId: 'b',
      orderId: 'HIS-1',
      patient: { name: '王^小东', gender: 'M' },
      exams: [{ modality: 'CT' }],
    };
    expect(serviceOrderSchema.safeParse(order).success).toBe(true);
    expect(serviceOrderSchema.safeParse({ ...order, orderId: ' ' }).success).toBe(false);
    expect(serviceOrderSchema.safeParse({ ...order, exams: [] }).success).toBe(false);
    expect(serviceOrderSchema.safeParse({ ...order, exams: Array(6).fill({ modality: 'CT' }) }).success).toBe(false);
    expect(serviceOrderSchema.safeParse({ ...order, exams: [{ bodyPart: '头部' }] }).success).toBe(false);
    expect(
      serviceOrderSchema.safeParse({ ...order, exams: [{ modality: 'CT', scheduledDate: '2026-12-01' }] }).success,
    ).toBe(false);
  });

  it('give select fields their options and the others none; values of at most 256 characters', () => {
    const field = { bucketId: 'b', name: 'contrast', type: 'select', options: ['碘'] };
    expect(bucketExtensionInputSchema.safeParse(field).success).toBe(true);
    expect(bucketExtensionInputSchema.safeParse({ ...field, options: [] }).success).toBe(false);
    expect(bucketExtensionInputSchema.safeParse({ ...field, options: ['碘', '碘'] }).success).toBe(false);
    expect(bucketExtensionInputSchema.safeParse({ ...field, type: 'text' }).success).toBe(false);
    expect(upsertExtensionSchema.safeParse({ configId: 'c', value: 'x'.repeat(256) }).success).toBe(true);
    expect(upsertExtensionSchema.safeParse({ configId: 'c', value: 'x'.repeat(257) }).success).toBe(false);
    expect(upsertExtensionSchema.safeParse({ configId: 'c', value: Number.NaN }).success).toBe(false);
  });
});
