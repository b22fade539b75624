// The face of the statistics module: what app.ts may use. Everything else in this folder (its stores
// above all) is private to it; eslint.config.js enforces the arrow.
export { statisticsRoutes } from './statistics.routes.js';
export { StatisticsService } from './statistics.service.js';
export { deskSources } from './sources.desk.js';
export { reportSources } from './sources.reports.js';
export { startRollupRefresh } from './stat-refresh.js';
