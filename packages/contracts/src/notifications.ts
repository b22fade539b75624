import { z } from 'zod';

/**
 * In-app notifications (spec 000 §3 "Notifications", §9 "Notifications show the 5 newest").
 * exam_uploaded: a new exam arrived through the organization's upload token, sent to the members
 * it names (at most 2, spec 000 §9). critical_value: a critical value was reported on the exam
 * (report-safety module), sent to its assignee and to those who follow it up. remote_report: the
 * experts' approved report of a remote or expert read is on the exam (orders module), sent to the applicant.
 */
export const NOTIFICATION_KINDS = ['exam_uploaded', 'critical_value', 'remote_report'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** Notifications show the 5 newest (spec 000 §9): the default and the largest list. */
export const NOTIFICATION_LIST_LIMIT = 5;
/** At most this many notification toasts at once (spec 000 §9 "at most 3 toasts"). */
export const MAX_NOTIFICATION_TOASTS = 3;

/** The Exam notification of spec 000 §3: id, patientName, modality, bodyPart, examTime, bucketName. */
export const examNotificationSchema = z.object({
  /** the exam id */
  id: z.string(),
  /** as stored (DICOM person name), or masked as the exam list masks it (privateFieldsMasked) */
  patientName: z.string(),
  modality: z.string(),
  bodyPart: z.string(),
  /**
   * ISO 8601: the study date and time as the modality sent them (local time, no zone), or, for a
   * study without a date, when the exam arrived (UTC).
   */
  examTime: z.string(),
  bucketName: z.string(),
});
export type ExamNotification = z.infer<typeof examNotificationSchema>;

export const notificationSchema = z.object({
  id: z.string(),
  kind: z.enum(NOTIFICATION_KINDS),
  bucketId: z.string(),
  exam: examNotificationSchema,
  createdAt: z.string(),
  readAt: z.string().nullable(),
  /** the patient name is masked (privateFieldsMasked: group privacy and view_privacy, confidential exams) */
  masked: z.boolean(),
  /**
   * the caller muted this kind (accounts/me/notification-settings): listed in the bell but no toast
   * nor sound; absent means false
   */
  quiet: z.boolean().optional(),
});
/** Named apart from the DOM's global Notification. */
export type NotificationItem = z.infer<typeof notificationSchema>;

/** GET notifications?limit — newest first. */
export const notificationListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(NOTIFICATION_LIST_LIMIT).default(NOTIFICATION_LIST_LIMIT),
});
export const notificationListSchema = z.object({
  items: z.array(notificationSchema),
  /** all unread notifications of the caller, not only those listed */
  unread: z.number().int(),
  /** a toast chimes (the caller's accounts/me/notification-settings); absent means false */
  sound: z.boolean().optional(),
});
export type NotificationList = z.infer<typeof notificationListSchema>;

/**
 * GET notifications/status — what the 30 s poll asks: no patient data, so polling writes no audit
 * rows; the list (which does) is fetched only when this changes or the bell is opened.
 */
export const notificationStatusSchema = z.object({
  unread: z.number().int(),
  /** id of the newest notification, null when there is none */
  latestId: z.string().nullable(),
});
export type NotificationStatus = z.infer<typeof notificationStatusSchema>;
