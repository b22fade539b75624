import { domainConfigSchema, updateDomainConfigSchema } from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { auditContext } from '../../platform/audit.js';
import { defineRoute } from '../../platform/route.js';
import type { DomainService } from './domain.service.js';

export function domainRoutes(app: FastifyInstance, domain: DomainService): void {
  defineRoute(app, {
    method: 'GET',
    url: 'domain',
    summary: 'Domain configuration',
    auth: 'public',
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
