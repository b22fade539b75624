import { domainConfigSchema, updateDomainConfigSchema } from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { auditContext } from '../../platform/audit.js';
import { definePublicRoute, defineRoute } from '../../platform/route.js';
import type { DomainService } from './domain.service.js';

export function domainRoutes(app: FastifyInstance, domain: DomainService): void {
  definePublicRoute(app, {
    method: 'GET',
    url: 'domain',
    summary: 'Domain configuration',
    response: domainConfigSchema,
    handler: () => domain.get(),
  });
  defineRoute(app, {
    method: 'PUT',
    url: 'domain',
    summary: 'Change domain configuration (platform admin)',
    auth: 'platformAdmin',
    body: updateDomainConfigSchema,
    response: domainConfigSchema,
    handler: ({ account, body, request }) => domain.update(account, body, auditContext(request)),
  });
}
