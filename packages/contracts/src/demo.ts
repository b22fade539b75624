import { ACTION_CATALOGUE } from './permissions.js';

/**
 * Demo tenant seeded on an empty database (YYP_DEMO, default on for the embedded store).
 * Listed in README; later issues give these accounts their groups, organizations and data.
 */
export const DEMO_PASSWORD = 'Yyp@2026';
export const demoAccounts = [
  { username: 'admin', name: '平台管理员', role: 'platform admin (domain configuration)', platformAdmin: true },
  { username: 'doctor', name: '李医生', role: 'doctor: writes reports', platformAdmin: false },
  { username: 'senior', name: '王主任', role: 'senior doctor: approves reports', platformAdmin: false },
  { username: 'tech', name: '张技师', role: 'technician: uploads and performs exams', platformAdmin: false },
  { username: 'registrar', name: '赵登记', role: 'registrar: registers and schedules patients', platformAdmin: false },
  { username: 'notetaker', name: '钱记录', role: 'note-taker: types dictated reports', platformAdmin: false },
  { username: 'expert', name: '孙专家', role: 'consultation expert', platformAdmin: false },
  { username: 'groupadmin', name: '周管理', role: 'group admin (access level 1)', platformAdmin: false },
  { username: 'auditor', name: '吴审计', role: 'auditor (access level 9)', platformAdmin: false },
  { username: 'secadmin', name: '郑安全', role: 'security admin (access level 10)', platformAdmin: false },
  { username: 'teleadmin', name: '冯主任', role: 'group admin of the teleradiology group', platformAdmin: false },
  { username: 'teledoctor', name: '陈医生', role: 'remote reading doctor', platformAdmin: false },
  { username: 'teleauditor', name: '褚审计', role: 'auditor of the teleradiology group', platformAdmin: false },
  { username: 'telesec', name: '卫安全', role: 'security admin of the teleradiology group', platformAdmin: false },
] as const;

type DemoUsername = (typeof demoAccounts)[number]['username'];

/** Demo roles: what a radiology department needs (spec 000 §6 actions). */
export const demoRoles = {
  reporting: {
    name: '报告医生',
    actions: [
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
      'report_co_exam',
      // a doctor requests a consultation from the report, binds the exam and attaches documents (issue 25)
      'consultation_create',
      'consultation_update',
      'consultation_clinicCase_create',
      'consultation_clinicCase_delete',
      'consultation_Exam_create',
      'consultation_Exam_delete',
      'quality_upsert',
    ],
  },
  approving: {
    name: '审核医生',
    actions: [
      'exam_get',
      'exam_update',
      'study_package',
      'view_privacy',
      'export_exams',
      'attachment_create',
      'attachment_presigned_url',
      'template_upsert',
      // every report action: assign, write, advise, approve, recall, print, trace, co-exam, preliminary
      ...ACTION_CATALOGUE.report,
      'order_report_publish',
      // the marketplace (issue 24): the hospital's senior orders expert and remote reads; the
      // teleradiology centre's refunds its orders and issues their invoices
      'apply_expert_report',
      'apply_remote_report',
      'upload_apply_forms',
      'payment_refund',
      'issue_invoice',
      'quality_upsert',
      'quality_delete',
      'statistics_report',
      'physician_workload_stats',
      'positive_rate_stats',
      'quality_stats',
      'critical_value_stats',
      'consultation_create',
      'consultation_update',
      'consultation_submitSuggestion',
    ],
  },
  /**
   * A reading doctor of another hospital's patients: reports, without view_privacy. In the
   * teleradiology group (privacy on) its holder sees names and ids masked.
   */
  remoteReading: {
    name: '远程阅片医生',
    actions: [
      'exam_get',
      'attachment_presigned_url',
      'template_upsert',
      'report_upsert',
      'report_trace',
      'report_print',
      'consultation_create',
    ],
  },
  technician: {
    name: '技师',
    actions: [
      'exam_get',
      'exam_update',
      'exam_upload',
      'exam_bind',
      'attachment_upload',
      'registry_arrive',
      'calling_call',
      'manage_sample_graph',
      'device_workload_stats',
    ],
  },
  registrar: {
    name: '登记员',
    actions: [
      'exam_get',
      'registry_create',
      'registry_arrive',
      'registry_update',
      'registry_delete',
      'upload_apply_forms',
      'calling_manage_queue',
      'calling_call',
      'registrar_stats',
    ],
  },
} as const;
export type DemoRoleKey = keyof typeof demoRoles;

export interface DemoOrganization {
  key: string;
  name: string;
  code: string;
  isPrivate?: boolean;
  members: {
    username: DemoUsername;
    level: 'member' | 'admin' | 'collaborator' | 'contentManager';
    roles?: DemoRoleKey[];
  }[];
}

export interface DemoGroup {
  id: string;
  displayName: string;
  /** group flags other than the defaults (groups.service DEFAULT_GROUP_SETTINGS) */
  settings?: { enablePrivacy?: boolean; turnaroundTargetMinutes?: number };
  members: { username: DemoUsername; level: 0 | 1 | 9 | 10 }[];
  organizations: DemoOrganization[];
}

/**
 * Two groups, each with organizations, members at every access level and radiology roles. The
 * hospital keeps the privacy feature off (its doctors see whom they read); the teleradiology
 * group turns it on, so its remote reader (no view_privacy) sees masked names and ids.
 */
export const demoGroups: DemoGroup[] = [
  {
    id: 'demo-renhe',
    displayName: '仁和医院',
    // Registration to approval within a working day (statistics/turnaround's target, issue 26).
    settings: { turnaroundTargetMinutes: 480 },
    members: [
      { username: 'groupadmin', level: 1 },
      { username: 'auditor', level: 9 },
      { username: 'secadmin', level: 10 },
      { username: 'doctor', level: 0 },
      { username: 'senior', level: 0 },
      { username: 'tech', level: 0 },
      { username: 'registrar', level: 0 },
      { username: 'notetaker', level: 0 },
    ],
    organizations: [
      {
        key: 'radiology',
        name: '放射科',
        code: 'RH-RAD',
        members: [
          { username: 'groupadmin', level: 'admin' },
          { username: 'doctor', level: 'member', roles: ['reporting'] },
          { username: 'senior', level: 'member', roles: ['approving'] },
          { username: 'tech', level: 'member', roles: ['technician'] },
          { username: 'registrar', level: 'member', roles: ['registrar'] },
          { username: 'notetaker', level: 'collaborator', roles: ['reporting'] },
        ],
      },
      {
        key: 'ultrasound',
        name: '超声科',
        code: 'RH-US',
        members: [
          { username: 'doctor', level: 'member', roles: ['reporting'] },
          { username: 'senior', level: 'contentManager' },
        ],
      },
      {
        key: 'checkup',
        name: '体检中心',
        code: 'RH-PE',
        isPrivate: true,
        members: [{ username: 'senior', level: 'member', roles: ['approving'] }],
      },
    ],
  },
  {
    id: 'demo-tele',
    displayName: '协和远程影像中心',
    settings: { enablePrivacy: true },
    members: [
      { username: 'teleadmin', level: 1 },
      { username: 'teleauditor', level: 9 },
      { username: 'telesec', level: 10 },
      { username: 'teledoctor', level: 0 },
      { username: 'expert', level: 0 },
    ],
    organizations: [
      {
        key: 'remote',
        name: '远程诊断中心',
        code: 'XH-TELE',
        members: [
          { username: 'teleadmin', level: 'admin' },
          { username: 'teledoctor', level: 'member', roles: ['remoteReading'] },
          { username: 'expert', level: 'member', roles: ['approving'] },
        ],
      },
      {
        key: 'consult',
        name: '会诊中心',
        code: 'XH-CONSULT',
        members: [{ username: 'expert', level: 'contentManager' }],
      },
    ],
  },
];

export const demoDictionaries = {
  departments: ['急诊科', '心内科', '呼吸内科', '神经外科', '骨科'],
  doctors: ['刘建国', '黄丽华', '何志强'],
  bodyparts: ['头部', '胸部', '腹部', '脊柱', '四肢'],
  tags: ['随访', '教学', '疑难'],
  'critical-values': ['气胸', '主动脉夹层', '急性脑出血', '肺动脉栓塞'],
} as const;

/**
 * The demo radiology's procedures (issue 22, the front desk): what the registrar picks when
 * registering. Prices in fen. The CTs are done on the demo modality (DEMO_MODALITY, 演示 CT).
 */
export const demoProcedures = [
  { name: '胸部CT平扫', code: 'CT001', enName: 'Chest CT, plain', modality: 'CT', price: 30000, onDemoModality: true },
  { name: '头颅CT平扫', code: 'CT002', enName: 'Head CT, plain', modality: 'CT', price: 28000, onDemoModality: true },
  {
    name: '上腹部CT增强',
    code: 'CT003',
    enName: 'Upper abdomen CT, enhanced',
    modality: 'CT',
    price: 65000,
    onDemoModality: true,
    isEnhanced: true,
  },
  { name: '头颅MR平扫', code: 'MR001', enName: 'Head MR, plain', modality: 'MR', price: 60000 },
  { name: '胸部正位片', code: 'DX001', enName: 'Chest X-ray, PA', modality: 'DX', price: 8000 },
] as const;

/** The colour rule each demo group has: urgent exams painted red in the study list. */
export const DEMO_URGENT_COLOR_RULE = {
  name: '急诊',
  priority: 0,
  foreColor: '#ffffff',
  backgroundColor: '#d4380d',
  matchField: 'urgentFlag',
  value: 'true',
  index: 0,
} as const;
