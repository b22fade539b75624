import { z } from 'zod';
import { MAX_TAG_LENGTH, MAX_UPLOAD_NOTIFY_USERS } from './limits.js';
import { ALL_ACTIONS, ORG_ACCESS_LEVELS, groupAccessLevelValues, type Action } from './permissions.js';

/** Groups, organizations (buckets), roles and rules: spec 000 §3, §5, §6 and spec 001 §7. */

export const GROUP_FLAGS = [
  'openTelemed',
  'enableRegistry',
  'enableStat',
  'enableConsultation',
  'autoNotifyAudio',
  'autoConsulNotifyAudio',
  'isGroupKb',
  'featEncryptionViewerOn',
  'enableCalling',
  'openPrivateCloud',
  'allowOverview',
  'enableCredit',
  'enablePrivacy',
  'allowAccountMgmt',
  'showAdvice',
  'allowWxNotice',
  'allowReportComment',
] as const;
export type GroupFlag = (typeof GROUP_FLAGS)[number];

export const GROUP_ATTRIBUTE_KEYS = [
  'urgentNotes',
  'enReportFlag',
  'enReportNotes',
  'hqReportWithImage',
  'hqAIReport',
] as const;
export const DOB_MATCH_MODES = ['disabled', 'shift_on', 'shift_off'] as const;
export type DobMatchMode = (typeof DOB_MATCH_MODES)[number];

const groupAttributeSchema = z.object({ enabled: z.boolean(), label: z.string().trim().max(32) });
export const groupAttributesSchema = z.partialRecord(z.enum(GROUP_ATTRIBUTE_KEYS), groupAttributeSchema);

const flagsShape = Object.fromEntries(GROUP_FLAGS.map((f) => [f, z.boolean()])) as Record<GroupFlag, z.ZodBoolean>;

/** The bounds of the group setting turnaroundTargetMinutes: one minute to one week. */
export const TURNAROUND_TARGET_MINUTES = { min: 1, max: 10080 } as const;

export const groupSettingsSchema = z
  .object({
    ...flagsShape,
    dobMatchMode: z.enum(DOB_MATCH_MODES),
    openRegistration: z.boolean(),
    crossOrgHistorySearch: z.boolean(),
    customDomain: z.string().max(253),
    urlLink: z.string().max(512),
    footerHtml: z.string().max(4096),
    logo: z.string().max(1024),
    defaultExpertBucketId: z.string().nullable(),
    defaultConsultationBucketId: z.string().nullable(),
    /** the group's AI service (POST exams/{id}/ai/task posts studies to it); '' for none */
    aiServiceUrl: z.union([z.literal(''), z.url({ protocol: /^https?$/ }).max(512)]),
    /** the turnaround target from registration to approval, minutes (statistics/turnaround); null: none */
    turnaroundTargetMinutes: z
      .number()
      .int()
      .min(TURNAROUND_TARGET_MINUTES.min)
      .max(TURNAROUND_TARGET_MINUTES.max)
      .nullable(),
  })
  .partial()
  .strict();
export type GroupSettings = z.infer<typeof groupSettingsSchema>;

export const groupSchema = z.object({
  id: z.string(),
  displayName: z.string(),
  /** the caller's access level in the group (0 member, 1 admin, 9 auditor, 10 security admin) */
  accessLevel: z.number().int(),
  allowedAccessLevels: z.array(z.number().int()),
  settings: groupSettingsSchema,
  attributes: groupAttributesSchema,
  memberCount: z.number().int(),
  organizationCount: z.number().int(),
  createdAt: z.string(),
});
export type Group = z.infer<typeof groupSchema>;

const groupName = z.string().trim().min(2).max(64);
export const groupAvailableQuerySchema = z.object({ name: groupName });
export const groupAvailableSchema = z.object({ available: z.boolean() });
export const createGroupRequestSchema = z.object({
  id: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{2,31}$/)
    .optional(),
  displayName: groupName,
});
export const updateGroupRequestSchema = z
  .object({ displayName: groupName, settings: groupSettingsSchema, attributes: groupAttributesSchema })
  .partial()
  .strict();
/** Deleting a group, organization or role requires typing its name (spec 000 §5). */
export const confirmNameSchema = z.object({ confirmName: z.string() });

export const groupAccessLevelSchema = z.union(groupAccessLevelValues.map((v) => z.literal(v)) as never) as z.ZodType<
  0 | 1 | 9 | 10
>;
export const groupMemberSchema = z.object({
  accountId: z.string(),
  username: z.string(),
  name: z.string(),
  accessLevel: z.number().int(),
  disabled: z.number().int(),
  joinedAt: z.string(),
});
export type GroupMember = z.infer<typeof groupMemberSchema>;
export const memberQuerySchema = z.object({
  q: z.string().trim().max(64).optional(),
  skip: z.number().int().optional(),
  limit: z.number().int().optional(),
});
export const memberPageSchema = z.object({ members: z.array(groupMemberSchema), count: z.number().int() });
export const inviteMembersSchema = z.object({
  accountIds: z.array(z.string()).min(1).max(100),
  accessLevel: groupAccessLevelSchema,
});
export const createMemberAccountSchema = z.object({
  username: z
    .string()
    .transform((s) => s.trim())
    .pipe(
      z
        .string()
        .min(1)
        .max(64)
        .regex(/^[A-Za-z0-9_-]+$/),
    ),
  name: z.string().trim().min(1).max(64),
  password: z.string().min(1).max(32),
  accessLevel: groupAccessLevelSchema,
});
export const updateMemberSchema = z.object({ accessLevel: groupAccessLevelSchema });

/** Organization code: 4 to 35 characters, no spaces or special characters. */
export const ORG_CODE_PATTERN = /^[A-Za-z0-9_-]{4,35}$/;

export const organizationSchema = z.object({
  id: z.string(),
  groupId: z.string(),
  name: z.string(),
  code: z.string().nullable(),
  logo: z.string().nullable(),
  isPrivate: z.boolean(),
  focused: z.boolean(),
  freeEfilm: z.boolean(),
  memberCount: z.number().int(),
  /** the caller's level in it, null when not a member */
  accessLevel: z.enum(ORG_ACCESS_LEVELS).nullable(),
  settings: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
});
export type Organization = z.infer<typeof organizationSchema>;

export const notificationSettingsSchema = z
  .object({
    newExam: z.boolean(),
    criticalValue: z.boolean(),
    consultation: z.boolean(),
    uploadNotifyAccountIds: z.array(z.string()).max(MAX_UPLOAD_NOTIFY_USERS),
  })
  .partial()
  .strict();

export const createOrganizationSchema = z.object({
  name: z.string().trim().min(1).max(64),
  code: z.string().trim().regex(ORG_CODE_PATTERN).optional(),
  logo: z.string().max(1024).optional(),
  isPrivate: z.boolean().optional(),
});
export const updateOrganizationSchema = z
  .object({
    name: z.string().trim().min(1).max(64),
    code: z.string().trim().regex(ORG_CODE_PATTERN),
    logo: z.string().max(1024).nullable(),
    isPrivate: z.boolean(),
    focused: z.boolean(),
    freeEfilm: z.boolean(),
    notifications: notificationSettingsSchema,
  })
  .partial()
  .strict();

export const orgMemberSchema = z.object({
  accountId: z.string(),
  username: z.string(),
  name: z.string(),
  accessLevel: z.enum(ORG_ACCESS_LEVELS),
  roleIds: z.array(z.string()),
});
export type OrgMember = z.infer<typeof orgMemberSchema>;
export const addOrgMembersSchema = z.object({
  accountIds: z.array(z.string()).min(1).max(100),
  accessLevel: z.enum(ORG_ACCESS_LEVELS),
});
export const updateOrgMemberSchema = z.object({ accessLevel: z.enum(ORG_ACCESS_LEVELS) });

const actionSchema = z.string().refine((a): a is Action => (ALL_ACTIONS as readonly string[]).includes(a), {
  message: 'not an action of the catalogue',
});
export const roleSchema = z.object({
  id: z.string(),
  bucketId: z.string(),
  name: z.string(),
  actions: z.array(z.string()),
  memberIds: z.array(z.string()),
});
export type Role = z.infer<typeof roleSchema>;
export const upsertRoleSchema = z.object({
  name: z.string().trim().min(1).max(32),
  actions: z.array(actionSchema).max(ALL_ACTIONS.length),
});
export const roleMappingsSchema = z.object({ accountIds: z.array(z.string()).max(500) });
export const actionCatalogueSchema = z.array(z.object({ category: z.string(), actions: z.array(z.string()) }));

/** Per-organization dictionaries; departments use id "0" to mean none. */
export const DICTIONARY_KINDS = [
  'departments',
  'doctors',
  'bodyparts',
  'tags',
  'critical-values',
  'extension-configs',
] as const;
export type DictionaryKind = (typeof DICTIONARY_KINDS)[number];
export const dictionaryItemSchema = z.object({
  id: z.string(),
  name: z.string(),
  data: z.record(z.string(), z.unknown()),
  sort: z.number().int(),
});
export type DictionaryItem = z.infer<typeof dictionaryItemSchema>;
/** Name limits per kind: tags at most 10 characters (spec 000 §5), critical values 255. */
export const dictionaryNameMax: Record<DictionaryKind, number> = {
  departments: 64,
  doctors: 64,
  bodyparts: 64,
  tags: MAX_TAG_LENGTH,
  'critical-values': 255,
  'extension-configs': 64,
};
export const dictionaryDataSchemas = {
  departments: z.object({}).strict(),
  doctors: z
    .object({ physicianType: z.number().int().min(1).max(9).default(1), departmentId: z.string().default('0') })
    .strict(),
  bodyparts: z.object({ modality: z.string().max(16).optional(), englishName: z.string().max(64).optional() }).strict(),
  tags: z.object({ color: z.string().max(16).optional() }).strict(),
  'critical-values': z.object({ level: z.enum(['high', 'medium', 'low']).optional() }).strict(),
  'extension-configs': z
    .object({
      label: z.string().max(64),
      type: z.enum(['text', 'number', 'select', 'date']),
      options: z.array(z.string().max(64)).max(50).optional(),
      required: z.boolean().optional(),
      /** which record it extends: an exam's registration (default) or a report's content */
      scope: z.enum(['exam', 'report']).optional(),
    })
    .strict(),
} as const;
export const upsertDictionaryItemSchema = z.object({
  name: z.string().trim().min(1).max(255),
  data: z.record(z.string(), z.unknown()).optional(),
  sort: z.number().int().min(0).max(100000).optional(),
});

export const uploadTokenSchema = z.object({
  token: z.string().nullable(),
  /** the static QR encodes this upload page address */
  uploadPath: z.string().nullable(),
  notifyAccountIds: z.array(z.string()),
});

export const assignRuleSchema = z.object({
  id: z.string(),
  name: z.string(),
  bucketIds: z.array(z.string()),
  doctorId: z.string().nullable(),
  modality: z.string().nullable(),
  memberIds: z.array(z.string()),
  priority: z.number().int(),
});
export const upsertAssignRuleSchema = z.object({
  name: z.string().trim().min(1).max(64),
  bucketIds: z.array(z.string()).max(100),
  doctorId: z.string().nullable(),
  modality: z.string().trim().max(16).nullable(),
  memberIds: z.array(z.string()).max(100),
  priority: z.number().int().min(0).max(10000),
});

const color = z.string().regex(/^#[0-9a-fA-F]{6}$/);
export const colorRuleSchema = z.object({
  id: z.string(),
  name: z.string(),
  priority: z.number().int(),
  foreColor: z.string(),
  backgroundColor: z.string(),
  matchField: z.string(),
  value: z.string(),
  index: z.number().int(),
});
export const upsertColorRuleSchema = z.object({
  name: z.string().trim().min(1).max(64),
  priority: z.number().int().min(0).max(10000),
  foreColor: color,
  backgroundColor: color,
  matchField: z.enum(['modality', 'bodyPart', 'patientClass', 'urgentFlag', 'status', 'bucketId']),
  value: z.string().max(64),
  index: z.number().int().min(0).max(1000).default(0),
});

/** Accounts administration by the security admin. */
export const accountStatusSchema = z.object({ status: z.union([z.literal(0), z.literal(1)]) });
export const ACCOUNT_ACTIONS = ['reset-password', 'unlock'] as const;
export const accountActionResultSchema = z.object({ temporaryPassword: z.string().optional() });
export const realmQuerySchema = z.object({
  q: z.string().trim().max(64).optional(),
  groupId: z.string().optional(),
  skip: z.number().int().optional(),
  limit: z.number().int().optional(),
});
export const realmAccountSchema = z.object({
  id: z.string(),
  username: z.string(),
  name: z.string(),
  disabled: z.number().int(),
  locked: z.boolean(),
  groups: z.array(z.object({ id: z.string(), displayName: z.string(), accessLevel: z.number().int() })),
});
export const realmPageSchema = z.object({ accounts: z.array(realmAccountSchema), count: z.number().int() });

export const auditQuerySchema = z.object({
  groupId: z.string(),
  actorId: z.string().optional(),
  action: z.string().max(64).optional(),
  outcome: z.enum(['success', 'failure', 'denied']).optional(),
  from: z.iso.datetime().optional(),
  to: z.iso.datetime().optional(),
  skip: z.number().int().optional(),
  limit: z.number().int().optional(),
});
export const auditLogSchema = z.object({
  id: z.number().int(),
  at: z.string(),
  actorId: z.string().nullable(),
  actorUsername: z.string().nullable(),
  action: z.string(),
  targetType: z.string().nullable(),
  targetId: z.string().nullable(),
  bucketId: z.string().nullable(),
  ip: z.string().nullable(),
  outcome: z.string(),
  details: z.record(z.string(), z.unknown()).nullable(),
});
export const auditPageSchema = z.object({ logs: z.array(auditLogSchema), count: z.number().int() });

/** The platform admin's list of every group (POST admin/groups/page-query). */
export const platformGroupQuerySchema = z
  .object({
    q: z.string().trim().max(64).optional(),
    skip: z.number().int().min(0).max(1_000_000).optional(),
    limit: z.number().int().min(1).max(200).optional(),
  })
  .strict();
export const platformGroupSchema = z.object({
  id: z.string(),
  displayName: z.string(),
  memberCount: z.number().int(),
  organizationCount: z.number().int(),
  enableStat: z.boolean(),
  createdAt: z.string(),
});
export type PlatformGroup = z.infer<typeof platformGroupSchema>;
export const platformGroupPageSchema = z.object({ groups: z.array(platformGroupSchema), count: z.number().int() });
export type PlatformGroupPage = z.infer<typeof platformGroupPageSchema>;
