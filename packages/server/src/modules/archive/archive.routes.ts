import { modalitySchema, upsertModalitySchema } from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { auditContext } from '../../platform/audit.js';
import { defineRoute, type RawInput } from '../../platform/route.js';
import type { ArchiveService } from './archive.service.js';

const bucketParams = z.object({ bucketId: z.string() });
const modalityParams = bucketParams.extend({ modalityId: z.string() });
const bucket = ({ params }: RawInput) => params.bucketId;

export function archiveRoutes(app: FastifyInstance, archive: ArchiveService): void {
  defineRoute(app, {
    method: 'GET',
    url: 'buckets/:bucketId/modalities',
    summary: 'Modalities registered to store into the organization',
    auth: { action: 'bucket_read', owner: bucket },
    params: bucketParams,
    response: z.array(modalitySchema),
    handler: ({ bucket: b }) => archive.modalities(b.id),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'buckets/:bucketId/modalities',
    summary: 'Register a modality (calling AE title, optional host)',
    auth: { action: 'bucket_manage', owner: bucket },
    params: bucketParams,
    status: 201,
    body: upsertModalitySchema,
    response: modalitySchema,
    handler: ({ account, bucket: b, body, request }) => archive.addModality(account, b.id, body, auditContext(request)),
  });
  defineRoute(app, {
    method: 'DELETE',
    url: 'buckets/:bucketId/modalities/:modalityId',
    summary: 'Remove a modality',
    auth: { action: 'bucket_manage', owner: bucket },
    params: modalityParams,
    status: 204,
    handler: ({ account, bucket: b, params, request }) =>
      archive.removeModality(account, b.id, params.modalityId, auditContext(request)),
  });
}
