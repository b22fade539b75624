// The face of the ai module: what other modules, app.ts and the CLI may use. Everything else in
// this folder (its stores above all) is private to it; eslint.config.js enforces the arrow.
export { aiRoutes } from './ai.routes.js';
export { AiService } from './ai.service.js';
