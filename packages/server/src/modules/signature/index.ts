// The face of the signature module: what other modules, app.ts and the CLI may use. Everything else in
// this folder (its stores above all) is private to it; eslint.config.js enforces the arrow.
export { signatureRoutes } from './signature.routes.js';
export { SignatureService } from './signature.service.js';
