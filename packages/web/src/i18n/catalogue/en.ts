import type {
  Action,
  ActionCategory,
  DictionaryKind,
  GroupAccessLevelName,
  GroupFlag,
  OrgAccessLevel,
} from '@yyp/contracts';
import type { AuditActionKey } from '../../features/admin/auditActions';
import type { ColorMatchField, GroupAttributeKey, DobMatchMode } from '../../features/groups/groupSettings';

/**
 * Names of the things the contracts enumerate: access levels, the action catalogue of spec 000 §6,
 * group feature flags and attributes, dictionary kinds, audit actions. Typed by the contracts'
 * own unions, so a new action or flag without a translation fails the type check.
 */
const actions: Record<Action, string> = {
  exam_update: 'Edit exams',
  exam_get: 'View exams',
  exam_delete: 'Delete exams',
  exam_upload: 'Upload exams',
  study_package: 'Download image packages',
  exam_bind: 'Bind images to exams',
  export_exams: 'Export exams',
  view_privacy: 'View private patient data',
  attachment_create: 'Add attachments',
  attachment_delete: 'Delete attachments',
  attachment_presigned_url: 'Open attachments',
  attachment_upload: 'Upload attachments',
  template_upsert: 'Manage report templates',
  report_assign: 'Assign reports',
  report_upsert: 'Write reports',
  report_advice: 'Give advice on reports',
  report_approval: 'Approve reports',
  report_recall: 'Recall approved reports',
  report_print: 'Print reports',
  report_trace: 'View report history',
  report_co_exam: 'Report joint exams',
  report_preliminary: 'Issue preliminary reports',
  registry_create: 'Register patients',
  registry_arrive: 'Record arrivals',
  registry_update: 'Edit registrations',
  registry_delete: 'Delete registrations',
  device_workload_stats: 'Device workload statistics',
  statistics_report: 'Report statistics',
  physician_workload_stats: 'Physician workload statistics',
  positive_rate_stats: 'Positive rate statistics',
  note_taker_stats: 'Note-taker statistics',
  consultation_stats: 'Consultation statistics',
  org_workload_stats: 'Organization workload statistics',
  remote_report_stats: 'Remote report statistics',
  registrar_stats: 'Registrar statistics',
  critical_value_stats: 'Critical value statistics',
  charge_details_stats: 'Charge detail statistics',
  quality_stats: 'Quality statistics',
  consultation_create: 'Start consultations',
  consultation_update: 'Edit consultations',
  consultation_delete: 'Delete consultations',
  consultation_clinicCase_create: 'Add case documents',
  consultation_clinicCase_delete: 'Delete case documents',
  consultation_Exam_create: 'Bind exams to consultations',
  consultation_Exam_delete: 'Unbind exams from consultations',
  consultation_submitSuggestion: 'Submit consultation advice',
  quality_upsert: 'Rate report quality',
  quality_delete: 'Delete quality ratings',
  apply_expert_report: 'Order expert reports',
  payment_refund: 'Refund payments',
  apply_remote_report: 'Order remote reports',
  upload_apply_forms: 'Upload application forms',
  order_report_publish: 'Publish ordered reports',
  issue_invoice: 'Issue invoices',
  calling_manage_queue: 'Manage call queues',
  calling_call: 'Call patients',
  manage_sample_graph: 'Manage sample graphs',
  manage_steps: 'Manage procedure steps',
};

const actionCategories: Record<ActionCategory, string> = {
  exam: 'Exams',
  attachment: 'Attachments',
  template: 'Templates',
  report: 'Reports',
  registry: 'Registry',
  statistics: 'Statistics',
  consultation: 'Consultations',
  quality: 'Quality control',
  order: 'Orders',
  queue: 'Calling queue',
  other: 'Other',
};

const groupLevels: Record<GroupAccessLevelName, string> = {
  member: 'Member',
  admin: 'Administrator',
  auditor: 'Auditor',
  securityAdmin: 'Security administrator',
};

const groupLevelHints: Record<GroupAccessLevelName, string> = {
  member: 'Sees the members and organizations of the group.',
  admin: 'Administers the group: organizations, people and settings.',
  auditor: 'Reads the operation logs of all accounts of the group.',
  securityAdmin: 'Enables, disables, unlocks accounts and resets passwords.',
};

const orgLevels: Record<OrgAccessLevel, string> = {
  member: 'Member',
  admin: 'Administrator',
  collaborator: 'Collaborator',
  contentManager: 'Content manager',
};

const orgLevelHints: Record<OrgAccessLevel, string> = {
  member: 'Holds the actions of their roles.',
  admin: 'Manages the roles, members and settings of the organization.',
  collaborator: 'Holds only the report actions of their roles.',
  contentManager: 'Full access to the exams and reports of the organization.',
};

const groupFlags: Record<GroupFlag, string> = {
  openTelemed: 'Telemedicine',
  enableRegistry: 'Registry',
  enableStat: 'Statistics',
  enableConsultation: 'Consultations',
  autoNotifyAudio: 'Sound alert for new exams',
  autoConsulNotifyAudio: 'Sound alert for consultations',
  isGroupKb: 'Group knowledge base',
  featEncryptionViewerOn: 'Encrypted image viewer',
  enableCalling: 'Patient calling',
  openPrivateCloud: 'Private cloud',
  allowOverview: 'Overview screen',
  enableCredit: 'Credit',
  enablePrivacy: 'Privacy protection',
  allowAccountMgmt: 'Account management',
  showAdvice: 'Report advice',
  allowWxNotice: 'WeChat notices',
  allowReportComment: 'Report comments',
};

const groupAttributes: Record<GroupAttributeKey, string> = {
  urgentNotes: 'Urgent notes',
  enReportFlag: 'English report flag',
  enReportNotes: 'English report notes',
  hqReportWithImage: 'High-quality report with images',
  hqAIReport: 'High-quality AI report',
};

const dobMatchModes: Record<DobMatchMode, string> = {
  disabled: 'Off',
  shift_on: 'Within one year',
  shift_off: 'Exact date',
};

const colorMatchFields: Record<ColorMatchField, string> = {
  modality: 'Modality',
  bodyPart: 'Body part',
  patientClass: 'Patient class',
  urgentFlag: 'Urgent flag',
  status: 'Report status',
  bucketId: 'Organization',
};

const dictionaryKinds: Record<DictionaryKind, string> = {
  departments: 'Departments',
  doctors: 'Applying doctors',
  bodyparts: 'Body parts',
  tags: 'Tags',
  'critical-values': 'Critical values',
  'extension-configs': 'Report extensions',
};

const auditActions: Record<AuditActionKey, string> = {
  account_login: 'Logged in',
  account_logout: 'Logged out',
  account_register: 'Registered an account',
  account_change_password: 'Changed own password',
  account_update_password: 'Replaced an expired password',
  account_create: 'Created an account',
  account_enable: 'Enabled an account',
  account_disable: 'Disabled an account',
  account_unlock: 'Unlocked an account',
  account_reset_password: 'Reset a password',
  audit_read: 'Read the operation logs',
  domain_update: 'Changed the site configuration',
  group_create: 'Created a group',
  group_update: 'Changed group settings',
  group_delete: 'Deleted a group',
  group_quit: 'Left a group',
  group_member_add: 'Added a group member',
  group_member_update: 'Changed a group member level',
  group_member_remove: 'Removed a group member',
  bucket_create: 'Created an organization',
  bucket_update: 'Changed organization settings',
  bucket_delete: 'Deleted an organization',
  bucket_member_add: 'Added an organization member',
  bucket_member_update: 'Changed an organization member level',
  bucket_member_remove: 'Removed an organization member',
  bucket_upload_token_rotate: 'Issued an upload token',
  bucket_upload_token_revoke: 'Revoked the upload token',
  bucket_dictionary_add: 'Added a dictionary item',
  bucket_dictionary_update: 'Changed a dictionary item',
  bucket_dictionary_delete: 'Deleted a dictionary item',
  role_create: 'Created a role',
  role_update: 'Changed a role',
  role_delete: 'Deleted a role',
  role_members: 'Changed the holders of a role',
  rule_assign_create: 'Added an assign rule',
  rule_assign_update: 'Changed an assign rule',
  rule_assign_delete: 'Deleted an assign rule',
  rule_color_create: 'Added a color rule',
  rule_color_update: 'Changed a color rule',
  rule_color_delete: 'Deleted a color rule',
  permission_denied: 'Was refused an action',
};

export const catalogueEn = {
  actions,
  actionCategories,
  groupLevels,
  groupLevelHints,
  orgLevels,
  orgLevelHints,
  groupFlags,
  groupAttributes,
  dobMatchModes,
  colorMatchFields,
  dictionaryKinds,
  auditActions,
};
