// The face of the blobs module: what other modules, app.ts and the CLI may use. Everything else in
// this folder (its stores above all) is private to it; eslint.config.js enforces the arrow.
export { blobRoutes } from './blobs.routes.js';
export { BlobTransferService } from './blobs.service.js';
