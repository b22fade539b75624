// Moved to shared/print/printSheets (issue 21 step 6); this re-export stays until features/reports imports it from there.
export * from '../../../shared/print/printSheets';
