import {
  SAMPLE_GRAPH_MAX_BYTES,
  SAMPLE_GRAPH_TYPES,
  createImageDescTemplateSchema,
  createKbItemSchema,
  createReportTemplateSchema,
  imageDescTemplateListQuerySchema,
  imageDescTemplateListSchema,
  imageDescTemplateSchema,
  kbItemSchema,
  kbQuerySchema,
  kbTreesSchema,
  reportTemplateLayoutListSchema,
  reportTemplateLayoutQuerySchema,
  reportTemplateListQuerySchema,
  reportTemplateListSchema,
  reportTemplateSchema,
  resortKbItemSchema,
  sampleGraphListQuerySchema,
  sampleGraphListSchema,
  sampleGraphSchema,
  sampleGraphUploadQuerySchema,
  updateImageDescTemplateSchema,
  updateKbItemSchema,
  updateReportTemplateSchema,
} from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { auditContext } from '../../platform/audit.js';
import type { Db } from '../../platform/db.js';
import { AppError } from '../../platform/errors.js';
import { defineRoute, ownerFrom, type AuthedInput, type RawInput } from '../../platform/route.js';
import type { KnowledgeBaseService } from './kb.service.js';
import type { LibraryCaller } from './report-library.access.js';
import type { ReportLibraryService } from './report-library.service.js';
import { ownerOfDescTemplate, ownerOfSampleGraph } from './report-library.owners.js';

const templateParams = z.object({ templateId: z.string().max(64) });
const descTemplateParams = z.object({ descTemplateId: z.string().max(64) });
const kbItemParams = z.object({ kbItemId: z.string().max(64) });
const sampleGraphParams = z.object({ sampleGraphId: z.string().max(64) });

const caller = (input: Pick<AuthedInput<undefined, undefined, undefined>, 'account' | 'request'>): LibraryCaller => ({
  account: input.account,
  ctx: auditContext(input.request),
});
const fromQuery = ({ query }: RawInput) => (typeof query.bucketId === 'string' ? query.bucketId : undefined);
/** Lists need only a visible organization here; the service checks its report material. */
const readInQuery = { action: 'bucket_read', owner: fromQuery } as const;

/**
 * The report library (spec 001 §7 "Reports": report-templates, report-template-layouts,
 * image-desc-templates, sample-graphs; "Knowledge base": kb-items). Rows that may be personal
 * (templates, knowledge-base items) or that name their organization in the body are checked by
 * the service; the others name their organization here.
 */
export function reportLibraryRoutes(
  app: FastifyInstance,
  db: Db,
  library: ReportLibraryService,
  kb: KnowledgeBaseService,
): void {
  /* ---------- report templates ---------- */
  defineRoute(app, {
    method: 'GET',
    url: 'report-templates',
    summary: "The organization's report templates and the caller's own (filter by modality, search title or category)",
    auth: readInQuery,
    query: reportTemplateListQuerySchema,
    response: reportTemplateListSchema,
    handler: (input) => library.templates(caller(input), input.query),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'report-templates',
    summary: "A report template of an organization (template_upsert) or the caller's own",
    auth: 'account',
    body: createReportTemplateSchema,
    response: reportTemplateSchema,
    status: 201,
    handler: (input) => library.createTemplate(caller(input), input.body),
  });
  defineRoute(app, {
    method: 'GET',
    url: 'report-templates/:templateId',
    summary: 'One report template',
    auth: 'account',
    params: templateParams,
    response: reportTemplateSchema,
    handler: (input) => library.template(caller(input), input.params.templateId),
  });
  defineRoute(app, {
    method: 'PUT',
    url: 'report-templates/:templateId',
    summary: 'Change a report template (the fields given)',
    auth: 'account',
    params: templateParams,
    body: updateReportTemplateSchema,
    response: reportTemplateSchema,
    handler: (input) => library.updateTemplate(caller(input), input.params.templateId, input.body),
  });
  defineRoute(app, {
    method: 'DELETE',
    url: 'report-templates/:templateId',
    summary: 'Delete a report template',
    auth: 'account',
    params: templateParams,
    status: 204,
    handler: (input) => library.deleteTemplate(caller(input), input.params.templateId),
  });
  defineRoute(app, {
    method: 'GET',
    url: 'report-template-layouts/query',
    summary: 'The layouts reports (1), exam forms (2) and consultations (3) print in',
    auth: 'account',
    query: reportTemplateLayoutQuerySchema,
    response: reportTemplateLayoutListSchema,
    handler: ({ query }) => library.layouts(query.type),
  });

  /* ---------- image description templates ---------- */
  const descTemplateOwner = ownerFrom('descTemplateId', ownerOfDescTemplate, db);
  defineRoute(app, {
    method: 'GET',
    url: 'image-desc-templates/find-by-org',
    summary: "The organization's image description templates",
    auth: readInQuery,
    query: imageDescTemplateListQuerySchema,
    response: imageDescTemplateListSchema,
    handler: (input) => library.descTemplates(caller(input), input.query.bucketId),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'image-desc-templates',
    summary: 'An image description template of an organization (template_upsert)',
    auth: 'account',
    body: createImageDescTemplateSchema,
    response: imageDescTemplateSchema,
    status: 201,
    handler: (input) => library.createDescTemplate(caller(input), input.body),
  });
  defineRoute(app, {
    method: 'PATCH',
    url: 'image-desc-templates/:descTemplateId',
    summary: 'Change an image description template (the fields given)',
    auth: { action: 'template_upsert', owner: descTemplateOwner },
    params: descTemplateParams,
    body: updateImageDescTemplateSchema,
    response: imageDescTemplateSchema,
    handler: (input) =>
      library.updateDescTemplate(caller(input), input.bucket.id, input.params.descTemplateId, input.body),
  });
  defineRoute(app, {
    method: 'DELETE',
    url: 'image-desc-templates/:descTemplateId',
    summary: 'Delete an image description template',
    auth: { action: 'template_upsert', owner: descTemplateOwner },
    params: descTemplateParams,
    status: 204,
    handler: (input) => library.deleteDescTemplate(caller(input), input.bucket.id, input.params.descTemplateId),
  });

  /* ---------- knowledge base ---------- */
  defineRoute(app, {
    method: 'GET',
    url: 'kb-items/query',
    summary: "The caller's phrases and the organization's, as two flat lists in order (search with q)",
    auth: readInQuery,
    query: kbQuerySchema,
    response: kbTreesSchema,
    handler: (input) => kb.query(caller(input), input.query.bucketId, input.query.q),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'kb-items',
    summary: "A phrase or folder in the caller's knowledge base or the organization's (template_upsert)",
    auth: 'account',
    body: createKbItemSchema,
    response: kbItemSchema,
    status: 201,
    handler: (input) => kb.create(caller(input), input.body),
  });
  defineRoute(app, {
    method: 'PATCH',
    url: 'kb-items/:kbItemId',
    summary: 'Rename, rewrite or move a knowledge-base item',
    auth: 'account',
    params: kbItemParams,
    body: updateKbItemSchema,
    response: kbItemSchema,
    handler: (input) => kb.update(caller(input), input.params.kbItemId, input.body),
  });
  defineRoute(app, {
    method: 'DELETE',
    url: 'kb-items/:kbItemId',
    summary: 'Delete a knowledge-base item (a folder with everything in it)',
    auth: 'account',
    params: kbItemParams,
    status: 204,
    handler: (input) => kb.remove(caller(input), input.params.kbItemId),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'kb-items/:kbItemId/resort',
    summary: 'Put a knowledge-base item right after preId among its siblings (null: first)',
    auth: 'account',
    params: kbItemParams,
    body: resortKbItemSchema,
    response: kbItemSchema,
    handler: (input) => kb.resort(caller(input), input.params.kbItemId, input.body),
  });

  /* ---------- sample graphs ---------- */
  defineRoute(app, {
    method: 'GET',
    url: 'sample-graphs/query',
    summary: "The organization's sample graphs, each with an expiring link to its image",
    auth: readInQuery,
    query: sampleGraphListQuerySchema,
    response: sampleGraphListSchema,
    handler: (input) => library.sampleGraphs(caller(input), input.query.bucketId),
  });
  defineRoute(app, {
    method: 'DELETE',
    url: 'sample-graphs/:sampleGraphId',
    summary: 'Delete a sample graph and its image',
    auth: { action: 'manage_sample_graph', owner: ownerFrom('sampleGraphId', ownerOfSampleGraph, db) },
    params: sampleGraphParams,
    status: 204,
    handler: (input) => library.deleteSampleGraph(caller(input), input.bucket.id, input.params.sampleGraphId),
  });
  // The image arrives as the body itself; the parser is scoped to this route's plugin.
  void app.register(async (scope) => {
    scope.addContentTypeParser(
      [...SAMPLE_GRAPH_TYPES],
      { parseAs: 'buffer', bodyLimit: SAMPLE_GRAPH_MAX_BYTES },
      (_req, body, done) => done(null, body),
    );
    defineRoute(scope, {
      method: 'POST',
      url: 'sample-graphs/new',
      summary: 'A sample graph: the body is the PNG or JPEG image (≤ 5 MB), its size read from its header',
      auth: { action: 'manage_sample_graph', owner: fromQuery },
      query: sampleGraphUploadQuerySchema,
      response: sampleGraphSchema,
      status: 201,
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
