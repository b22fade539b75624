// The orders module's ownership look-ups, for route auth: the requesting organization of an order
// (its expert organization for the experts' calls) and the selling organization of a product.
export { ownerOfOrder, targetOfOrder } from './orders-payment.store.js';
export { ownerOfProduct } from './products.store.js';
