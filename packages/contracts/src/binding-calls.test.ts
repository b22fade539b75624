import { describe, expect, it } from 'vitest';
import { bindingCalls } from './binding-calls.js';
import { bindRequestSchema, matchCandidatesQuerySchema } from './binding.js';
import { examCalls } from './exam-calls.js';

describe('image binding calls', () => {
  it('are the three exam paths of spec 001 §7 "Exams" and the bucket bind-code, once each', () => {
    expect(Object.values(bindingCalls).map((c) => `${c.method} ${c.path}`)).toEqual([
      'GET exams/:examId/schedules',
      'POST exams/:examId/schedules/:scheduledId',
      'POST exams/:examId/match/:scheduledId',
      'GET buckets/:bucketId/bind-code',
    ]);
    const examPaths = Object.values(examCalls).map((c) => c.path);
    for (const call of Object.values(bindingCalls)) expect(examPaths).not.toContain(call.path);
  });

  it('require a typed confirmation for bind and bound the search', () => {
    expect(bindRequestSchema.safeParse({}).success).toBe(false);
    expect(bindRequestSchema.safeParse({ confirm: '   ' }).success).toBe(false);
    expect(bindRequestSchema.parse({ confirm: ' A123 ' })).toEqual({ confirm: 'A123' });
    expect(matchCandidatesQuerySchema.safeParse({ q: 'x'.repeat(65) }).success).toBe(false);
  });
});
