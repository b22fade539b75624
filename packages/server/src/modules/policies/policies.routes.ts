import { uploadKinds, uploadPolicyQuerySchema, uploadPolicySchema } from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { defineRoute } from '../../platform/route.js';
import type { PoliciesService } from './policies.service.js';

const summaries = {
  avatars: 'An upload URL for a profile picture',
  forms: 'An upload URL for an order-form scan',
  attachments: 'An upload URL for an attachment',
  images: 'An upload URL for a report image',
} as const;

export function policyRoutes(app: FastifyInstance, policies: PoliciesService): void {
  for (const kind of uploadKinds) {
    defineRoute(app, {
      method: 'GET',
      url: `policies/${kind}`,
      summary: summaries[kind],
      auth: 'account',
      query: uploadPolicyQuerySchema,
      response: uploadPolicySchema,
      handler: ({ account, query }) => policies.issue(account.id, kind, query),
    });
  }
}
