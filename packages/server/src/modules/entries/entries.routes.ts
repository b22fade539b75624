import { entryCalls } from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { auditContext } from '../../platform/audit.js';
import { definePublicCallRoute } from '../../platform/call-route.js';
import type { EntriesService } from './entries.service.js';

/** GET tokens (spec 001 §7): a hospital system's signed entry for a session; the signed payload is the credential. */
export function entryRoutes(app: FastifyInstance, entries: EntriesService): void {
  void app.register(async (scope) => {
    // The answer is a session: never cached, and the page's address (the signed entry) never sent on.
    scope.addHook('onSend', async (_request, reply) => {
      void reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
    });
    definePublicCallRoute(scope, entryCalls.token, {
      summary:
        'Exchange a hospital system’s signed entry (/ss-login t, /go data; HMAC-SHA256 with the group’s web secret, single use, 5 minutes) for a session',
      handler: ({ query, request }) => entries.exchange(query, auditContext(request)),
    });
  });
}
