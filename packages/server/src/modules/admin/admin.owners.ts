// The admin module's ownership look-up for route auth (`auth: { power, group }`); its SQL is in the
// store. groupForAccount: the group through which the caller may act on an account (see there).
export { groupForAccount } from './admin.store.js';
