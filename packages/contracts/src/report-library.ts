import { z } from 'zod';

/**
 * The report library (spec 000 §3 knowledge-base item, image description template, sample graph;
 * spec 001 §7 "Reports" and "Knowledge base"): what a doctor draws on while writing a report —
 * report templates, the layouts they print in, image description templates, the knowledge base of
 * common phrases and the sample graphs on which points are marked.
 */

export const LIBRARY_TITLE_MAX = 64;
export const LIBRARY_CATEGORY_MAX = 32;
export const LIBRARY_TEXT_MAX = 20_000;
export const LIBRARY_MODALITY_MAX = 16;
export const LIBRARY_BODY_PART_MAX = 64;
export const LIBRARY_SEARCH_MAX = 64;

const id = z.string().min(1).max(64);
const title = z.string().trim().min(1, 'The title is required').max(LIBRARY_TITLE_MAX);
const category = z.string().trim().max(LIBRARY_CATEGORY_MAX);
const text = z.string().max(LIBRARY_TEXT_MAX);
const modality = z.string().trim().max(LIBRARY_MODALITY_MAX);
const bodyPart = z.string().trim().max(LIBRARY_BODY_PART_MAX);
const search = z.string().trim().max(LIBRARY_SEARCH_MAX);

/* ---------- report templates ---------- */

/** An organization's template (scope bucket, edited with template_upsert) or one doctor's own (personal). */
export const REPORT_TEMPLATE_SCOPES = ['bucket', 'personal'] as const;
export type ReportTemplateScope = (typeof REPORT_TEMPLATE_SCOPES)[number];

export const reportTemplateSchema = z.object({
  id: z.string(),
  scope: z.enum(REPORT_TEMPLATE_SCOPES),
  /** the organization of a bucket template; null for a personal one */
  bucketId: z.string().nullable(),
  /** the owner of a personal template; null for a bucket one */
  ownerId: z.string().nullable(),
  category: z.string(),
  title: z.string(),
  modality: z.string(),
  bodyPart: z.string(),
  findings: z.string(),
  conclusion: z.string(),
  /** whether the caller may change or delete it */
  editable: z.boolean(),
  createdTime: z.string(),
  updatedTime: z.string(),
});
export type ReportTemplate = z.infer<typeof reportTemplateSchema>;
export const reportTemplateListSchema = z.array(reportTemplateSchema);

/**
 * GET report-templates: the organization's templates and the caller's personal ones. With
 * `modality`, the templates of that modality and those made for any modality (modality '');
 * `q` matches title or category, ignoring case.
 */
export const reportTemplateListQuerySchema = z.object({
  bucketId: id,
  modality: modality.optional(),
  q: search.optional(),
});
export type ReportTemplateListQuery = z.infer<typeof reportTemplateListQuerySchema>;

const templateFields = {
  category: category.default(''),
  title,
  modality: modality.default(''),
  bodyPart: bodyPart.default(''),
  findings: text.default(''),
  conclusion: text.default(''),
};

/** POST report-templates: a bucket template names its organization; a personal one names none. */
export const createReportTemplateSchema = z.discriminatedUnion('scope', [
  z.object({ scope: z.literal('bucket'), bucketId: id, ...templateFields }).strict(),
  z.object({ scope: z.literal('personal'), ...templateFields }).strict(),
]);
export type CreateReportTemplate = z.infer<typeof createReportTemplateSchema>;

/** PUT report-templates/{id}: the fields given are replaced; scope and organization never change. */
export const updateReportTemplateSchema = z
  .object({
    category: category.optional(),
    title: title.optional(),
    modality: modality.optional(),
    bodyPart: bodyPart.optional(),
    findings: text.optional(),
    conclusion: text.optional(),
  })
  .strict();
export type UpdateReportTemplate = z.infer<typeof updateReportTemplateSchema>;

/* ---------- report template layouts ---------- */

/** Layout types: 1 report, 2 exam (registry) form, 3 consultation (spec 000 §9 "layout type 3"). */
export const REPORT_LAYOUT_TYPES = [1, 2, 3] as const;
export type ReportLayoutType = (typeof REPORT_LAYOUT_TYPES)[number];
export const REPORT_LAYOUT_TYPE = { report: 1, examForm: 2, consultation: 3 } as const;

export const REPORT_LAYOUT_SECTIONS = [
  'header',
  'patient',
  'exam',
  'order',
  'clinicImpression',
  'images',
  'sampleGraph',
  'findings',
  'conclusion',
  'advice',
  'clinicCase',
  'consultationExams',
  'suggestion',
  'treatmentPlan',
  'experts',
  'signature',
  'footer',
] as const;
export type ReportLayoutSection = (typeof REPORT_LAYOUT_SECTIONS)[number];

export const reportTemplateLayoutSchema = z.object({
  id: z.string(),
  type: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  /** i18n key of the layout's name */
  nameKey: z.string(),
  /** the sections printed, top to bottom */
  sections: z.array(z.enum(REPORT_LAYOUT_SECTIONS)),
});
export type ReportTemplateLayout = z.infer<typeof reportTemplateLayoutSchema>;
export const reportTemplateLayoutListSchema = z.array(reportTemplateLayoutSchema);

/** The layouts a report, an exam form or a consultation prints in: fixed, the same for everyone. */
export const REPORT_TEMPLATE_LAYOUTS: readonly ReportTemplateLayout[] = [
  {
    id: 'report-standard',
    type: 1,
    nameKey: 'reportLayout.reportStandard',
    sections: ['header', 'patient', 'exam', 'findings', 'conclusion', 'advice', 'signature', 'footer'],
  },
  {
    id: 'report-images',
    type: 1,
    nameKey: 'reportLayout.reportImages',
    sections: ['header', 'patient', 'exam', 'images', 'findings', 'conclusion', 'advice', 'signature', 'footer'],
  },
  {
    id: 'report-sample-graph',
    type: 1,
    nameKey: 'reportLayout.reportSampleGraph',
    sections: ['header', 'patient', 'exam', 'sampleGraph', 'findings', 'conclusion', 'signature', 'footer'],
  },
  {
    id: 'exam-form',
    type: 2,
    nameKey: 'reportLayout.examForm',
    sections: ['header', 'patient', 'order', 'exam', 'clinicImpression', 'signature'],
  },
  {
    id: 'consultation-standard',
    type: 3,
    nameKey: 'reportLayout.consultationStandard',
    sections: [
      'header',
      'patient',
      'clinicCase',
      'consultationExams',
      'suggestion',
      'treatmentPlan',
      'experts',
      'signature',
    ],
  },
];

/** GET report-template-layouts/query?type=1|2|3 (all types when omitted). */
export const reportTemplateLayoutQuerySchema = z.object({
  type: z.coerce
    .number()
    .int()
    .pipe(z.union([z.literal(1), z.literal(2), z.literal(3)]))
    .optional(),
});

/* ---------- image description templates ---------- */

export const imageDescTemplateSchema = z.object({
  id: z.string(),
  bucketId: z.string(),
  title: z.string(),
  modality: z.string(),
  bodyPart: z.string(),
  content: z.string(),
  createdTime: z.string(),
  updatedTime: z.string(),
});
export type ImageDescTemplate = z.infer<typeof imageDescTemplateSchema>;
export const imageDescTemplateListSchema = z.array(imageDescTemplateSchema);

/** GET image-desc-templates/find-by-org?bucketId */
export const imageDescTemplateListQuerySchema = z.object({ bucketId: id });

/** POST image-desc-templates */
export const createImageDescTemplateSchema = z
  .object({
    bucketId: id,
    title,
    modality: modality.default(''),
    bodyPart: bodyPart.default(''),
    content: text.default(''),
  })
  .strict();
export type CreateImageDescTemplate = z.infer<typeof createImageDescTemplateSchema>;

/** PATCH image-desc-templates/{id}: the fields given are replaced. */
export const updateImageDescTemplateSchema = z
  .object({
    title: title.optional(),
    modality: modality.optional(),
    bodyPart: bodyPart.optional(),
    content: text.optional(),
  })
  .strict();
export type UpdateImageDescTemplate = z.infer<typeof updateImageDescTemplateSchema>;

/* ---------- knowledge base ---------- */

/** A personal item belongs to its owner; a group item to an organization (spec 000 §3). */
export const KB_ITEM_TYPES = ['personal', 'group'] as const;
export type KbItemType = (typeof KB_ITEM_TYPES)[number];

export const kbItemSchema = z.object({
  id: z.string(),
  parentId: z.string().nullable(),
  referenceId: z.string().nullable(),
  type: z.enum(KB_ITEM_TYPES),
  bucketId: z.string().nullable(),
  title: z.string(),
  content: z.string(),
  isFolder: z.boolean(),
  /** order among its siblings (ascending) */
  position: z.number(),
  createdTime: z.string(),
  updatedTime: z.string(),
});
export type KbItem = z.infer<typeof kbItemSchema>;

/**
 * GET kb-items/query: both trees as flat lists in tree order (each folder followed by what it
 * holds, siblings by position); parentId builds the tree.
 */
export const kbTreesSchema = z.object({
  personal: z.array(kbItemSchema),
  group: z.array(kbItemSchema),
});
export type KbTrees = z.infer<typeof kbTreesSchema>;

/** With `q`, the items whose title or content holds it, with the folders above them. */
export const kbQuerySchema = z.object({ bucketId: id, q: search.optional() });

/** POST kb-items: a group item names its organization (a personal one ignores bucketId). */
export const createKbItemSchema = z
  .object({
    type: z.enum(KB_ITEM_TYPES),
    bucketId: id.optional(),
    /** a folder of the same tree; null or absent: the top level */
    parentId: id.nullable().optional(),
    title,
    content: text.default(''),
    isFolder: z.boolean().default(false),
  })
  .strict()
  .refine((b) => b.type !== 'group' || b.bucketId !== undefined, {
    message: 'A group item names its organization',
    path: ['bucketId'],
  });
export type CreateKbItem = z.infer<typeof createKbItemSchema>;

/** PATCH kb-items/{id}: a new parent puts the item last among its new siblings. */
export const updateKbItemSchema = z
  .object({
    title: title.optional(),
    content: text.optional(),
    parentId: id.nullable().optional(),
  })
  .strict();
export type UpdateKbItem = z.infer<typeof updateKbItemSchema>;

/**
 * POST kb-items/{id}/resort: the item goes right after preId among its siblings (null: first);
 * with parentId (null: the top level), it moves into that folder first.
 */
export const resortKbItemSchema = z
  .object({
    preId: id.nullable(),
    parentId: id.nullable().optional(),
  })
  .strict();
export type ResortKbItem = z.infer<typeof resortKbItemSchema>;

/* ---------- sample graphs ---------- */

export const SAMPLE_GRAPH_TYPES = ['image/png', 'image/jpeg'] as const;
export const SAMPLE_GRAPH_MAX_BYTES = 5 * 1024 * 1024;

export const sampleGraphSchema = z.object({
  id: z.string(),
  bucketId: z.string(),
  title: z.string(),
  /** an expiring download link of the image */
  url: z.string(),
  contentType: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  index: z.number().int(),
  createdTime: z.string(),
});
export type SampleGraph = z.infer<typeof sampleGraphSchema>;
export const sampleGraphListSchema = z.array(sampleGraphSchema);

/** GET sample-graphs/query?bucketId */
export const sampleGraphListQuerySchema = z.object({ bucketId: id });

/** POST sample-graphs/new?bucketId&title, the body being the PNG or JPEG image itself. */
export const sampleGraphUploadQuerySchema = z.object({ bucketId: id, title });

/**
 * Image marking (spec 000 §9): a marked point is a circle of radius 12 with a label in a 24 px
 * font on an image 400 px high, scaled with the image's height.
 */
export const MARK_CIRCLE_RADIUS = 12;
export const MARK_FONT_SIZE = 24;
export const MARK_REFERENCE_HEIGHT = 400;
export const markScale = (height: number): number => height / MARK_REFERENCE_HEIGHT;
