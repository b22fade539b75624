import crypto from 'node:crypto';
import {
  REPORT_TEMPLATE_LAYOUTS,
  SAMPLE_GRAPH_MAX_BYTES,
  type CreateImageDescTemplate,
  type CreateReportTemplate,
  type ImageDescTemplate,
  type ReportLayoutType,
  type ReportTemplate,
  type ReportTemplateLayout,
  type ReportTemplateListQuery,
  type SampleGraph,
  type UpdateImageDescTemplate,
  type UpdateReportTemplate,
} from '@yyp/contracts';
import type { sampleGraphs } from '../../db/schema.js';
import { imageLink, type BlobStore } from '../../platform/blobs.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { AppError, errors } from '../../platform/errors.js';
import { readImageHeader } from './image-header.js';
import { auditChange, LibraryAccess, type LibraryCaller } from './report-library.access.js';
import {
  mayEditTemplate,
  personalRowRefusal,
  SAMPLE_GRAPH_WRITE_ACTION,
  TEMPLATE_WRITE_ACTION,
} from './report-library.policy.js';
import { presentDescTemplate, presentSampleGraph, presentTemplate } from './report-library.presenter.js';
import * as store from './report-library.store.js';

const defined = <T extends object>(change: T): Partial<T> =>
  Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined)) as Partial<T>;

/**
 * Report templates (an organization's and each doctor's own), their print layouts, image
 * description templates and sample graphs. Access first in every method: reading needs the
 * organization's report material (LibraryAccess), writing template_upsert or manage_sample_graph;
 * a personal template is its owner's alone, anyone else gets 404.
 */
export class ReportLibraryService {
  private readonly access: LibraryAccess;

  constructor(
    private readonly db: Db,
    private readonly blobs: BlobStore,
    private readonly clock: Clock,
  ) {
    this.access = new LibraryAccess(db);
  }

  /* ---------- report templates ---------- */

  /** GET report-templates: the organization's templates, then the caller's own. */
  async templates(caller: LibraryCaller, query: ReportTemplateListQuery): Promise<ReportTemplate[]> {
    const actions = await this.access.require(caller, query.bucketId, 'read');
    const rows = await store.listTemplates(this.db, {
      bucketId: query.bucketId,
      ownerId: caller.account.id,
      modality: query.modality,
      q: query.q,
    });
    return rows.map((r) => presentTemplate(r, mayEditTemplate(r.scope, actions)));
  }

  /** GET report-templates/{id} */
  async template(caller: LibraryCaller, id: string): Promise<ReportTemplate> {
    const row = await this.templateRow(caller, id, 'read');
    return presentTemplate(row, await this.mayEditTemplate(caller, row));
  }

  /** POST report-templates */
  async createTemplate(caller: LibraryCaller, input: CreateReportTemplate): Promise<ReportTemplate> {
    if (input.scope === 'bucket') await this.access.require(caller, input.bucketId, TEMPLATE_WRITE_ACTION);
    else await this.access.requireMember(caller);
    const { scope, ...fields } = input;
    const row = await this.db.transaction(async (tx) => {
      const inserted = await store.insertTemplate(
        tx,
        {
          ...fields,
          id: crypto.randomUUID(),
          scope,
          bucketId: input.scope === 'bucket' ? input.bucketId : null,
          ownerId: input.scope === 'personal' ? caller.account.id : null,
          createdBy: caller.account.id,
        },
        this.clock.now(),
      );
      await auditChange(tx, caller, {
        action: 'report_template.create',
        targetType: 'report_template',
        targetId: inserted.id,
        bucketId: inserted.bucketId,
        details: { scope, title: inserted.title },
      });
      return inserted;
    });
    return presentTemplate(row, true);
  }

  /** PUT report-templates/{id}: the fields given. */
  async updateTemplate(caller: LibraryCaller, id: string, change: UpdateReportTemplate): Promise<ReportTemplate> {
    const current = await this.templateRow(caller, id, TEMPLATE_WRITE_ACTION);
    const row = await this.db.transaction(async (tx) => {
      const updated = await store.updateTemplate(tx, current.id, defined(change), this.clock.now());
      if (!updated) throw errors.notFound('Report template');
      await auditChange(tx, caller, {
        action: 'report_template.update',
        targetType: 'report_template',
        targetId: id,
        bucketId: updated.bucketId,
        details: { fields: Object.keys(defined(change)) },
      });
      return updated;
    });
    return presentTemplate(row, true);
  }

  /** DELETE report-templates/{id} */
  async deleteTemplate(caller: LibraryCaller, id: string): Promise<void> {
    const current = await this.templateRow(caller, id, TEMPLATE_WRITE_ACTION);
    await this.db.transaction(async (tx) => {
      if (!(await store.deleteTemplate(tx, current.id))) throw errors.notFound('Report template');
      await auditChange(tx, caller, {
        action: 'report_template.delete',
        targetType: 'report_template',
        targetId: id,
        bucketId: current.bucketId,
        details: { title: current.title },
      });
    });
  }

  /** A template the caller may read (or, with template_upsert, change): personal ones are the owner's alone. */
  private async templateRow(caller: LibraryCaller, id: string, need: 'read' | typeof TEMPLATE_WRITE_ACTION) {
    const row = await store.findTemplate(this.db, id);
    if (!row) throw errors.notFound('Report template');
    if (row.scope === 'personal') {
      const refusal = personalRowRefusal(row.ownerId, caller.account.id, 'Report template');
      if (refusal) throw refusal;
      return row;
    }
    await this.access.require(caller, row.bucketId ?? '', need);
    return row;
  }

  private async mayEditTemplate(caller: LibraryCaller, row: { scope: string; bucketId: string | null }) {
    if (row.scope === 'personal') return true;
    const found = await this.access.actionsIn(caller.account, row.bucketId ?? '');
    return mayEditTemplate(row.scope, found?.actions ?? null);
  }

  /* ---------- layouts ---------- */

  /** GET report-template-layouts/query: the fixed layouts, of one type or all. */
  layouts(type: ReportLayoutType | undefined): ReportTemplateLayout[] {
    return REPORT_TEMPLATE_LAYOUTS.filter((l) => type === undefined || l.type === type);
  }

  /* ---------- image description templates ---------- */

  /** GET image-desc-templates/find-by-org */
  async descTemplates(caller: LibraryCaller, bucketId: string): Promise<ImageDescTemplate[]> {
    await this.access.require(caller, bucketId, 'read');
    return (await store.listDescTemplates(this.db, bucketId)).map(presentDescTemplate);
  }

  /** POST image-desc-templates */
  async createDescTemplate(caller: LibraryCaller, input: CreateImageDescTemplate): Promise<ImageDescTemplate> {
    await this.access.require(caller, input.bucketId, TEMPLATE_WRITE_ACTION);
    const row = await this.db.transaction(async (tx) => {
      const inserted = await store.insertDescTemplate(
        tx,
        { ...input, id: crypto.randomUUID(), createdBy: caller.account.id },
        this.clock.now(),
      );
      await auditChange(tx, caller, {
        action: 'image_desc_template.create',
        targetType: 'image_desc_template',
        targetId: inserted.id,
        bucketId: input.bucketId,
        details: { title: inserted.title },
      });
      return inserted;
    });
    return presentDescTemplate(row);
  }

  /** PATCH image-desc-templates/{id} (the route holds template_upsert in the template's organization). */
  async updateDescTemplate(
    caller: LibraryCaller,
    bucketId: string,
    id: string,
    change: UpdateImageDescTemplate,
  ): Promise<ImageDescTemplate> {
    await this.access.require(caller, bucketId, TEMPLATE_WRITE_ACTION);
    const row = await this.db.transaction(async (tx) => {
      const updated = await store.updateDescTemplate(tx, bucketId, id, defined(change), this.clock.now());
      if (!updated) throw errors.notFound('Image description template');
      await auditChange(tx, caller, {
        action: 'image_desc_template.update',
        targetType: 'image_desc_template',
        targetId: id,
        bucketId: bucketId,
        details: { fields: Object.keys(defined(change)) },
      });
      return updated;
    });
    return presentDescTemplate(row);
  }

  /** DELETE image-desc-templates/{id} */
  async deleteDescTemplate(caller: LibraryCaller, bucketId: string, id: string): Promise<void> {
    await this.access.require(caller, bucketId, TEMPLATE_WRITE_ACTION);
    await this.db.transaction(async (tx) => {
      if (!(await store.deleteDescTemplate(tx, bucketId, id))) throw errors.notFound('Image description template');
      await auditChange(tx, caller, {
        action: 'image_desc_template.delete',
        targetType: 'image_desc_template',
        targetId: id,
        bucketId: bucketId,
      });
    });
  }

  /* ---------- sample graphs ---------- */

  /** GET sample-graphs/query: each with an expiring link to its image. */
  async sampleGraphs(caller: LibraryCaller, bucketId: string): Promise<SampleGraph[]> {
    await this.access.require(caller, bucketId, 'read');
    const rows = await store.listSampleGraphs(this.db, bucketId);
    return Promise.all(rows.map(async (r) => presentSampleGraph(r, await this.imageUrl(r))));
  }

  /** POST sample-graphs/new: a PNG or JPEG (≤ 5 MB) whose size is read from its header. */
  async addSampleGraph(caller: LibraryCaller, bucketId: string, title: string, bytes: Buffer): Promise<SampleGraph> {
    await this.access.require(caller, bucketId, SAMPLE_GRAPH_WRITE_ACTION);
    if (bytes.length > SAMPLE_GRAPH_MAX_BYTES) throw new AppError('PayloadTooLarge', 'A sample graph is at most 5 MB');
    const header = readImageHeader(bytes);
    if (!header) throw errors.validation('The sample graph is not a PNG or JPEG image', { field: 'body' });
    const id = crypto.randomUUID();
    const key = `sample-graphs/${bucketId}/${id}.${header.contentType === 'image/png' ? 'png' : 'jpg'}`;
    await this.blobs.put(key, bytes);
    try {
      const row = await this.db.transaction(async (tx) => {
        const inserted = await store.insertSampleGraph(
          tx,
          {
            id,
            bucketId,
            title,
            blobKey: key,
            contentType: header.contentType,
            width: header.width,
            height: header.height,
            createdBy: caller.account.id,
          },
          this.clock.now(),
        );
        await auditChange(tx, caller, {
          action: 'sample_graph.create',
          targetType: 'sample_graph',
          targetId: id,
          bucketId: bucketId,
          details: { title, size: bytes.length },
        });
        return inserted;
      });
      return presentSampleGraph(row, await this.imageUrl(row));
    } catch (err) {
      await this.blobs.delete(key).catch(() => undefined);
      throw err;
    }
  }

  /** DELETE sample-graphs/{id}: the row, then its image. */
  async deleteSampleGraph(caller: LibraryCaller, bucketId: string, id: string): Promise<void> {
    await this.access.require(caller, bucketId, SAMPLE_GRAPH_WRITE_ACTION);
    const gone = await this.db.transaction(async (tx) => {
      const row = await store.deleteSampleGraph(tx, bucketId, id);
      if (!row) throw errors.notFound('Sample graph');
      await auditChange(tx, caller, {
        action: 'sample_graph.delete',
        targetType: 'sample_graph',
        targetId: id,
        bucketId: bucketId,
        details: { title: row.title },
      });
      return row;
    });
    await this.blobs.delete(gone.blobKey).catch(() => undefined);
  }

  /** An expiring link to a sample graph's image (also used for the graphs placed on reports). */
  imageUrl(row: typeof sampleGraphs.$inferSelect): Promise<string> {
    return imageLink(this.blobs, row);
  }
}
