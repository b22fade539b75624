// The face of the roles module: what other modules, app.ts and the CLI may use. Everything else in
// this folder (its stores above all) is private to it; eslint.config.js enforces the arrow.
export { ownerOfRole } from './roles.owners.js';
export { roleRoutes } from './roles.routes.js';
export { RolesService } from './roles.service.js';
