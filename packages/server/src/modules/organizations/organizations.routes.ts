import {
  DICTIONARY_KINDS,
  bucketPlanSchema,
  updateBucketPlanSchema,
  addOrgMembersSchema,
  confirmNameSchema,
  createOrganizationSchema,
  dictionaryItemSchema,
  orgMemberSchema,
  organizationSchema,
  updateOrgMemberSchema,
  updateOrganizationSchema,
  uploadTokenSchema,
  upsertDictionaryItemSchema,
} from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { auditContext } from '../../platform/audit.js';
import { defineRoute, type RawInput } from '../../platform/route.js';
import type { OrganizationsService } from './organizations.service.js';

const groupParams = z.object({ groupId: z.string() });
const bucketParams = z.object({ bucketId: z.string() });
const memberParams = z.object({ bucketId: z.string(), accountId: z.string() });
const kindParams = z.object({ bucketId: z.string(), kind: z.enum(DICTIONARY_KINDS) });
const itemParams = kindParams.extend({ itemId: z.string() });
const group = ({ params }: RawInput) => params.groupId;
const bucket = ({ params }: RawInput) => params.bucketId;

export function organizationRoutes(app: FastifyInstance, orgs: OrganizationsService): void {
  defineRoute(app, {
    method: 'GET',
    url: 'groups/:groupId/organizations',
    summary: 'Organizations of a group',
    auth: { power: 'group_read', group: group },
    params: groupParams,
    response: z.array(organizationSchema),
    handler: ({ groupId, access }) => orgs.listForGroup(groupId, access),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'groups/:groupId/organizations',
    summary: 'Create an organization',
    auth: { power: 'group_manage', group: group },
    params: groupParams,
    status: 201,
    body: createOrganizationSchema,
    response: organizationSchema,
    handler: ({ account, groupId, body, access, request }) =>
      orgs.create(account, groupId, body, access, auditContext(request)),
  });
  defineRoute(app, {
    method: 'GET',
    url: 'buckets/accessible',
    summary: 'Organizations the caller belongs to',
    auth: 'account',
    response: z.array(organizationSchema),
    handler: async ({ account, request }) => orgs.mine(request.access ?? (await orgs.accessOf(account.id))),
  });
  defineRoute(app, {
    method: 'GET',
    url: 'buckets/:bucketId',
    summary: 'An organization',
    auth: { action: 'bucket_read', owner: bucket },
    params: bucketParams,
    response: organizationSchema,
    handler: ({ bucket: b, access }) => orgs.get(b.id, access),
  });
  defineRoute(app, {
    method: 'GET',
    url: 'buckets/:bucketId/plan',
    summary: "An organization's plan: studies allowed and received, validity, whether uploads are refused",
    auth: { action: 'bucket_read', owner: bucket },
    params: bucketParams,
    response: bucketPlanSchema,
    handler: ({ bucket: b }) => orgs.plan(b.id),
  });
  defineRoute(app, {
    method: 'PUT',
    url: 'buckets/:bucketId/plan',
    summary: "Set or end an organization's plan (platform admins)",
    auth: 'platformAdmin',
    params: bucketParams,
    body: updateBucketPlanSchema,
    response: bucketPlanSchema,
    handler: ({ account, params, body, request }) =>
      orgs.setPlan(account, params.bucketId, body, auditContext(request)),
  });
  defineRoute(app, {
    method: 'PUT',
    url: 'buckets/:bucketId',
    summary: 'Update an organization',
    auth: { action: 'bucket_manage', owner: bucket },
    params: bucketParams,
    body: updateOrganizationSchema,
    response: organizationSchema,
    handler: ({ account, bucket: b, body, access, request }) =>
      orgs.update(account, b.id, body, access, auditContext(request)),
  });
  defineRoute(app, {
    method: 'DELETE',
    url: 'buckets/:bucketId',
    summary: 'Delete an organization (type its name)',
    auth: { action: 'bucket_delete', owner: bucket },
    params: bucketParams,
    body: confirmNameSchema,
    status: 204,
    handler: ({ account, bucket: b, body, request }) =>
      orgs.remove(account, b.id, body.confirmName, auditContext(request)),
  });
  defineRoute(app, {
    method: 'GET',
    url: 'buckets/:bucketId/members',
    summary: 'Members of an organization',
    auth: { action: 'bucket_read', owner: bucket },
    params: bucketParams,
    response: z.array(orgMemberSchema),
    handler: ({ bucket: b }) => orgs.members(b.id),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'buckets/:bucketId/members',
    summary: 'Add group members to an organization',
    auth: { action: 'bucket_members_manage', owner: bucket },
    params: bucketParams,
    body: addOrgMembersSchema,
    response: z.array(orgMemberSchema),
    handler: ({ account, bucket: b, body, request }) =>
      orgs.addMembers(account, b.id, b.groupId, body.accountIds, body.accessLevel, auditContext(request)),
  });
  defineRoute(app, {
    method: 'PUT',
    url: 'buckets/:bucketId/members/:accountId',
    summary: 'Change a member level',
    auth: { action: 'bucket_members_manage', owner: bucket },
    params: memberParams,
    body: updateOrgMemberSchema,
    status: 204,
    handler: ({ account, bucket: b, params, body, request }) =>
      orgs.updateMember(account, b.id, params.accountId, body.accessLevel, auditContext(request)),
  });
  defineRoute(app, {
    method: 'DELETE',
    url: 'buckets/:bucketId/members/:accountId',
    summary: 'Remove a member',
    auth: { action: 'bucket_members_manage', owner: bucket },
    params: memberParams,
    status: 204,
    handler: ({ account, bucket: b, params, request }) =>
      orgs.removeMember(account, b.id, params.accountId, auditContext(request)),
  });
  defineRoute(app, {
    method: 'GET',
    url: 'buckets/:bucketId/upload/token',
    summary: 'Upload token and static QR path',
    auth: { action: 'bucket_manage', owner: bucket },
    params: bucketParams,
    response: uploadTokenSchema,
    handler: ({ bucket: b }) => orgs.uploadToken(b.id),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'buckets/:bucketId/upload/token',
    summary: 'Issue a new upload token',
    auth: { action: 'bucket_manage', owner: bucket },
    params: bucketParams,
    response: uploadTokenSchema,
    handler: ({ account, bucket: b, request }) => orgs.rotateUploadToken(account, b.id, false, auditContext(request)),
  });
  defineRoute(app, {
    method: 'DELETE',
    url: 'buckets/:bucketId/upload/token',
    summary: 'Revoke the upload token',
    auth: { action: 'bucket_manage', owner: bucket },
    params: bucketParams,
    response: uploadTokenSchema,
    handler: ({ account, bucket: b, request }) => orgs.rotateUploadToken(account, b.id, true, auditContext(request)),
  });
  defineRoute(app, {
    method: 'GET',
    url: 'buckets/:bucketId/:kind',
    summary: 'Organization dictionary (departments, doctors, bodyparts, tags, critical-values, extension-configs)',
    auth: { action: 'bucket_read', owner: bucket },
    params: kindParams,
    response: z.array(dictionaryItemSchema),
    handler: ({ bucket: b, params }) => orgs.dictionary(b.id, params.kind),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'buckets/:bucketId/:kind',
    summary: 'Add a dictionary item',
    auth: { action: 'bucket_manage', owner: bucket },
    params: kindParams,
    status: 201,
    body: upsertDictionaryItemSchema,
    response: dictionaryItemSchema,
    handler: ({ account, bucket: b, params, body, request }) =>
      orgs.addItem(account, b.id, params.kind, body, auditContext(request)),
  });
  defineRoute(app, {
    method: 'PUT',
    url: 'buckets/:bucketId/:kind/:itemId',
    summary: 'Change a dictionary item',
    auth: { action: 'bucket_manage', owner: bucket },
    params: itemParams,
    body: upsertDictionaryItemSchema,
    response: dictionaryItemSchema,
    handler: ({ account, bucket: b, params, body, request }) =>
      orgs.updateItem(account, b.id, params.kind, params.itemId, body, auditContext(request)),
  });
  defineRoute(app, {
    method: 'DELETE',
    url: 'buckets/:bucketId/:kind/:itemId',
    summary: 'Remove a dictionary item',
    auth: { action: 'bucket_manage', owner: bucket },
    params: itemParams,
    status: 204,
    handler: ({ account, bucket: b, params, request }) =>
      orgs.removeItem(account, b.id, params.kind, params.itemId, auditContext(request)),
  });
}
