// The face of the groups module: what other modules, app.ts and the CLI may use. Everything else in
// this folder (its stores above all) is private to it; eslint.config.js enforces the arrow.
export { groupRoutes } from './groups.routes.js';
export { GroupsService } from './groups.service.js';
export { findGroup, groupMembersPage, membersAmong } from './groups.store.js';
