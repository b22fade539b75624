/** The database schema, one file per area; drizzle-kit reads this barrel. */
export * from './schema-accounts.js';
export * from './schema-tenancy.js';
export * from './schema-archive.js';
export * from './schema-notifications.js';
export * from './schema-attachments.js';
export * from './schema-lists.js';
export * from './schema-reports.js';
export * from './schema-report-output.js';
export * from './schema-registry.js';
export * from './schema-calling.js';
export * from './schema-billing.js';
export * from './schema-consultations.js';
export * from './schema-statistics.js';
export * from './schema-turnaround.js';
export * from './schema-entries.js';
export * from './schema-sso.js';
export * from './schema-learnings.js';
