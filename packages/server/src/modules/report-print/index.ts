// The face of the report-print module: what other modules, app.ts and the CLI may use. Everything else in
// this folder (its stores above all) is private to it; eslint.config.js enforces the arrow.
export { reportPrintRoutes } from './report-print.routes.js';
export { ReportPrintService } from './report-print.service.js';
