import type {
  ImageDescTemplate,
  KbItem,
  KbItemType,
  ReportTemplate,
  ReportTemplateScope,
  SampleGraph,
} from '@yyp/contracts';
import type { imageDescTemplates, kbItems, reportTemplates, sampleGraphs } from '../../db/schema.js';

/** Rows never leave raw: each answer of the report library is shaped here to its contract. */

type TemplateRow = typeof reportTemplates.$inferSelect;
type DescTemplateRow = typeof imageDescTemplates.$inferSelect;
type KbItemRow = typeof kbItems.$inferSelect;
type SampleGraphRow = typeof sampleGraphs.$inferSelect;

export const presentTemplate = (r: TemplateRow, editable: boolean): ReportTemplate => ({
  id: r.id,
  scope: r.scope as ReportTemplateScope,
  bucketId: r.bucketId,
  ownerId: r.ownerId,
  category: r.category,
  title: r.title,
  modality: r.modality,
  bodyPart: r.bodyPart,
  findings: r.findings,
  conclusion: r.conclusion,
  editable,
  createdTime: r.createdAt.toISOString(),
  updatedTime: r.updatedAt.toISOString(),
});

export const presentDescTemplate = (r: DescTemplateRow): ImageDescTemplate => ({
  id: r.id,
  bucketId: r.bucketId,
  title: r.title,
  modality: r.modality,
  bodyPart: r.bodyPart,
  content: r.content,
  createdTime: r.createdAt.toISOString(),
  updatedTime: r.updatedAt.toISOString(),
});

export const presentKbItem = (r: KbItemRow): KbItem => ({
  id: r.id,
  parentId: r.parentId,
  referenceId: r.referenceId,
  type: r.type as KbItemType,
  bucketId: r.bucketId,
  title: r.title,
  content: r.content,
  isFolder: r.isFolder,
  position: r.position,
  createdTime: r.createdAt.toISOString(),
  updatedTime: r.updatedAt.toISOString(),
});

export const presentSampleGraph = (r: SampleGraphRow, url: string): SampleGraph => ({
  id: r.id,
  bucketId: r.bucketId,
  title: r.title,
  url,
  contentType: r.contentType,
  width: r.width,
  height: r.height,
  index: r.position,
  createdTime: r.createdAt.toISOString(),
});
