// The face of the quick-search module: what other modules, app.ts and the CLI may use. Everything else in
// this folder (its stores above all) is private to it; eslint.config.js enforces the arrow.
export { quickSearchRoutes } from './quick-search.routes.js';
export { QuickSearchService } from './quick-search.service.js';
