// The face of the forwarding module: what other modules, app.ts and the CLI may use. Everything else in
// this folder (its stores above all) is private to it; eslint.config.js enforces the arrow.
export { forwardingRoutes } from './forwarding.routes.js';
export { DEFAULT_STABLE_SECONDS, ForwardingService, ruleMatches } from './forwarding.service.js';
