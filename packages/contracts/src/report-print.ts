import { z } from 'zod';
import { examStudyFields, REPORT_STATUSES } from './exams.js';
import { samplePointSchema } from './reports.js';
import { GROUP_ATTRIBUTE_KEYS } from './tenancy.js';

/**
 * Printing a report (spec 000 §3 Organization "print templates", §5 "printing sheets: selected
 * checks must be on the same day to be merged", §6 report_print and "only the organization admin
 * sets print templates", §9 logo 128×128 PNG/JPEG, stamps PNG, image column default 2; spec 001
 * §7 reports/{id}/update-print-time, §8 "no print template configured").
 */

export const PRINT_HOSPITAL_NAME_MAX = 64;
export const PRINT_TITLE_MAX = 64;
export const PRINT_FOOTER_MAX = 2_000;
export const PRINT_IMAGE_COLUMNS_MIN = 1;
export const PRINT_IMAGE_COLUMNS_MAX = 4;
/** spec 000 §9 "image column (default 2)" */
export const DEFAULT_PRINT_IMAGE_COLUMNS = 2;
/** spec 000 §9 "Recommended sizes: logo 128x128 (png or jpg)" */
export const PRINT_LOGO_SIZE = 128;
export const PRINT_LOGO_TYPES = ['image/png', 'image/jpeg'] as const;
export const PRINT_STAMP_TYPES = ['image/png'] as const;
/** A merged print of several exams (printing sheets) holds at most this many reports. */
export const PRINT_SHEETS_MAX = 20;

const uploadKeyField = z.string().max(300);

/** PUT buckets/{bucketId}/print-template (organization admins). */
export const printTemplateInputSchema = z
  .object({
    hospitalName: z.string().trim().min(1).max(PRINT_HOSPITAL_NAME_MAX),
    /** the sheet's title under the hospital name, e.g. 医学影像检查报告单 */
    title: z.string().trim().max(PRINT_TITLE_MAX).default(''),
    /** an upload of the caller's from policies/images, or the key the template already holds; null removes */
    logoKey: uploadKeyField.nullable().optional(),
    stampKey: uploadKeyField.nullable().optional(),
    /** kept as written; always printed as plain text (tags dropped, never interpreted) */
    footerHtml: z.string().max(PRINT_FOOTER_MAX).default(''),
    imageColumns: z
      .number()
      .int()
      .min(PRINT_IMAGE_COLUMNS_MIN)
      .max(PRINT_IMAGE_COLUMNS_MAX)
      .default(DEFAULT_PRINT_IMAGE_COLUMNS),
    showSignatures: z.boolean().default(true),
  })
  .strict();
export type PrintTemplateInput = z.input<typeof printTemplateInputSchema>;

/** A logo or stamp picture of the template: a short-lived URL and what its header says. */
export const printPictureSchema = z.object({
  key: z.string(),
  url: z.string().nullable(),
  contentType: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  size: z.number().int(),
});
export type PrintPicture = z.infer<typeof printPictureSchema>;

export const printTemplateSchema = z.object({
  bucketId: z.string(),
  hospitalName: z.string(),
  title: z.string(),
  logo: printPictureSchema.nullable(),
  stamp: printPictureSchema.nullable(),
  footerHtml: z.string(),
  /** footerHtml as it prints */
  footerText: z.string(),
  imageColumns: z.number().int(),
  showSignatures: z.boolean(),
  /** when it was saved (for the default: when the organization was created) */
  updatedAt: z.string(),
  updatedBy: z.object({ id: z.string(), name: z.string() }).nullable(),
  /**
   * true until the organization's admin saves one: the template every organization starts with
   * (issue 20 item 6), derived from the hospital and organization names with the standard layout
   */
  isDefault: z.boolean(),
});
export type PrintTemplate = z.infer<typeof printTemplateSchema>;

/** Answer of GET and PUT buckets/{bucketId}/print-template: the template in force, the default until one is saved. */
export const printTemplateAnswerSchema = z.object({
  template: printTemplateSchema,
  /** PUT only: advice that does not refuse the template, e.g. a logo that is not 128×128 */
  warnings: z.array(z.object({ field: z.string(), code: z.string(), message: z.string() })),
});
export type PrintTemplateAnswer = z.infer<typeof printTemplateAnswerSchema>;

/**
 * A sample graph placed on the report with isPrinted (spec 000 §3 "Sample graph … point (x, y,
 * color), isPrinted"): printed under the key images with its numbered marks, drawn in the image's
 * own pixels (width × height).
 */
export const printSampleGraphSchema = z.object({
  id: z.string(),
  title: z.string(),
  /** a short-lived link to the diagram's image */
  url: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  index: z.number().int(),
  points: z.array(samplePointSchema),
});
export type PrintSampleGraph = z.infer<typeof printSampleGraphSchema>;

const signerSchema = z.object({ id: z.string(), name: z.string(), signatureUrl: z.string().nullable() }).nullable();

/** One report on a print view. */
export const printReportSchema = z.object({
  reportId: z.string(),
  /** the exams reported together (primary first) */
  examIds: z.array(z.string()),
  status: z.enum(REPORT_STATUSES),
  /** approved (corrected) or printed: the print is the released report */
  approved: z.boolean(),
  /** isPrinted: an approved print has been made */
  isPrinted: z.boolean(),
  version: z.number().int(),
  exam: z.object({
    patientName: z.string(),
    patientId: z.string(),
    patientGender: z.string(),
    /** 025Y, 006M … (null when the birth date is unknown or masked) */
    age: z.string().nullable(),
    ...examStudyFields,
    patientSource: z.string(),
    inpatientId: z.string(),
    outpatientId: z.string(),
    bedNum: z.string(),
    applyDept: z.string(),
    clinicImpression: z.string(),
    urgent: z.boolean(),
  }),
  findings: z.string(),
  conclusion: z.string(),
  positive: z.boolean().nullable(),
  writer: signerSchema,
  approver: signerSchema,
  submittedAt: z.string().nullable(),
  approvedAt: z.string().nullable(),
  printSubmittedAt: z.string().nullable(),
  printApprovedAt: z.string().nullable(),
  /** key images marked isPrinted, in their order */
  images: z.array(z.object({ id: z.string(), url: z.string(), desc: z.string(), index: z.number().int() })),
  /** sample graphs placed with isPrinted, in their order, printed under the key images */
  sampleGraphs: z.array(printSampleGraphSchema),
  /** the group's enabled report attributes (urgentNotes, enReportFlag …) that carry a value on this report */
  attributes: z.array(z.object({ key: z.enum(GROUP_ATTRIBUTE_KEYS), label: z.string(), value: z.string() })),
});
export type PrintReport = z.infer<typeof printReportSchema>;

/**
 * GET reports/{id}/print-view and POST reports/print-sheets: all a print page needs. A merged
 * print (printing sheets) holds several reports of one organization and one study day.
 */
export const printViewSchema = z.object({
  bucketId: z.string(),
  template: z.object({
    hospitalName: z.string(),
    title: z.string(),
    logoUrl: z.string().nullable(),
    stampUrl: z.string().nullable(),
    footerText: z.string(),
    showSignatures: z.boolean(),
  }),
  /** key images per row: the caller's imageColumn preference, else the template's */
  imageColumns: z.number().int(),
  /** patient name and ids of at least one report are masked (contracts privateFieldsMasked) */
  masked: z.boolean(),
  reports: z.array(printReportSchema),
});
export type PrintView = z.infer<typeof printViewSchema>;

/** POST reports/print-sheets */
export const printSheetsSchema = z
  .object({ examIds: z.array(z.string().max(64)).min(1).max(PRINT_SHEETS_MAX) })
  .strict();
export type PrintSheetsBody = z.infer<typeof printSheetsSchema>;

/** Answer of POST reports/{id}/update-print-time. */
export const printTimeSchema = z.object({
  reportId: z.string(),
  status: z.enum(REPORT_STATUSES),
  isPrinted: z.boolean(),
  printSubmittedAt: z.string().nullable(),
  printApprovedAt: z.string().nullable(),
});
export type PrintTime = z.infer<typeof printTimeSchema>;

/** GET reports/{id}/pdf?lang= : the labels' language (the report text is as written). */
export const reportPdfQuerySchema = z.object({ lang: z.enum(['chs', 'en', 'tib']).optional() });

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/**
 * The template's footerHtml as it prints: line-breaking tags become line breaks, every other tag
 * is dropped and the common entities decoded. The result is text, shown as text: nothing in it
 * is ever interpreted as markup, so it cannot load anything.
 */
export function footerPlainText(html: string): string {
  return html
    .replace(/<\s*br\s*\/?>/gi, '\n')
    .replace(/<\/\s*(p|div|li|tr|h[1-6])\s*>/gi, '\n')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (m, name: string) => {
      if (name[0] === '#') {
        const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
        return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
      }
      return ENTITIES[name.toLowerCase()] ?? m;
    })
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
