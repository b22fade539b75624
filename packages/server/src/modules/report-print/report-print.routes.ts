import { reportPrintCalls as calls } from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { auditContext } from '../../platform/audit.js';
import { defineCallRoute } from '../../platform/call-route.js';
import type { Db } from '../../platform/db.js';
import { ownerFrom, type RawInput } from '../../platform/route.js';
import { actorOf as actor, ownerOfReport } from '../reports/index.js';
import type { ReportPrintService } from './report-print.service.js';

/** Report printing and the report PDF (spec 000 §3, §5, §6; spec 001 §7 update-print-time, §8). */
export function reportPrintRoutes(app: FastifyInstance, db: Db, print: ReportPrintService): void {
  const bucket = ({ params }: RawInput) => params.bucketId;
  const reportOwner = ownerFrom('reportId', ownerOfReport, db);

  defineCallRoute(app, calls.template, {
    summary: "The organization's print template with short-lived logo and stamp URLs (null until set)",
    auth: { action: 'bucket_read', owner: bucket },
    handler: (input) => print.templates.get(actor(input)),
  });
  defineCallRoute(app, calls.saveTemplate, {
    summary: 'Set the print template (organization admins only): logo 128×128 PNG/JPEG, stamp PNG, footer as text',
    auth: { action: 'bucket_manage', owner: bucket },
    handler: (input) => print.templates.save(actor(input), input.body),
  });
  defineCallRoute(app, calls.printView, {
    summary:
      'All a print page needs: template, exam header, text, signatures, printed key images (NoPrintTemplate when none)',
    auth: { action: 'report_print', owner: reportOwner },
    handler: (input) => print.printView(actor(input), input.params.reportId),
  });
  defineCallRoute(app, calls.updatePrintTime, {
    summary: 'Record a print: printApprovedAt and status printed for an approved report, else printSubmittedAt',
    auth: { action: 'report_print', owner: reportOwner },
    handler: (input) => print.updatePrintTime(actor(input), input.params.reportId),
  });
  defineCallRoute(app, calls.pdf, {
    summary: 'The approved report as a PDF rendered on the server (report_print or exam_get)',
    auth: { action: 'bucket_read', owner: reportOwner },
    handler: async (input) => {
      const { pdf, filename } = await print.pdf(actor(input), input.params.reportId, input.query.lang);
      return input.reply
        .header('content-type', 'application/pdf')
        .header('content-length', String(pdf.length))
        .header('content-disposition', `attachment; filename="${filename}"`)
        .header('cache-control', 'no-store')
        .send(pdf) as never;
    },
  });
  defineCallRoute(app, calls.printSheets, {
    summary: "Printing sheets: the chosen exams' reports merged into one print view (one organization, same day)",
    auth: 'account',
    handler: (input) => print.printSheets(input.account, auditContext(input.request), input.body.examIds),
  });
}
