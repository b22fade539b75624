// The face of the report-library module: what other modules, app.ts and the CLI may use. Everything else in
// this folder (its stores above all) is private to it; eslint.config.js enforces the arrow.
export { readImageHeader } from './image-header.js';
export { KnowledgeBaseService } from './kb.service.js';
export { ownerOfDescTemplate, ownerOfSampleGraph } from './report-library.owners.js';
export { reportLibraryRoutes } from './report-library.routes.js';
export { ReportLibraryService } from './report-library.service.js';
export { reportViewRoutes } from './report-view.routes.js';
export { ReportViewService } from './report-view.service.js';
