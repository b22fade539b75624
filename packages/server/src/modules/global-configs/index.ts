// The face of the global-configs module (platform settings by key, issue 27): what app.ts may use.
// Everything else in this folder (its store above all) is private to it; eslint.config.js enforces the arrow.
export { globalConfigRoutes } from './global-configs.routes.js';
export { GlobalConfigsService } from './global-configs.service.js';
