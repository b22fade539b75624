// The report-safety module's ownership look-up for route auth (`auth: { power, group }`): which
// group owns a report table colour. Its SQL is in the store. Routes on a report name the report's
// owner through the reports module's face (ownerOfReport).
export { groupOfTableColor } from './table-colors.store.js';
