// The roles module's ownership look-up: which organization owns a role. Route auth names it
// (`auth: { action, owner: ownerFrom('roleId', ownerOfRole, db) }`); its SQL is in the store.
export { ownerOfRole } from './roles.store.js';
