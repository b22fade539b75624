// The face of the orders module (remote and expert report orders, issue 24): what app.ts and other
// modules (payments above all) may use. Everything else in this folder is private to it.
export {
  orderForPayment,
  ownerOfOrder,
  recordOrderPaid,
  recordOrderRefund,
  statusAfterRefund,
  targetOfOrder,
  type OrderForPayment,
} from './orders-payment.store.js';
