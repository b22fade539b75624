import { globalConfigCalls } from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { auditContext } from '../../platform/audit.js';
import { defineCallRoute } from '../../platform/call-route.js';
import type { GlobalConfigsService } from './global-configs.service.js';

/** GET global-configs/query (spec 001 §7) and PUT global-configs (platform administration, issue 27). */
export function globalConfigRoutes(app: FastifyInstance, configs: GlobalConfigsService): void {
  defineCallRoute(app, globalConfigCalls.query, {
    summary: 'Platform settings by key (keys=helpUrl,supportPhone,…; an unknown key is refused)',
    auth: 'account',
    handler: ({ query }) => configs.query(query.keys),
  });
  defineCallRoute(app, globalConfigCalls.update, {
    summary: 'Set or clear platform settings (platform administrators; audited)',
    auth: 'platformAdmin',
    handler: ({ account, body, request }) => configs.update(account, body, auditContext(request)),
  });
}
