import { quickSearchCalls as calls } from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { auditContext } from '../../platform/audit.js';
import { defineCallRoute } from '../../platform/call-route.js';
import type { QuickSearchService } from './quick-search.service.js';

/** Quick search (spec 001 §7, contracts quickSearchCalls): every call acts on the caller's own searches only. */
export function quickSearchRoutes(app: FastifyInstance, searches: QuickSearchService): void {
  defineCallRoute(app, calls.mine, {
    summary: "The caller's quick searches of a list (the defaults on first use)",
    auth: 'account',
    handler: ({ account, query }) => searches.mine(account, query.type),
  });
  defineCallRoute(app, calls.create, {
    summary: 'Save a quick search (title ≤10 characters, unique; a study date is required)',
    auth: 'account',
    handler: ({ account, body, request }) => searches.create(account, body, auditContext(request)),
  });
  defineCallRoute(app, calls.update, {
    summary: 'Rename, refilter or reorder a quick search',
    auth: 'account',
    handler: ({ account, params, body, request }) =>
      searches.update(account, params.searchId, body, auditContext(request)),
  });
  defineCallRoute(app, calls.remove, {
    summary: 'Delete a quick search (the last one cannot be)',
    auth: 'account',
    handler: ({ account, params, request }) => searches.remove(account, params.searchId, auditContext(request)),
  });
}
