/**
 * Roles and permissions of spec 000 §6: group access levels, organization access levels and the
 * action catalogue organization roles grant, by category.
 */
export const GROUP_ACCESS_LEVELS = { member: 0, admin: 1, auditor: 9, securityAdmin: 10 } as const;
export type GroupAccessLevelName = keyof typeof GROUP_ACCESS_LEVELS;
export type GroupAccessLevel = (typeof GROUP_ACCESS_LEVELS)[GroupAccessLevelName];
export const groupAccessLevelValues = Object.values(GROUP_ACCESS_LEVELS) as GroupAccessLevel[];

export const ORG_ACCESS_LEVELS = ['member', 'admin', 'collaborator', 'contentManager'] as const;
export type OrgAccessLevel = (typeof ORG_ACCESS_LEVELS)[number];

export const ACTION_CATALOGUE = {
  exam: [
    'exam_update',
    'exam_get',
    'exam_delete',
    'exam_upload',
    'study_package',
    'exam_bind',
    'export_exams',
    'view_privacy',
  ],
  attachment: ['attachment_create', 'attachment_delete', 'attachment_presigned_url', 'attachment_upload'],
  template: ['template_upsert'],
  report: [
    'report_assign',
    'report_upsert',
    'report_advice',
    'report_approval',
    'report_recall',
    'report_print',
    'report_trace',
    'report_co_exam',
    'report_preliminary',
  ],
  registry: ['registry_create', 'registry_arrive', 'registry_update', 'registry_delete'],
  statistics: [
    'device_workload_stats',
    'statistics_report',
    'physician_workload_stats',
    'positive_rate_stats',
    'note_taker_stats',
    'consultation_stats',
    'org_workload_stats',
    'remote_report_stats',
    'registrar_stats',
    'critical_value_stats',
    'charge_details_stats',
    'quality_stats',
  ],
  consultation: [
    'consultation_create',
    'consultation_update',
    'consultation_delete',
    'consultation_clinicCase_create',
    'consultation_clinicCase_delete',
    'consultation_Exam_create',
    'consultation_Exam_delete',
    'consultation_submitSuggestion',
  ],
  quality: ['quality_upsert', 'quality_delete'],
  order: [
    'apply_expert_report',
    'payment_refund',
    'apply_remote_report',
    'upload_apply_forms',
    'order_report_publish',
    'issue_invoice',
  ],
  queue: ['calling_manage_queue', 'calling_call'],
  other: ['manage_sample_graph', 'manage_steps'],
} as const;

export type ActionCategory = keyof typeof ACTION_CATALOGUE;
export type Action = (typeof ACTION_CATALOGUE)[ActionCategory][number];
export const ALL_ACTIONS: readonly Action[] = Object.values(ACTION_CATALOGUE).flat() as Action[];

export function isAction(value: string): value is Action {
  return (ALL_ACTIONS as readonly string[]).includes(value);
}

export function categoryOf(action: Action): ActionCategory {
  for (const [category, actions] of Object.entries(ACTION_CATALOGUE)) {
    if ((actions as readonly string[]).includes(action)) return category as ActionCategory;
  }
  throw new Error(`unknown action ${action}`);
}

/** Report source filter values (spec 000 §6): 0 all, 1 report (default), 2 remote. */
export const REPORT_SOURCE = { all: 0, report: 1, remote: 2 } as const;
export type ReportSource = (typeof REPORT_SOURCE)[keyof typeof REPORT_SOURCE];

/**
 * The report-source filter a user gets: a single permission entry of type 2 (a remote reading
 * organization only) forces it to all; otherwise the stored choice, or report by default.
 */
export function reportSourceFor(permissions: readonly { type: number }[], stored?: ReportSource): ReportSource {
  if (permissions.length === 1 && permissions[0]!.type === 2) return REPORT_SOURCE.all;
  return stored ?? REPORT_SOURCE.report;
}
