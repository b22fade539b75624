import { z } from 'zod';
import { defineCall } from './call.js';
import {
  DICTIONARY_KINDS,
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
} from './tenancy.js';
import { bucketPlanSchema, updateBucketPlanSchema } from './archive.js';

const groupParams = z.object({ groupId: z.string() });
const bucketParams = z.object({ bucketId: z.string() });
const memberParams = bucketParams.extend({ accountId: z.string() });
const kindParams = bucketParams.extend({ kind: z.enum(DICTIONARY_KINDS) });
const itemParams = kindParams.extend({ itemId: z.string() });
const organizations = z.array(organizationSchema);
const members = z.array(orgMemberSchema);

const token = (method: 'GET' | 'POST' | 'DELETE') =>
  defineCall({ method, path: 'buckets/:bucketId/upload/token', params: bucketParams, answer: uploadTokenSchema });

/**
 * The organization's (bucket's) calls (spec 001 §7 "Organizations"): the organization, its plan,
 * members, upload token and dictionaries. The server's routes
 * (modules/organizations/organizations.routes.ts) and the web's client (api/organizations.ts) are
 * built from these.
 */
export const organizationCalls = {
  ofGroup: defineCall({
    method: 'GET',
    path: 'groups/:groupId/organizations',
    params: groupParams,
    answer: organizations,
  }),
  create: defineCall({
    method: 'POST',
    path: 'groups/:groupId/organizations',
    params: groupParams,
    body: createOrganizationSchema,
    answer: organizationSchema,
    status: 201,
  }),
  accessible: defineCall({ method: 'GET', path: 'buckets/accessible', answer: organizations }),
  get: defineCall({ method: 'GET', path: 'buckets/:bucketId', params: bucketParams, answer: organizationSchema }),
  plan: defineCall({ method: 'GET', path: 'buckets/:bucketId/plan', params: bucketParams, answer: bucketPlanSchema }),
  setPlan: defineCall({
    method: 'PUT',
    path: 'buckets/:bucketId/plan',
    params: bucketParams,
    body: updateBucketPlanSchema,
    answer: bucketPlanSchema,
  }),
  update: defineCall({
    method: 'PUT',
    path: 'buckets/:bucketId',
    params: bucketParams,
    body: updateOrganizationSchema,
    answer: organizationSchema,
  }),
  remove: defineCall({
    method: 'DELETE',
    path: 'buckets/:bucketId',
    params: bucketParams,
    body: confirmNameSchema,
    status: 204,
  }),
  members: defineCall({ method: 'GET', path: 'buckets/:bucketId/members', params: bucketParams, answer: members }),
  addMembers: defineCall({
    method: 'POST',
    path: 'buckets/:bucketId/members',
    params: bucketParams,
    body: addOrgMembersSchema,
    answer: members,
  }),
  updateMember: defineCall({
    method: 'PUT',
    path: 'buckets/:bucketId/members/:accountId',
    params: memberParams,
    body: updateOrgMemberSchema,
    status: 204,
  }),
  removeMember: defineCall({
    method: 'DELETE',
    path: 'buckets/:bucketId/members/:accountId',
    params: memberParams,
    status: 204,
  }),
  uploadToken: token('GET'),
  /** a new token; the previous one stops working at once */
  rotateUploadToken: token('POST'),
  revokeUploadToken: token('DELETE'),
  // The dictionaries (departments, doctors, bodyparts, tags, critical-values, extension-configs):
  // `:kind` is one of DICTIONARY_KINDS, so `buckets/:bucketId/roles` etc. are not dictionaries.
  dictionary: defineCall({
    method: 'GET',
    path: 'buckets/:bucketId/:kind',
    params: kindParams,
    answer: z.array(dictionaryItemSchema),
  }),
  addItem: defineCall({
    method: 'POST',
    path: 'buckets/:bucketId/:kind',
    params: kindParams,
    body: upsertDictionaryItemSchema,
    answer: dictionaryItemSchema,
    status: 201,
  }),
  updateItem: defineCall({
    method: 'PUT',
    path: 'buckets/:bucketId/:kind/:itemId',
    params: itemParams,
    body: upsertDictionaryItemSchema,
    answer: dictionaryItemSchema,
  }),
  removeItem: defineCall({
    method: 'DELETE',
    path: 'buckets/:bucketId/:kind/:itemId',
    params: itemParams,
    status: 204,
  }),
} as const;
