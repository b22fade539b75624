import {
  confirmNameSchema,
  createGroupRequestSchema,
  createMemberAccountSchema,
  groupAttributesSchema,
  groupAvailableQuerySchema,
  groupAvailableSchema,
  groupMemberSchema,
  groupSchema,
  inviteMembersSchema,
  memberPageSchema,
  memberQuerySchema,
  updateGroupRequestSchema,
  updateMemberSchema,
} from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { auditContext } from '../../platform/audit.js';
import { defineRoute, type RawInput } from '../../platform/route.js';
import type { GroupsService } from './groups.service.js';

const groupParams = z.object({ groupId: z.string() });
const memberParams = z.object({ groupId: z.string(), accountId: z.string() });
const fromParams = ({ params }: RawInput) => params.groupId;

export function groupRoutes(app: FastifyInstance, groups: GroupsService): void {
  defineRoute(app, {
    method: 'GET',
    url: 'groups/available',
    summary: 'Is a group name available',
    auth: 'account',
    query: groupAvailableQuerySchema,
    response: groupAvailableSchema,
    handler: ({ query }) => groups.available(query.name),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'groups',
    summary: 'Create a group',
    auth: 'account',
    status: 201,
    body: createGroupRequestSchema,
    response: groupSchema,
    handler: ({ account, body, request }) => groups.create(account, body, auditContext(request)),
  });
  defineRoute(app, {
    method: 'GET',
    url: 'groups/mine',
    summary: 'Groups of the signed-in user',
    auth: 'account',
    response: z.array(groupSchema),
    handler: ({ account }) => groups.mine(account),
  });
  defineRoute(app, {
    method: 'GET',
    url: 'groups/:groupId',
    summary: 'A group',
    auth: { power: 'group_read', group: fromParams },
    params: groupParams,
    response: groupSchema,
    handler: ({ groupId, access }) => groups.get(groupId, access.groupLevels.get(groupId)!),
  });
  defineRoute(app, {
    method: 'GET',
    url: 'groups/:groupId/attributes',
    summary: 'Group attributes with their custom labels',
    auth: { power: 'group_read', group: fromParams },
    params: groupParams,
    response: groupAttributesSchema,
    handler: async ({ groupId, access }) => (await groups.get(groupId, access.groupLevels.get(groupId)!)).attributes,
  });
  defineRoute(app, {
    method: 'POST',
    url: 'groups/:groupId/update',
    summary: 'Update name, settings and attributes',
    auth: { power: 'group_manage', group: fromParams },
    params: groupParams,
    body: updateGroupRequestSchema,
    response: groupSchema,
    handler: ({ account, groupId, body, request }) => groups.update(account, groupId, body, auditContext(request)),
  });
  defineRoute(app, {
    method: 'DELETE',
    url: 'groups/:groupId',
    summary: 'Delete a group (type its name)',
    auth: { power: 'group_manage', group: fromParams },
    params: groupParams,
    body: confirmNameSchema,
    status: 204,
    handler: ({ account, groupId, body, request }) =>
      groups.remove(account, groupId, body.confirmName, auditContext(request)),
  });
  defineRoute(app, {
    method: 'GET',
    url: 'groups/:groupId/members',
    summary: 'Members of a group',
    auth: { power: 'group_read', group: fromParams },
    params: groupParams,
    response: memberPageSchema,
    handler: ({ groupId }) => groups.members(groupId, undefined, 0, 500),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'groups/:groupId/members/query',
    summary: 'Search members',
    auth: { power: 'group_read', group: fromParams },
    params: groupParams,
    body: memberQuerySchema,
    response: memberPageSchema,
    handler: ({ groupId, body }) => groups.members(groupId, body.q, body.skip ?? 0, body.limit ?? 20),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'groups/:groupId/members/invite',
    summary: 'Add existing accounts',
    auth: { power: 'group_manage', group: fromParams },
    params: groupParams,
    body: inviteMembersSchema,
    response: z.object({ added: z.array(z.string()) }),
    handler: ({ account, groupId, body, request }) =>
      groups.invite(account, groupId, body.accountIds, body.accessLevel, auditContext(request)),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'groups/:groupId/members/create-account',
    summary: 'Create an account in the group',
    auth: { power: 'group_manage', group: fromParams },
    params: groupParams,
    status: 201,
    body: createMemberAccountSchema,
    response: groupMemberSchema,
    handler: ({ account, groupId, body, request }) =>
      groups.createAccount(account, groupId, body, auditContext(request)),
  });
  defineRoute(app, {
    method: 'PUT',
    url: 'groups/:groupId/members/:accountId',
    summary: 'Change a member access level',
    auth: { power: 'group_manage', group: fromParams },
    params: memberParams,
    body: updateMemberSchema,
    status: 204,
    handler: ({ account, groupId, params, body, request }) =>
      groups.updateMember(account, groupId, params.accountId, body.accessLevel, auditContext(request)),
  });
  defineRoute(app, {
    method: 'DELETE',
    url: 'groups/:groupId/members/:accountId',
    summary: 'Remove a member',
    auth: { power: 'group_manage', group: fromParams },
    params: memberParams,
    status: 204,
    handler: ({ account, groupId, params, request }) =>
      groups.removeMember(account, groupId, params.accountId, auditContext(request)),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'groups/:groupId/quit',
    summary: 'Leave the group',
    auth: { power: 'group_read', group: fromParams },
    params: groupParams,
    status: 204,
    handler: ({ account, groupId, request }) => groups.quit(account, groupId, auditContext(request)),
  });
}
