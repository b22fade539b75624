// Moved to shared/labels/ReportStatusTag (issue 21 step 6); this re-export stays until features/reports imports it from there.
export * from '../../shared/labels/ReportStatusTag';
