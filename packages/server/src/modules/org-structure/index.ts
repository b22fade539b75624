// The face of the org-structure module (organization look-ups for hospital systems, issue 27): what app.ts may use.
// Everything else in this folder (its store above all) is private to it; eslint.config.js enforces the arrow.
export { orgStructureRoutes } from './org-structure.routes.js';
export { OrgStructureService } from './org-structure.service.js';
