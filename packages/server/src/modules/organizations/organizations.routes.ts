import { organizationCalls as calls } from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { auditContext } from '../../platform/audit.js';
import { defineCallRoute } from '../../platform/call-route.js';
import type { RawInput } from '../../platform/route.js';
import type { OrganizationsService } from './organizations.service.js';

const group = ({ params }: RawInput) => params.groupId;
const bucket = ({ params }: RawInput) => params.bucketId;
const read = { action: 'bucket_read', owner: bucket } as const;
const manage = { action: 'bucket_manage', owner: bucket } as const;
const manageMembers = { action: 'bucket_members_manage', owner: bucket } as const;

/** The organization's (bucket's) calls (contracts organizationCalls). */
export function organizationRoutes(app: FastifyInstance, orgs: OrganizationsService): void {
  defineCallRoute(app, calls.ofGroup, {
    summary: 'Organizations of a group',
    auth: { power: 'group_read', group },
    handler: ({ groupId, access }) => orgs.listForGroup(groupId, access),
  });
  defineCallRoute(app, calls.create, {
    summary: 'Create an organization',
    auth: { power: 'group_manage', group },
    handler: ({ account, groupId, body, access, request }) =>
      orgs.create(account, groupId, body, access, auditContext(request)),
  });
  defineCallRoute(app, calls.accessible, {
    summary: 'Organizations the caller belongs to',
    auth: 'account',
    handler: async ({ account, request }) => orgs.mine(request.access ?? (await orgs.accessOf(account.id))),
  });
  defineCallRoute(app, calls.get, {
    summary: 'An organization',
    auth: read,
    handler: ({ bucket: b, access }) => orgs.get(b.id, access),
  });
  defineCallRoute(app, calls.plan, {
    summary: "An organization's plan: studies allowed and received, validity, whether uploads are refused",
    auth: read,
    handler: ({ bucket: b }) => orgs.plan(b.id),
  });
  defineCallRoute(app, calls.setPlan, {
    summary: "Set or end an organization's plan (platform admins)",
    auth: 'platformAdmin',
    handler: ({ account, params, body, request }) =>
      orgs.setPlan(account, params.bucketId, body, auditContext(request)),
  });
  defineCallRoute(app, calls.update, {
    summary: 'Update an organization',
    auth: manage,
    handler: ({ account, bucket: b, body, access, request }) =>
      orgs.update(account, b.id, body, access, auditContext(request)),
  });
  defineCallRoute(app, calls.remove, {
    summary: 'Delete an organization (type its name)',
    auth: { action: 'bucket_delete', owner: bucket },
    handler: ({ account, bucket: b, body, request }) =>
      orgs.remove(account, b.id, body.confirmName, auditContext(request)),
  });
  defineCallRoute(app, calls.members, {
    summary: 'Members of an organization',
    auth: read,
    handler: ({ bucket: b }) => orgs.members(b.id),
  });
  defineCallRoute(app, calls.addMembers, {
    summary: 'Add group members to an organization',
    auth: manageMembers,
    handler: ({ account, bucket: b, body, request }) =>
      orgs.addMembers(account, b.id, b.groupId, body.accountIds, body.accessLevel, auditContext(request)),
  });
  defineCallRoute(app, calls.updateMember, {
    summary: 'Change a member level',
    auth: manageMembers,
    handler: ({ account, bucket: b, params, body, request }) =>
      orgs.updateMember(account, b.id, params.accountId, body.accessLevel, auditContext(request)),
  });
  defineCallRoute(app, calls.removeMember, {
    summary: 'Remove a member',
    auth: manageMembers,
    handler: ({ account, bucket: b, params, request }) =>
      orgs.removeMember(account, b.id, params.accountId, auditContext(request)),
  });
  defineCallRoute(app, calls.uploadToken, {
    summary: 'Upload token and static QR path',
    auth: manage,
    handler: ({ bucket: b }) => orgs.uploadToken(b.id),
  });
  defineCallRoute(app, calls.rotateUploadToken, {
    summary: 'Issue a new upload token',
    auth: manage,
    handler: ({ account, bucket: b, request }) => orgs.rotateUploadToken(account, b.id, false, auditContext(request)),
  });
  defineCallRoute(app, calls.revokeUploadToken, {
    summary: 'Revoke the upload token',
    auth: manage,
    handler: ({ account, bucket: b, request }) => orgs.rotateUploadToken(account, b.id, true, auditContext(request)),
  });
  defineCallRoute(app, calls.dictionary, {
    summary: 'Organization dictionary (departments, doctors, bodyparts, tags, critical-values, extension-configs)',
    auth: read,
    handler: ({ bucket: b, params }) => orgs.dictionary(b.id, params.kind),
  });
  defineCallRoute(app, calls.addItem, {
    summary: 'Add a dictionary item',
    auth: manage,
    handler: ({ account, bucket: b, params, body, request }) =>
      orgs.addItem(account, b.id, params.kind, body, auditContext(request)),
  });
  defineCallRoute(app, calls.updateItem, {
    summary: 'Change a dictionary item',
    auth: manage,
    handler: ({ account, bucket: b, params, body, request }) =>
      orgs.updateItem(account, b.id, params.kind, params.itemId, body, auditContext(request)),
  });
  defineCallRoute(app, calls.removeItem, {
    summary: 'Remove a dictionary item',
    auth: manage,
    handler: ({ account, bucket: b, params, request }) =>
      orgs.removeItem(account, b.id, params.kind, params.itemId, auditContext(request)),
  });
}
