import { SAMPLE_GRAPH_MAX_BYTES, SAMPLE_GRAPH_TYPES, reportLibraryCalls as calls } from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { auditContext } from '../../platform/audit.js';
import { defineCallRoute } from '../../platform/call-route.js';
import type { Db } from '../../platform/db.js';
import { AppError } from '../../platform/errors.js';
import { ownerFrom, type AuthedInput, type RawInput } from '../../platform/route.js';
import type { KnowledgeBaseService } from './kb.service.js';
import type { LibraryCaller } from './report-library.access.js';
import type { ReportLibraryService } from './report-library.service.js';
import { ownerOfDescTemplate, ownerOfSampleGraph } from './report-library.owners.js';

const caller = (input: Pick<AuthedInput<undefined, undefined, undefined>, 'account' | 'request'>): LibraryCaller => ({
  account: input.account,
  ctx: auditContext(input.request),
});
const fromQuery = ({ query }: RawInput) => (typeof query.bucketId === 'string' ? query.bucketId : undefined);
/** Lists need only a visible organization here; the service checks its report material. */
const readInQuery = { action: 'bucket_read', owner: fromQuery } as const;

/**
 * The report library (spec 001 §7 "Reports": report-templates, report-template-layouts,
 * image-desc-templates, sample-graphs; "Knowledge base": kb-items), its calls in contracts
 * reportLibraryCalls. Rows that may be personal (templates, knowledge-base items) or that name
 * their organization in the body are checked by the service; the others name their organization here.
 */
export function reportLibraryRoutes(
  app: FastifyInstance,
  db: Db,
  library: ReportLibraryService,
  kb: KnowledgeBaseService,
): void {
  /* ---------- report templates ---------- */
  defineCallRoute(app, calls.templates, {
    summary: "The organization's report templates and the caller's own (filter by modality, search title or category)",
    auth: readInQuery,
    handler: (input) => library.templates(caller(input), input.query),
  });
  defineCallRoute(app, calls.createTemplate, {
    summary: "A report template of an organization (template_upsert) or the caller's own",
    auth: 'account',
    handler: (input) => library.createTemplate(caller(input), input.body),
  });
  defineCallRoute(app, calls.template, {
    summary: 'One report template',
    auth: 'account',
    handler: (input) => library.template(caller(input), input.params.templateId),
  });
  defineCallRoute(app, calls.updateTemplate, {
    summary: 'Change a report template (the fields given)',
    auth: 'account',
    handler: (input) => library.updateTemplate(caller(input), input.params.templateId, input.body),
  });
  defineCallRoute(app, calls.deleteTemplate, {
    summary: 'Delete a report template',
    auth: 'account',
    handler: (input) => library.deleteTemplate(caller(input), input.params.templateId),
  });
  defineCallRoute(app, calls.layouts, {
    summary: 'The layouts reports (1), exam forms (2) and consultations (3) print in',
    auth: 'account',
    handler: ({ query }) => library.layouts(query.type),
  });

  /* ---------- image description templates ---------- */
  const upsertDesc = {
    action: 'template_upsert',
    owner: ownerFrom('descTemplateId', ownerOfDescTemplate, db),
  } as const;
  defineCallRoute(app, calls.descTemplates, {
    summary: "The organization's image description templates",
    auth: readInQuery,
    handler: (input) => library.descTemplates(caller(input), input.query.bucketId),
  });
  defineCallRoute(app, calls.createDescTemplate, {
    summary: 'An image description template of an organization (template_upsert)',
    auth: 'account',
    handler: (input) => library.createDescTemplate(caller(input), input.body),
  });
  defineCallRoute(app, calls.updateDescTemplate, {
    summary: 'Change an image description template (the fields given)',
    auth: upsertDesc,
    handler: (input) =>
      library.updateDescTemplate(caller(input), input.bucket.id, input.params.descTemplateId, input.body),
  });
  defineCallRoute(app, calls.deleteDescTemplate, {
    summary: 'Delete an image description template',
    auth: upsertDesc,
    handler: (input) => library.deleteDescTemplate(caller(input), input.bucket.id, input.params.descTemplateId),
  });

  /* ---------- knowledge base ---------- */
  defineCallRoute(app, calls.kbQuery, {
    summary: "The caller's phrases and the organization's, as two flat lists in order (search with q)",
    auth: readInQuery,
    handler: (input) => kb.query(caller(input), input.query.bucketId, input.query.q),
  });
  defineCallRoute(app, calls.createKbItem, {
    summary: "A phrase or folder in the caller's knowledge base or the organization's (template_upsert)",
    auth: 'account',
    handler: (input) => kb.create(caller(input), input.body),
  });
  defineCallRoute(app, calls.updateKbItem, {
    summary: 'Rename, rewrite or move a knowledge-base item',
    auth: 'account',
    handler: (input) => kb.update(caller(input), input.params.kbItemId, input.body),
  });
  defineCallRoute(app, calls.deleteKbItem, {
    summary: 'Delete a knowledge-base item (a folder with everything in it)',
    auth: 'account',
    handler: (input) => kb.remove(caller(input), input.params.kbItemId),
  });
  defineCallRoute(app, calls.resortKbItem, {
    summary: 'Put a knowledge-base item right after preId among its siblings (null: first)',
    auth: 'account',
    handler: (input) => kb.resort(caller(input), input.params.kbItemId, input.body),
  });

  /* ---------- sample graphs ---------- */
  defineCallRoute(app, calls.sampleGraphs, {
    summary: "The organization's sample graphs, each with an expiring link to its image",
    auth: readInQuery,
    handler: (input) => library.sampleGraphs(caller(input), input.query.bucketId),
  });
  defineCallRoute(app, calls.deleteSampleGraph, {
    summary: 'Delete a sample graph and its image',
    auth: { action: 'manage_sample_graph', owner: ownerFrom('sampleGraphId', ownerOfSampleGraph, db) },
    handler: (input) => library.deleteSampleGraph(caller(input), input.bucket.id, input.params.sampleGraphId),
  });
  // The image arrives as the body itself; the parser is scoped to this route's plugin.
  void app.register(async (scope) => {
    scope.addContentTypeParser(
      [...SAMPLE_GRAPH_TYPES],
      { parseAs: 'buffer', bodyLimit: SAMPLE_GRAPH_MAX_BYTES },
      (_req, body, done) => done(null, body),
    );
    defineCallRoute(scope, calls.addSampleGraph, {
      summary: 'A sample graph: the body is the PNG or JPEG image (≤ 5 MB), its size read from its header',
      auth: { action: 'manage_sample_graph', owner: fromQuery },
      handler: (input) => {
        const body = input.request.body;
        if (!Buffer.isBuffer(body) || body.length === 0) {
          throw new AppError('UnsupportedMediaType', 'Send the image as image/png or image/jpeg');
        }
        return library.addSampleGraph(caller(input), input.bucket.id, input.query.title, body);
      },
    });
  });
}
