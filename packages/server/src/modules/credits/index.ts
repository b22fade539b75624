// The face of the credits module (issue 24): group credits (balances, statement, exports, the
// credits/create-token bearers, offline top-ups) and plans of private organizations. Its files are
// private to it.
export { creditRoutes } from './credits.routes.js';
export { CreditsService } from './credits.service.js';
export { PlansService } from './plans.service.js';
