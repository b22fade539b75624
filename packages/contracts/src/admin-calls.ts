import { z } from 'zod';
import { defineCall } from './call.js';
import { dicomRefusalPageSchema, dicomRefusalQuerySchema } from './dicom-associations.js';
import { domainConfigSchema, updateDomainConfigSchema } from './domain.js';
import {
  ACCOUNT_ACTIONS,
  accountActionResultSchema,
  accountStatusSchema,
  auditPageSchema,
  auditQuerySchema,
  platformGroupPageSchema,
  platformGroupQuerySchema,
  realmPageSchema,
  realmQuerySchema,
} from './tenancy.js';

const accountParams = z.object({ accountId: z.string() });
const groupQuery = z.object({ groupId: z.string() });

/**
 * The administration calls of spec 001 §7 (issue 19 §8 for the refused DICOM associations): account
 * administration (security admins), the operation log (auditors), the domain configuration
 * (platform admins). Server: modules/admin/admin.routes.ts and modules/domain/domain.routes.ts;
 * web: api/admin.ts, api/dicomRefusals.ts and api/domain.ts.
 */
export const adminCalls = {
  /** 0 enables, 1 disables */
  accountStatus: defineCall({
    method: 'POST',
    path: 'accounts/:accountId/status',
    params: accountParams,
    body: accountStatusSchema,
    answer: z.object({ id: z.string(), disabled: z.number().int() }),
  }),
  /** `:action` is one of ACCOUNT_ACTIONS (reset-password, unlock) */
  accountAction: defineCall({
    method: 'POST',
    path: 'accounts/:accountId/actions/:action',
    params: accountParams.extend({ action: z.enum(ACCOUNT_ACTIONS) }),
    answer: accountActionResultSchema,
  }),
  realm: defineCall({
    method: 'POST',
    path: 'accounts/query-in-realm',
    query: groupQuery,
    body: realmQuerySchema,
    answer: realmPageSchema,
  }),
  auditLogs: defineCall({
    method: 'POST',
    path: 'domains/audit-logs',
    query: groupQuery,
    body: auditQuerySchema.omit({ groupId: true }),
    answer: auditPageSchema,
  }),
  /** every refused association (platform admin) */
  dicomRefusals: defineCall({
    method: 'POST',
    path: 'admin/dicom-associations/page-query',
    body: dicomRefusalQuerySchema,
    answer: dicomRefusalPageSchema,
  }),
  /** the refused associations that concern the group's AE titles (its auditors) */
  groupDicomRefusals: defineCall({
    method: 'POST',
    path: 'groups/:groupId/dicom-associations/page-query',
    params: groupQuery,
    body: dicomRefusalQuerySchema,
    answer: dicomRefusalPageSchema,
  }),
  /** public: the web reads it before anyone signs in */
  domain: defineCall({ method: 'GET', path: 'domain', answer: domainConfigSchema }),
  updateDomain: defineCall({
    method: 'PUT',
    path: 'domain',
    body: updateDomainConfigSchema,
    answer: domainConfigSchema,
  }),
  /** the whole platform's operation log (platform admin, /settings/admin) */
  platformAuditLogs: defineCall({
    method: 'POST',
    path: 'admin/audit-logs/page-query',
    body: auditQuerySchema.omit({ groupId: true }),
    answer: auditPageSchema,
  }),
  /** every group of the platform (platform admin, /settings/admin) */
  platformGroups: defineCall({
    method: 'POST',
    path: 'admin/groups/page-query',
    body: platformGroupQuerySchema,
    answer: platformGroupPageSchema,
  }),
} as const;
