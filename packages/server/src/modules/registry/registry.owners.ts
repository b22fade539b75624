// The registry module's ownership look-ups: which organization owns a scheduled exam. Route auth
// names them (`auth: { action, owner: ownerFrom('id', ownerOfScheduledExam, db) }`); their SQL is
// in the stores.
export { ownerOfScheduledExam } from './registry.store.js';
