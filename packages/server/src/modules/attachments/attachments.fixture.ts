import type { Action } from '@yyp/contracts';

/** Test data of the attachments tests: the actions of the roles their callers hold. */
export const REPORTING: readonly Action[] = [
  'exam_get',
  'exam_update',
  'study_package',
  'attachment_create',
  'attachment_presigned_url',
  'attachment_upload',
  'view_privacy',
  'template_upsert',
  'report_upsert',
  'report_trace',
  'report_print',
];
/** Approves reports: opens attachments, uploads none. */
export const APPROVING: readonly Action[] = [
  'exam_get',
  'exam_update',
  'study_package',
  'view_privacy',
  'attachment_create',
  'attachment_presigned_url',
  'report_upsert',
  'report_approval',
  'report_print',
  'report_trace',
];
/** A reading doctor of another hospital. */
export const REMOTE_READING: readonly Action[] = [
  'exam_get',
  'attachment_presigned_url',
  'template_upsert',
  'report_upsert',
  'report_trace',
  'report_print',
];
export const TECHNICIAN: readonly Action[] = [
  'exam_get',
  'exam_update',
  'exam_upload',
  'exam_bind',
  'attachment_upload',
];
