import { z } from 'zod';
import { DEFAULT_IMAGE_COLUMN, DEFAULT_VIEWER_SIZE } from './limits.js';

/**
 * report-view GET and POST (spec 001 §7 Reports): the caller's own settings for reading and
 * writing reports, from the stored preferences of spec 000 §9 (image column, default 2; approve
 * mode; past-exam sort; viewer size, default 800 by 815). They live in the account's preferences,
 * so accounts/me answers the same values; GET fills in the defaults of what was never set.
 */
export const viewerSizeSchema = z
  .object({
    width: z.number().int().min(200).max(4096),
    height: z.number().int().min(200).max(4096),
  })
  .strict();
export type ViewerSize = z.infer<typeof viewerSizeSchema>;

export const reportViewSchema = z.object({
  /** key images per row in the editor and on print */
  imageColumn: z.number().int().min(1).max(4),
  /** how the caller approves (free key of the web client, '' for the default) */
  approveMode: z.string().max(32),
  /** order of the past-exam table */
  pastExamSort: z.enum(['asc', 'desc']),
  /** size of the viewer window opened from a report */
  viewerSize: viewerSizeSchema,
});
export type ReportView = z.infer<typeof reportViewSchema>;

/** POST report-view: any of the settings; unknown keys are refused; answers all of them. */
export const reportViewUpdateSchema = reportViewSchema.partial().strict();
export type ReportViewUpdate = z.infer<typeof reportViewUpdateSchema>;

export const DEFAULT_REPORT_VIEW: ReportView = {
  imageColumn: DEFAULT_IMAGE_COLUMN,
  approveMode: '',
  pastExamSort: 'desc',
  viewerSize: { ...DEFAULT_VIEWER_SIZE },
};
