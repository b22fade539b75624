import { registryPrintCalls as calls } from '@yyp/contracts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { auditContext } from '../../platform/audit.js';
import { defineCallRoute } from '../../platform/call-route.js';
import type { RawInput } from '../../platform/route.js';
import type { PrintedPdf, RegistryPrintService } from './registry-print.service.js';

function sendPdf(reply: FastifyReply, { pdf, filename }: PrintedPdf): never {
  return reply
    .header('content-type', 'application/pdf')
    .header('content-length', String(pdf.length))
    .header('content-disposition', `inline; filename="${filename}"`)
    .header('cache-control', 'no-store')
    .send(pdf) as never;
}

/**
 * The front desk's printing (spec 001 §7 orders/labels, buckets order-template; issue 22). Labels
 * and referral forms name their exams in the body: the service checks the desk actions in their
 * organization before anything is drawn.
 */
export function registryPrintRoutes(app: FastifyInstance, print: RegistryPrintService): void {
  const bucket = ({ params }: RawInput) => params.bucketId;
  defineCallRoute(app, calls.labels, {
    summary:
      'Labels of scheduled exams as a PDF: 80×50 mm, Code 128 of the accession number, one per page or 10 per A4',
    auth: 'account',
    handler: async (input) =>
      sendPdf(
        input.reply,
        await print.labels({ account: input.account, ctx: auditContext(input.request) }, input.body),
      ),
  });
  defineCallRoute(app, calls.referralForms, {
    summary: "Referral forms of scheduled exams of one day as a PDF, on the organization's template",
    auth: 'account',
    handler: async (input) =>
      sendPdf(
        input.reply,
        await print.referralForms({ account: input.account, ctx: auditContext(input.request) }, input.body),
      ),
  });
  defineCallRoute(app, calls.orderTemplate, {
    summary: "The organization's referral form template (the default until its admin saves one)",
    auth: { action: 'bucket_read', owner: bucket },
    handler: (input) => print.orderTemplate(input.params.bucketId),
  });
  defineCallRoute(app, calls.saveOrderTemplate, {
    summary: 'Set the referral form template (organization admins): title, header lines, fields shown, footer note',
    auth: { action: 'bucket_manage', owner: bucket },
    handler: (input) =>
      print.saveOrderTemplate(
        { account: input.account, ctx: auditContext(input.request) },
        input.params.bucketId,
        input.body,
      ),
  });
}
