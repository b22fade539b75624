// The report library's ownership look-ups: which organization owns a description template or a
// sample graph. Route auth names them (`auth: { action, owner }`); their SQL is in the store.
export { ownerOfDescTemplate, ownerOfSampleGraph } from './report-library.store.js';
