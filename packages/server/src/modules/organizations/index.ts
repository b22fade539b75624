// The face of the organizations module: what other modules, app.ts and the CLI may use. Everything else in
// this folder (its stores above all) is private to it; eslint.config.js enforces the arrow.
export { organizationRoutes } from './organizations.routes.js';
export { OrganizationsService } from './organizations.service.js';
export {
  bucketMembersAmong,
  bucketsByIds,
  bucketsOfGroup,
  findBucket,
  lockBucket,
  setBucketPlan,
} from './organizations.store.js';
