// The face of the report-safety module: what other modules, app.ts and the CLI may use. Everything else in
// this folder (its stores above all) is private to it; eslint.config.js enforces the arrow.
export { paintReportColors } from './report-colors.js';
export type { ReportColorRules } from './report-colors.js';
export { groupOfTableColor } from './report-safety.owners.js';
export { reportSafetyRoutes } from './report-safety.routes.js';
export { ReportSafetyService } from './report-safety.service.js';
