import { archiveCalls } from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { auditContext } from '../../platform/audit.js';
import { defineCallRoute } from '../../platform/call-route.js';
import type { RawInput } from '../../platform/route.js';
import type { ArchiveService } from './archive.service.js';

const bucket = ({ params }: RawInput) => params.bucketId;

/** The modalities registered to store into an organization. Paths and schemas are contracts archiveCalls. */
export function archiveRoutes(app: FastifyInstance, archive: ArchiveService): void {
  const manage = { action: 'bucket_manage', owner: bucket } as const;
  defineCallRoute(app, archiveCalls.modalities, {
    summary: 'Modalities registered to store into the organization',
    auth: { action: 'bucket_read', owner: bucket },
    handler: ({ bucket: b }) => archive.modalities(b.id),
  });
  defineCallRoute(app, archiveCalls.addModality, {
    summary: 'Register a modality (calling AE title, optional host)',
    auth: manage,
    handler: ({ account, bucket: b, body, request }) => archive.addModality(account, b.id, body, auditContext(request)),
  });
  defineCallRoute(app, archiveCalls.removeModality, {
    summary: 'Remove a modality',
    auth: manage,
    handler: ({ account, bucket: b, params, request }) =>
      archive.removeModality(account, b.id, params.modalityId, auditContext(request)),
  });
}
