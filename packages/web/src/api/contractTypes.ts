import type {
  accountActionResultSchema,
  actionCatalogueSchema,
  assignRuleSchema,
  auditLogSchema,
  auditPageSchema,
  auditQuerySchema,
  colorRuleSchema,
  createMemberAccountSchema,
  createOrganizationSchema,
  groupAttributesSchema,
  memberPageSchema,
  notificationSettingsSchema,
  realmAccountSchema,
  realmPageSchema,
  updateGroupRequestSchema,
  updateOrganizationSchema,
  uploadableBucketSchema,
  uploadTokenSchema,
  upsertAssignRuleSchema,
  upsertColorRuleSchema,
  upsertDictionaryItemSchema,
} from '@yyp/contracts';

/**
 * Named types for the contract schemas that export no type of their own. Derived from the very
 * schema objects (what `z.infer` / `z.input` read), so web and server cannot drift apart.
 */
type Output<S extends { _zod: { output: unknown } }> = S['_zod']['output'];
type Input<S extends { _zod: { input: unknown } }> = S['_zod']['input'];

export type GroupAttributes = Output<typeof groupAttributesSchema>;
export type UpdateGroupRequest = Input<typeof updateGroupRequestSchema>;
export type MemberPage = Output<typeof memberPageSchema>;
export type CreateMemberAccountRequest = Input<typeof createMemberAccountSchema>;
export type CreateOrganizationRequest = Input<typeof createOrganizationSchema>;
export type UpdateOrganizationRequest = Input<typeof updateOrganizationSchema>;
export type NotificationSettings = Output<typeof notificationSettingsSchema>;
export type UploadToken = Output<typeof uploadTokenSchema>;
export type UpsertDictionaryItemRequest = Input<typeof upsertDictionaryItemSchema>;
export type ActionCatalogue = Output<typeof actionCatalogueSchema>;
export type AssignRule = Output<typeof assignRuleSchema>;
export type UpsertAssignRuleRequest = Input<typeof upsertAssignRuleSchema>;
export type ColorRule = Output<typeof colorRuleSchema>;
export type UpsertColorRuleRequest = Input<typeof upsertColorRuleSchema>;
export type AccountActionResult = Output<typeof accountActionResultSchema>;
export type RealmAccount = Output<typeof realmAccountSchema>;
export type RealmPage = Output<typeof realmPageSchema>;
export type AuditQuery = Omit<Input<typeof auditQuerySchema>, 'groupId'>;
export type AuditLog = Output<typeof auditLogSchema>;
export type AuditPage = Output<typeof auditPageSchema>;
export type UploadableBucket = Output<typeof uploadableBucketSchema>;
