// The face of the reports module: what other modules, app.ts and the CLI may use. Everything else in
// this folder (its stores above all) is private to it; eslint.config.js enforces the arrow.
export { ReportExtrasService } from './report-extras.service.js';
export { actorOf, auditReport } from './report-actor.js';
export { APPROVED_STATUSES } from './report-machine.js';
export { ownerOfReport } from './reports.owners.js';
export { reportsRoutes } from './reports.routes.js';
export { ReportsService } from './reports.service.js';
export type { Actor } from './reports.service.js';
export type {
  OriginLookup,
  ReadOnlyCheck,
  ReadOnlyGate,
  ReportChange,
  ReportListener,
  ReportOrigin,
} from './report-hooks.js';
export { accountNames, reportOfExam } from './reports.store.js';
