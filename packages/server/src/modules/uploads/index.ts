// The face of the uploads module: what other modules, app.ts and the CLI may use. Everything else in
// this folder (its stores above all) is private to it; eslint.config.js enforces the arrow.
export { installTus } from './tus.js';
export { uploadRoutes } from './uploads.routes.js';
export { UploadsService } from './uploads.service.js';
export { closeTokenSessions } from './uploads.store.js';
