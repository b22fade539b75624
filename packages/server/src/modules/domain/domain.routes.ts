import { adminCalls } from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { auditContext } from '../../platform/audit.js';
import { defineCallRoute, definePublicCallRoute } from '../../platform/call-route.js';
import type { DomainService } from './domain.service.js';

export function domainRoutes(app: FastifyInstance, domain: DomainService): void {
  definePublicCallRoute(app, adminCalls.domain, {
    summary: 'Domain configuration',
    handler: () => domain.get(),
  });
  defineCallRoute(app, adminCalls.updateDomain, {
    summary: 'Change domain configuration (platform admin)',
    auth: 'platformAdmin',
    handler: ({ account, body, request }) => domain.update(account, body, auditContext(request)),
  });
}
