import { z } from 'zod';
import { defineCall } from './call.js';
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
} from './tenancy.js';

const groupParams = z.object({ groupId: z.string() });
const memberParams = groupParams.extend({ accountId: z.string() });

/**
 * The group's calls (spec 001 §7 "Groups"): the group and its members. The server's routes
 * (modules/groups/groups.routes.ts) and the web's client (api/groups.ts) are built from these; the
 * group's rules are in rule-calls.ts.
 */
export const groupCalls = {
  available: defineCall({
    method: 'GET',
    path: 'groups/available',
    query: groupAvailableQuerySchema,
    answer: groupAvailableSchema,
  }),
  create: defineCall({
    method: 'POST',
    path: 'groups',
    body: createGroupRequestSchema,
    answer: groupSchema,
    status: 201,
  }),
  mine: defineCall({ method: 'GET', path: 'groups/mine', answer: z.array(groupSchema) }),
  get: defineCall({ method: 'GET', path: 'groups/:groupId', params: groupParams, answer: groupSchema }),
  attributes: defineCall({
    method: 'GET',
    path: 'groups/:groupId/attributes',
    params: groupParams,
    answer: groupAttributesSchema,
  }),
  update: defineCall({
    method: 'POST',
    path: 'groups/:groupId/update',
    params: groupParams,
    body: updateGroupRequestSchema,
    answer: groupSchema,
  }),
  remove: defineCall({
    method: 'DELETE',
    path: 'groups/:groupId',
    params: groupParams,
    body: confirmNameSchema,
    status: 204,
  }),
  members: defineCall({
    method: 'GET',
    path: 'groups/:groupId/members',
    params: groupParams,
    answer: memberPageSchema,
  }),
  queryMembers: defineCall({
    method: 'POST',
    path: 'groups/:groupId/members/query',
    params: groupParams,
    body: memberQuerySchema,
    answer: memberPageSchema,
  }),
  invite: defineCall({
    method: 'POST',
    path: 'groups/:groupId/members/invite',
    params: groupParams,
    body: inviteMembersSchema,
    answer: z.object({ added: z.array(z.string()) }),
  }),
  /** the new account must replace its initial password at its first login */
  createAccount: defineCall({
    method: 'POST',
    path: 'groups/:groupId/members/create-account',
    params: groupParams,
    body: createMemberAccountSchema,
    answer: groupMemberSchema,
    status: 201,
  }),
  updateMember: defineCall({
    method: 'PUT',
    path: 'groups/:groupId/members/:accountId',
    params: memberParams,
    body: updateMemberSchema,
    status: 204,
  }),
  removeMember: defineCall({
    method: 'DELETE',
    path: 'groups/:groupId/members/:accountId',
    params: memberParams,
    status: 204,
  }),
  quit: defineCall({ method: 'POST', path: 'groups/:groupId/quit', params: groupParams, status: 204 }),
} as const;
