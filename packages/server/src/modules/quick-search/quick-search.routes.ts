import {
  createQuickSearchSchema,
  quickSearchListQuerySchema,
  quickSearchSchema,
  updateQuickSearchSchema,
} from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { auditContext } from '../../platform/audit.js';
import { defineRoute } from '../../platform/route.js';
import type { QuickSearchService } from './quick-search.service.js';

const idParams = z.object({ searchId: z.string().max(64) });

/** Quick search (spec 001 §7): every call acts on the caller's own searches only. */
export function quickSearchRoutes(app: FastifyInstance, searches: QuickSearchService): void {
  defineRoute(app, {
    method: 'GET',
    url: 'custom-search/my',
    summary: "The caller's quick searches of a list (the defaults on first use)",
    auth: 'account',
    query: quickSearchListQuerySchema,
    response: z.array(quickSearchSchema),
    handler: ({ account, query }) => searches.mine(account, query.type),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'custom-search/create',
    summary: 'Save a quick search (title ≤10 characters, unique; a study date is required)',
    auth: 'account',
    body: createQuickSearchSchema,
    response: quickSearchSchema,
    handler: ({ account, body, request }) => searches.create(account, body, auditContext(request)),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'custom-search/:searchId/update',
    summary: 'Rename, refilter or reorder a quick search',
    auth: 'account',
    params: idParams,
    body: updateQuickSearchSchema,
    response: quickSearchSchema,
    handler: ({ account, params, body, request }) =>
      searches.update(account, params.searchId, body, auditContext(request)),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'custom-search/:searchId/delete',
    summary: 'Delete a quick search (the last one cannot be)',
    auth: 'account',
    params: idParams,
    status: 204,
    handler: ({ account, params, request }) => searches.remove(account, params.searchId, auditContext(request)),
  });
}
