import type { FastifyInstance, FastifyRequest } from 'fastify';
import { VIEWER_TOKEN_HEADER, viewerObjectCalls as calls } from '@yyp/contracts';
import { auditContext } from '../../platform/audit.js';
import { definePublicCallRoute } from '../../platform/call-route.js';
import type { ViewerObjects } from './viewer-objects.service.js';

const tokenOf = (request: FastifyRequest): string | undefined => {
  const value = request.headers[VIEWER_TOKEN_HEADER];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
};

/**
 * The viewer's objects other than images (contracts viewerObjectCalls): public at the HTTP level
 * like the viewer's other calls, the signed openpath in the x-yyp-viewer header being the
 * credential; the document itself is read through the short-lived link documentLink answers, so
 * a frame of the viewer page can show it.
 */
export function viewerObjectRoutes(app: FastifyInstance, objects: ViewerObjects): void {
  definePublicCallRoute(app, calls.objects, {
    summary:
      "The viewer path's study's SR documents, PDFs, key object selections and presentation states, and its key images",
    handler: ({ request }) => objects.list(tokenOf(request)),
  });

  definePublicCallRoute(app, calls.annotations, {
    summary: "The graphic annotations and text of the study's presentation states (PIXEL units), by image",
    handler: ({ request }) => objects.annotations(tokenOf(request)),
  });

  definePublicCallRoute(app, calls.srDocument, {
    summary:
      'A Structured Report (or key object selection) of the study as readable text: its content tree, flags and observers',
    handler: ({ request, params: p }) =>
      objects.sr(tokenOf(request), p.study, p.series, p.instance, auditContext(request)),
  });

  definePublicCallRoute(app, calls.documentLink, {
    summary: 'A link, valid for five minutes, to an encapsulated PDF of the study (shown in a frame)',
    handler: ({ request, params: p }) => objects.documentLink(tokenOf(request), p.study, p.series, p.instance),
  });

  definePublicCallRoute(app, calls.document, {
    summary: 'The encapsulated document a document link names, as application/pdf, shown inline',
    handler: async ({ request, reply, query }) => {
      const { bytes, mimeType } = await objects.document(query.link, auditContext(request));
      void reply
        .header('content-type', mimeType === 'application/pdf' ? 'application/pdf' : 'application/octet-stream')
        .header('content-length', String(bytes.length))
        .header('content-disposition', 'inline; filename="document.pdf"')
        .header('cache-control', 'private, no-store')
        // Framed by the viewer page only; the document runs no script of this origin.
        .header('x-frame-options', 'SAMEORIGIN')
        .header('content-security-policy', "default-src 'none'; frame-ancestors 'self'");
      return reply.send(bytes) as never;
    },
  });
}
