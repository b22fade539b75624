import { policyCalls, uploadKinds, type UploadKind } from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { auditContext } from '../../platform/audit.js';
import { defineCallRoute } from '../../platform/call-route.js';
import type { RawInput } from '../../platform/route.js';
import type { PoliciesService } from './policies.service.js';

const fromQuery = ({ query }: RawInput) => (typeof query.bucketId === 'string' ? query.bucketId : undefined);

const uploadSummary: Record<UploadKind, string> = {
  avatars: 'An upload URL for a profile picture',
  forms: 'An upload URL for an order-form scan',
  attachments: 'An upload URL for an attachment',
  images: 'An upload URL for a report image',
  consultations: "An upload URL for a consultation's case document or result attachment",
};

/** Upload policies, one route per upload kind, and a study's download links (contracts policyCalls). */
export function policyRoutes(app: FastifyInstance, policies: PoliciesService): void {
  for (const kind of uploadKinds) {
    defineCallRoute(app, policyCalls[kind], {
      summary: uploadSummary[kind],
      auth: 'account',
      handler: ({ account, query }) => policies.issue(account.id, kind, query),
    });
  }
  defineCallRoute(app, policyCalls.downloadToken, {
    summary: "Short-lived blob-store URLs of a study's files (beside studies/download-token's zip link)",
    auth: { action: 'study_package', owner: fromQuery },
    handler: ({ account, access, bucket, query, request }) =>
      policies.downloadPolicy({ account, access, bucket }, query.bucketId, query.storeUid, auditContext(request)),
  });
}
