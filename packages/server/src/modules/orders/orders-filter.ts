import type { OrdersFilters } from '@yyp/contracts';
import { errors } from '../../platform/errors.js';
import type * as store from './orders.store.js';

/** The store's filter of one side's list from the call's filters (dates checked: 400 when not one). */
export function orderFilterOf(side: 'request' | 'target', bucketId: string, f: OrdersFilters): store.OrderFilter {
  const date = (s: string | undefined, what: string) => {
    if (s === undefined) return undefined;
    const d = new Date(s);
    if (Number.isNaN(d.getTime())) throw errors.validation(`filters.${what} is not a date`, { field: what });
    return d;
  };
  return {
    side,
    bucketId,
    status: f.status,
    paymentStatus: f.paymentStatus,
    type: f.type,
    from: date(f.from, 'from'),
    to: date(f.to, 'to'),
    patientName: f.patientName || undefined,
    orderNo: f.orderNo || undefined,
  };
}
