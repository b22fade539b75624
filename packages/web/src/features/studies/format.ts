// Moved to shared/format/dates (issue 21 step 6); this re-export stays until features/reports imports it from there.
export * from '../../shared/format/dates';
