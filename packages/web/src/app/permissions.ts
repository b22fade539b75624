// Moved to shared/permissions/permissions (issue 21 step 6); this re-export stays until features/reports imports it from there.
export * from '../shared/permissions/permissions';
