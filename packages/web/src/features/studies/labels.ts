// Moved to shared/labels/studyLabels (issue 21 step 6); this re-export stays until features/reports imports it from there.
export * from '../../shared/labels/studyLabels';
