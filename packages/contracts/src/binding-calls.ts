import { z } from 'zod';
import {
  bindCodeSchema,
  bindRequestSchema,
  matchCandidateSchema,
  matchCandidatesQuerySchema,
  matchResultSchema,
} from './binding.js';
import { defineCall } from './call.js';

const examParams = z.object({ examId: z.string().max(64) });
const pairParams = z.object({ examId: z.string().max(64), scheduledId: z.string().max(64) });

/**
 * Image binding's calls (binding.ts; spec 001 §7 "Exams" schedules and match, "buckets bind-code").
 * The server's routes are modules/registry/registry-match.routes.ts, the web's client
 * api/binding.ts.
 */
export const bindingCalls = {
  /** the organization's scheduled exams these images can go to, newest first, at most 50 */
  candidates: defineCall({
    method: 'GET',
    path: 'exams/:examId/schedules',
    params: examParams,
    query: matchCandidatesQuerySchema,
    answer: z.array(matchCandidateSchema),
  }),
  /** match: the exam becomes the scheduled exam's exam (a scheduled exam without one) */
  match: defineCall({
    method: 'POST',
    path: 'exams/:examId/schedules/:scheduledId',
    params: pairParams,
    answer: matchResultSchema,
  }),
  /** bind: as match, or replaces the images of the exam the scheduled exam holds; confirmed by typing */
  bind: defineCall({
    method: 'POST',
    path: 'exams/:examId/match/:scheduledId',
    params: pairParams,
    body: bindRequestSchema,
    answer: matchResultSchema,
  }),
  bindCode: defineCall({
    method: 'GET',
    path: 'buckets/:bucketId/bind-code',
    params: z.object({ bucketId: z.string() }),
    answer: bindCodeSchema,
  }),
} as const;
