export * from './errors.js';
export * from './limits.js';
export * from './validation.js';
export * from './domain.js';
export * from './accounts.js';
export * from './session.js';
export * from './demo.js';
export * from './permissions.js';
