// The face of the report-sharing module: what other modules, app.ts and the CLI may use. Everything else in
// this folder (its stores above all) is private to it; eslint.config.js enforces the arrow.
export { ReportPublishService } from './report-publish.service.js';
export { reportSharingRoutes } from './report-sharing.routes.js';
export { ReportSharingService } from './report-sharing.service.js';
export { SharedReportBuilder } from './shared-report.js';
export { WebIntegrationService } from './web-integration.service.js';
