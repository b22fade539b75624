// The face of the policies module: what other modules, app.ts and the CLI may use. Everything else in
// this folder (its stores above all) is private to it; eslint.config.js enforces the arrow.
export { policyRoutes } from './policies.routes.js';
export { PoliciesService } from './policies.service.js';
export type { OwnedUpload } from './policies.service.js';
export { parseUploadKey, uploadKey } from './upload-keys.js';
