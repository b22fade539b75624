// The face of the admin module: what other modules, app.ts and the CLI may use. Everything else in
// this folder (its stores above all) is private to it; eslint.config.js enforces the arrow.
export { groupForAccount } from './admin.owners.js';
export { adminRoutes } from './admin.routes.js';
export { AdminService } from './admin.service.js';
