import { groupCalls as calls } from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { auditContext } from '../../platform/audit.js';
import { defineCallRoute } from '../../platform/call-route.js';
import type { RawInput } from '../../platform/route.js';
import type { GroupsService } from './groups.service.js';

const group = ({ params }: RawInput) => params.groupId;
const read = { power: 'group_read', group } as const;
const manage = { power: 'group_manage', group } as const;

/** The group's calls (contracts groupCalls). */
export function groupRoutes(app: FastifyInstance, groups: GroupsService): void {
  defineCallRoute(app, calls.available, {
    summary: 'Is a group name available',
    auth: 'account',
    handler: ({ query }) => groups.available(query.name),
  });
  defineCallRoute(app, calls.create, {
    summary: 'Create a group',
    auth: 'account',
    handler: ({ account, body, request }) => groups.create(account, body, auditContext(request)),
  });
  defineCallRoute(app, calls.mine, {
    summary: 'Groups of the signed-in user',
    auth: 'account',
    handler: ({ account }) => groups.mine(account),
  });
  defineCallRoute(app, calls.get, {
    summary: 'A group',
    auth: read,
    handler: ({ groupId, access }) => groups.get(groupId, access.groupLevels.get(groupId)!),
  });
  defineCallRoute(app, calls.attributes, {
    summary: 'Group attributes with their custom labels',
    auth: read,
    handler: async ({ groupId, access }) => (await groups.get(groupId, access.groupLevels.get(groupId)!)).attributes,
  });
  defineCallRoute(app, calls.update, {
    summary: 'Update name, settings and attributes',
    auth: manage,
    handler: ({ account, groupId, body, request }) => groups.update(account, groupId, body, auditContext(request)),
  });
  defineCallRoute(app, calls.remove, {
    summary: 'Delete a group (type its name)',
    auth: manage,
    handler: ({ account, groupId, body, request }) =>
      groups.remove(account, groupId, body.confirmName, auditContext(request)),
  });
  defineCallRoute(app, calls.members, {
    summary: 'Members of a group',
    auth: read,
    handler: ({ groupId }) => groups.members(groupId, undefined, 0, 500),
  });
  defineCallRoute(app, calls.queryMembers, {
    summary: 'Search members',
    auth: read,
    handler: ({ groupId, body }) => groups.members(groupId, body.q, body.skip ?? 0, body.limit ?? 20),
  });
  defineCallRoute(app, calls.invite, {
    summary: 'Add existing accounts',
    auth: manage,
    handler: ({ account, groupId, body, request }) =>
      groups.invite(account, groupId, body.accountIds, body.accessLevel, auditContext(request)),
  });
  defineCallRoute(app, calls.createAccount, {
    summary: 'Create an account in the group',
    auth: manage,
    handler: ({ account, groupId, body, request }) =>
      groups.createAccount(account, groupId, body, auditContext(request)),
  });
  defineCallRoute(app, calls.updateMember, {
    summary: 'Change a member access level',
    auth: manage,
    handler: ({ account, groupId, params, body, request }) =>
      groups.updateMember(account, groupId, params.accountId, body.accessLevel, auditContext(request)),
  });
  defineCallRoute(app, calls.removeMember, {
    summary: 'Remove a member',
    auth: manage,
    handler: ({ account, groupId, params, request }) =>
      groups.removeMember(account, groupId, params.accountId, auditContext(request)),
  });
  defineCallRoute(app, calls.quit, {
    summary: 'Leave the group',
    auth: read,
    handler: ({ account, groupId, request }) => groups.quit(account, groupId, auditContext(request)),
  });
}
