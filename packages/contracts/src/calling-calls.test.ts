import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { callKey, type Call } from './call.js';
import { callingCalls, callingSettingsCalls, screenCalls, screenTokenCalls } from './calling-calls.js';
import { missedQuerySchema, queueQuerySchema, queueTypeAddSchema } from './calling.js';
import { registryCalls } from './registry-calls.js';

const calls = [callingCalls, callingSettingsCalls, screenTokenCalls, screenCalls].flatMap(
  (set) => Object.values(set) as Call[],
);
const paramNames = (call: Call) => [...call.path.matchAll(/:([A-Za-z0-9]+)/g)].map((m) => m[1]!);

describe('the calling calls', () => {
  it('are calling-buckets and the eleven calls of spec 001 §7 "Queue calling" (text2speech aside)', () => {
    expect(Object.values(callingCalls).map(callKey)).toEqual([
      'GET calling-buckets',
      'GET buckets/:bucketId/queue-types',
      'POST queue-types/add',
      'POST queue-types/:id/update',
      'DELETE queue-types/:id/delete',
      'POST queue-exams/query',
      'POST queue-exams/check-in',
      'POST queue-exams/:id/action',
      'POST queue-exams/:id/resort',
      'POST queue-exams/call-next',
      'GET queue-exams/calling',
      'GET queue-exams/missed',
    ]);
  });

  it('name every call once, also beside the registry calls', () => {
    const keys = [...calls, ...(Object.values(registryCalls) as Call[])].map(callKey);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it.each(calls.map((c) => [callKey(c), c] as const))('%s: params schema has exactly its path names', (_k, call) => {
    const shape = call.params instanceof z.ZodObject ? Object.keys(call.params.shape) : [];
    expect(shape.sort()).toEqual(paramNames(call).sort());
  });

  it('leave the answer out only for a 204', () => {
    expect(calls.filter((c) => c.answer === undefined).map(callKey)).toEqual(['DELETE queue-types/:id/delete']);
  });
});

describe('the limits of the calling calls', () => {
  it('need a display name and a modality for a queue type, within their lengths', () => {
    const ok = { bucketId: 'b', displayName: 'CT 1', modality: 'CT' };
    expect(queueTypeAddSchema.parse(ok)).toMatchObject({ roomName: '', urgentFirst: true });
    expect(queueTypeAddSchema.safeParse({ ...ok, displayName: ' ' }).success).toBe(false);
    expect(queueTypeAddSchema.safeParse({ ...ok, displayName: 'x'.repeat(33) }).success).toBe(false);
    expect(queueTypeAddSchema.safeParse({ ...ok, modality: '' }).success).toBe(false);
    expect(queueTypeAddSchema.safeParse({ ...ok, roomName: 'x'.repeat(33) }).success).toBe(false);
    expect(queueTypeAddSchema.safeParse({ ...ok, extra: 1 }).success).toBe(false);
  });

  it('take a real day and a page of at most 100', () => {
    expect(queueQuerySchema.safeParse({ bucketId: 'b', checkInDate: '2026-02-30' }).success).toBe(false);
    expect(queueQuerySchema.safeParse({ bucketId: 'b', limit: 101 }).success).toBe(false);
    expect(queueQuerySchema.parse({ bucketId: 'b' })).toMatchObject({ limit: 100, skip: 0, statuses: [] });
    expect(missedQuerySchema.parse({ bucketId: 'b', limit: '5' }).limit).toBe(5);
    expect(missedQuerySchema.parse({ bucketId: 'b' }).limit).toBe(20);
    expect(missedQuerySchema.safeParse({ bucketId: 'b', limit: '0' }).success).toBe(false);
    expect(missedQuerySchema.safeParse({ bucketId: 'b', limit: '101' }).success).toBe(false);
  });
});
