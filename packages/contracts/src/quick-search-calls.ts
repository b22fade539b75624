import { z } from 'zod';
import { defineCall } from './call.js';
import {
  createQuickSearchSchema,
  quickSearchListQuerySchema,
  quickSearchSchema,
  updateQuickSearchSchema,
} from './quick-search.js';

const searchParams = z.object({ searchId: z.string().max(64) });

/**
 * Quick search (spec 001 §7): every call acts on the caller's own searches only. The server's
 * routes (modules/quick-search/quick-search.routes.ts) and the web's client (api/exams.ts) are
 * built from these.
 */
export const quickSearchCalls = {
  mine: defineCall({
    method: 'GET',
    path: 'custom-search/my',
    query: quickSearchListQuerySchema,
    answer: z.array(quickSearchSchema),
  }),
  create: defineCall({
    method: 'POST',
    path: 'custom-search/create',
    body: createQuickSearchSchema,
    answer: quickSearchSchema,
  }),
  update: defineCall({
    method: 'POST',
    path: 'custom-search/:searchId/update',
    params: searchParams,
    body: updateQuickSearchSchema,
    answer: quickSearchSchema,
  }),
  remove: defineCall({ method: 'POST', path: 'custom-search/:searchId/delete', params: searchParams, status: 204 }),
} as const;
