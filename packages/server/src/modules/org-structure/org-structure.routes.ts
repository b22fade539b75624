import { structureCalls } from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { auditContext } from '../../platform/audit.js';
import { defineCallRoute } from '../../platform/call-route.js';
import type { RawInput } from '../../platform/route.js';
import type { OrgStructureService } from './org-structure.service.js';

const bucketInPath = ({ params }: RawInput) => (typeof params.bucketId === 'string' ? params.bucketId : undefined);

/** structure-code, find-one and an organization's report templates (contracts structureCalls, issue 27). */
export function orgStructureRoutes(app: FastifyInstance, structure: OrgStructureService): void {
  defineCallRoute(app, structureCalls.groupStructure, {
    summary: "The group's organizations with their codes, by name (members of the group)",
    auth: { power: 'group_read', group: ({ params }) => params.groupId },
    handler: ({ groupId }) => structure.structure(groupId),
  });
  defineCallRoute(app, structureCalls.findOrganization, {
    summary: 'The organization with this code (case ignored), when the caller can see it',
    auth: 'account',
    handler: ({ account, query, request }) => structure.findByCode(account, query.code, request.access),
  });
  defineCallRoute(app, structureCalls.bucketTemplates, {
    summary: "The organization's report templates and the caller's own, as GET report-templates?bucketId=",
    auth: { action: 'bucket_read', owner: bucketInPath },
    handler: ({ account, bucket, query, request }) =>
      structure.templates(account, bucket.id, query, auditContext(request)),
  });
}
