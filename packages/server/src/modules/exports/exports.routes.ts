import { exportExamsSchema } from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { auditContext } from '../../platform/audit.js';
import { defineRoute } from '../../platform/route.js';
import type { ExportsService } from './exports.service.js';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Exports (spec 001 §7 "POST exports/exams (binary answer)"). */
export function exportRoutes(app: FastifyInstance, exports: ExportsService): void {
  defineRoute(app, {
    method: 'POST',
    url: 'exports/exams',
    summary: 'The filtered study list as .xlsx (at most 3,000 exams; organizations with export_exams)',
    auth: 'account',
    body: exportExamsSchema,
    handler: async ({ account, body, request, reply }) => {
      const file = await exports.exams(account, body, auditContext(request));
      return reply
        .header('content-type', XLSX)
        .header('content-disposition', `attachment; filename="${file.filename}"`)
        .header('x-export-count', String(file.count))
        .send(file.body) as never;
    },
  });
}
