// The face of the entries module (a hospital system's signed entries, issue 27): what app.ts may use.
// Everything else in this folder (its store above all) is private to it; eslint.config.js enforces the arrow.
export { entryRoutes } from './entries.routes.js';
export { EntriesService } from './entries.service.js';
export { encodeEntry, signEntry } from './entry-signing.js';
