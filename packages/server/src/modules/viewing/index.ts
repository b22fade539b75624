// The face of the viewing module: what other modules, app.ts and the CLI may use. Everything else in
// this folder (its stores above all) is private to it; eslint.config.js enforces the arrow.
export { MASKED_TAGS, maskMetadata } from './mask.js';
export { viewingRoutes } from './viewing.routes.js';
export { ViewingService } from './viewing.service.js';
