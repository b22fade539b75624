import { exportCalls } from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { auditContext } from '../../platform/audit.js';
import { defineCallRoute } from '../../platform/call-route.js';
import type { ExportsService } from './exports.service.js';
import { sendXlsx } from '../../platform/xlsx.js';

/** Exports (spec 001 §7 "POST exports/exams (binary answer)"); the path and body are contracts exportCalls. */
export function exportRoutes(app: FastifyInstance, exports: ExportsService): void {
  defineCallRoute(app, exportCalls.exams, {
    summary: 'The filtered study list as .xlsx (at most 3,000 exams; organizations with export_exams)',
    auth: 'account',
    handler: async ({ account, body, request, reply }) => {
      const file = await exports.exams(account, body, auditContext(request));
      return sendXlsx(reply, file);
    },
  });
}
