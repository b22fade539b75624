// Moved to shared/safety/safetyFormat (issue 21 step 6); this re-export stays until features/reports imports it from there.
export * from '../../../shared/safety/safetyFormat';
