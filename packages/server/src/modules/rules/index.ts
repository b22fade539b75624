// The face of the rules module: what other modules, app.ts and the CLI may use. Everything else in
// this folder (its stores above all) is private to it; eslint.config.js enforces the arrow.
export { ruleRoutes } from './rules.routes.js';
export { RulesService } from './rules.service.js';
export { listColorRules } from './rules.store.js';
