// The face of the report-print module: what other modules, app.ts and the CLI may use. Everything else in
// this folder (its stores above all) is private to it; eslint.config.js enforces the arrow.
export { reportPrintRoutes } from './report-print.routes.js';
export { ReportPrintService } from './report-print.service.js';
// The PDF pieces the front desk's labels and referral forms reuse (modules/registry-print): the
// system fonts for Chinese, English and Tibetan, and text drawn in runs of the right font.
export { locateFonts, type PdfFonts } from './fonts.js';
export { fontsAndBytes, widthOf, write, type Doc } from './pdf-draw.js';
// The header of an organization's print template, for the consultations' printed conclusion.
export { printHeaderOf, type PrintHeader } from './print-header.js';
