// The face of the learnings module (learning videos, issue 27): what app.ts may use.
// Everything else in this folder (its store above all) is private to it; eslint.config.js enforces the arrow.
export { learningRoutes } from './learnings.routes.js';
export { LearningsService } from './learnings.service.js';
