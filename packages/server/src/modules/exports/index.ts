// The face of the exports module: what other modules, app.ts and the CLI may use. Everything else in
// this folder (its stores above all) is private to it; eslint.config.js enforces the arrow.
export { exportRoutes } from './exports.routes.js';
export { ExportsService } from './exports.service.js';
