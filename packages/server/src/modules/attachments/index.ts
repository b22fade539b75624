// The face of the attachments module: what other modules, app.ts and the CLI may use. Everything else in
// this folder (its stores above all) is private to it; eslint.config.js enforces the arrow.
export { attachmentRoutes } from './attachments.routes.js';
export { AttachmentsService } from './attachments.service.js';
