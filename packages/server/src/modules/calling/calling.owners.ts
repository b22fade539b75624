// The calling module's ownership look-ups: which organization owns a queue type, a queue exam or a
// screen token. Route auth names them (`auth: { action, owner: ownerFrom('id', ownerOfQueueExam, db) }`);
// their SQL is in the stores.
export { ownerOfQueueType } from './calling-types.store.js';
export { ownerOfQueueExam } from './calling-queue.store.js';
export { ownerOfScreenToken } from './screen-tokens.store.js';
