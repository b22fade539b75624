import {
  downloadPolicyQuerySchema,
  downloadPolicySchema,
  uploadPolicyQuerySchema,
  uploadPolicySchema,
} from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { auditContext } from '../../platform/audit.js';
import { defineRoute, type RawInput } from '../../platform/route.js';
import type { PoliciesService } from './policies.service.js';

const fromQuery = ({ query }: RawInput) => (typeof query.bucketId === 'string' ? query.bucketId : undefined);

export function policyRoutes(app: FastifyInstance, policies: PoliciesService): void {
  defineRoute(app, {
    method: 'GET',
    url: 'policies/avatars',
    summary: 'An upload URL for a profile picture',
    auth: 'account',
    query: uploadPolicyQuerySchema,
    response: uploadPolicySchema,
    handler: ({ account, query }) => policies.issue(account.id, 'avatars', query),
  });
  defineRoute(app, {
    method: 'GET',
    url: 'policies/forms',
    summary: 'An upload URL for an order-form scan',
    auth: 'account',
    query: uploadPolicyQuerySchema,
    response: uploadPolicySchema,
    handler: ({ account, query }) => policies.issue(account.id, 'forms', query),
  });
  defineRoute(app, {
    method: 'GET',
    url: 'policies/attachments',
    summary: 'An upload URL for an attachment',
    auth: 'account',
    query: uploadPolicyQuerySchema,
    response: uploadPolicySchema,
    handler: ({ account, query }) => policies.issue(account.id, 'attachments', query),
  });
  defineRoute(app, {
    method: 'GET',
    url: 'policies/images',
    summary: 'An upload URL for a report image',
    auth: 'account',
    query: uploadPolicyQuerySchema,
    response: uploadPolicySchema,
    handler: ({ account, query }) => policies.issue(account.id, 'images', query),
  });
  defineRoute(app, {
    method: 'GET',
    url: 'policies/download-token',
    summary: "Short-lived blob-store URLs of a study's files (beside studies/download-token's zip link)",
    auth: { action: 'study_package', owner: fromQuery },
    query: downloadPolicyQuerySchema,
    response: downloadPolicySchema,
    handler: ({ account, access, bucket, query, request }) =>
      policies.downloadPolicy({ account, access, bucket }, query.bucketId, query.storeUid, auditContext(request)),
  });
}
