import { mediaCalls } from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { auditContext } from '../../platform/audit.js';
import { defineCallRoute, definePublicCallRoute } from '../../platform/call-route.js';
import type { ExamsService } from './exams.service.js';

/**
 * Several studies as one DICOM media zip (issue 28 item 9): POST exams/study-packages authorizes
 * each exam and answers a 10-minute link; the link's GET streams the zip as it is built (no
 * length: the files are read while it is written).
 */
export function studyPackagesRoutes(app: FastifyInstance, exams: ExamsService): void {
  defineCallRoute(app, mediaCalls.studyPackages, {
    summary:
      'A 10-minute link that downloads 1–50 studies as one DICOM media zip (exam_get and study_package in each exam’s organization)',
    auth: 'account',
    handler: ({ account, body, request }) =>
      exams.studyPackagesLink(account, body.examIds, body.language, auditContext(request)),
  });
  definePublicCallRoute(app, mediaCalls.studyPackagesDownload, {
    summary: 'Download the DICOM media zip of a study-packages link',
    handler: async ({ query, request, reply }) => {
      const media = await exams.studyPackagesDownload(query.token, auditContext(request));
      void reply
        .header('content-type', 'application/zip')
        .header('content-disposition', `attachment; filename="${media.filename}"`);
      return reply.send(media.stream) as never;
    },
  });
}
