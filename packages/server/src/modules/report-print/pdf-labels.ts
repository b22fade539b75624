import { REPORT_SHEET_LABELS, type Language, type ReportSheetLabels } from '@yyp/contracts';

/** The printed report's labels in the three interface languages (the report text is as written). */
export type PdfLang = Language;

/** The sheet's labels (shared with the web's print view) and what only the PDF prints. */
export interface PdfLabels extends ReportSheetLabels {
  genders: Record<string, string>;
  page: (n: number, of: number) => string;
}

export const PDF_LABELS: Record<PdfLang, PdfLabels> = {
  chs: {
    ...REPORT_SHEET_LABELS.chs,
    genders: { M: '男', F: '女', O: '其他' },
    page: (n, of) => `第 ${n} / ${of} 页`,
  },
  en: {
    ...REPORT_SHEET_LABELS.en,
    genders: { M: 'Male', F: 'Female', O: 'Other' },
    page: (n, of) => `Page ${n} of ${of}`,
  },
  tib: {
    ...REPORT_SHEET_LABELS.tib,
    genders: { M: 'ཕོ།', F: 'མོ།', O: 'གཞན།' },
    page: (n, of) => `ཤོག་ངོས་ ${n} / ${of}`,
  },
};
