import {
  ACCOUNT_ACTIONS,
  accountActionResultSchema,
  accountStatusSchema,
  auditPageSchema,
  auditQuerySchema,
  dicomRefusalPageSchema,
  dicomRefusalQuerySchema,
  realmPageSchema,
  realmQuerySchema,
} from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { auditContext } from '../../platform/audit.js';
import type { Db } from '../../platform/db.js';
import { defineRoute, type RawInput } from '../../platform/route.js';
import type { AdminService } from './admin.service.js';
import { groupForAccount } from './admin.owners.js';

const accountParams = z.object({ accountId: z.string() });
const actionParams = accountParams.extend({ action: z.enum(ACCOUNT_ACTIONS) });
const groupQuery = z.object({ groupId: z.string() });
const groupParams = z.object({ groupId: z.string() });

export function adminRoutes(app: FastifyInstance, db: Db, admin: AdminService): void {
  const viaAccount = ({ params, callerId }: RawInput) => groupForAccount(db, params.accountId ?? '', callerId);
  const fromQuery = ({ query }: RawInput) => (typeof query.groupId === 'string' ? query.groupId : undefined);
  defineRoute(app, {
    method: 'POST',
    url: 'accounts/:accountId/status',
    summary: 'Enable (0) or disable (1) an account (security admin)',
    auth: { power: 'account_status', group: viaAccount },
    params: accountParams,
    body: accountStatusSchema,
    response: z.object({ id: z.string(), disabled: z.number().int() }),
    handler: ({ account, groupId, params, body, request }) =>
      admin.setStatus(account, groupId, params.accountId, body.status, auditContext(request)),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'accounts/:accountId/actions/:action',
    summary: 'Reset password or unlock an account (security admin)',
    auth: { power: 'account_status', group: viaAccount },
    params: actionParams,
    response: accountActionResultSchema,
    handler: ({ account, groupId, params, request }) =>
      admin.act(account, groupId, params.accountId, params.action, auditContext(request)),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'accounts/query-in-realm',
    summary: 'Accounts of a group (security admin)',
    auth: { power: 'account_status', group: fromQuery },
    query: groupQuery,
    body: realmQuerySchema,
    response: realmPageSchema,
    handler: ({ groupId, body }) => admin.realm(groupId, body.q, body.skip, body.limit),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'domains/audit-logs',
    summary: 'Operation log of a group (auditor)',
    auth: { power: 'audit_read', group: fromQuery },
    query: groupQuery,
    body: auditQuerySchema.omit({ groupId: true }),
    response: auditPageSchema,
    handler: ({ account, groupId, body, request }) =>
      admin.auditLogs(account, { ...body, groupId }, auditContext(request)),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'admin/dicom-associations/page-query',
    summary: 'Refused DICOM associations, all of them (platform admin)',
    auth: 'platformAdmin',
    body: dicomRefusalQuerySchema,
    response: dicomRefusalPageSchema,
    handler: ({ account, body, request }) => admin.dicomRefusals(account, null, body, auditContext(request)),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'groups/:groupId/dicom-associations/page-query',
    summary: "Refused DICOM associations that concern the group's AE titles (auditor)",
    auth: { power: 'audit_read', group: ({ params }) => params.groupId },
    params: groupParams,
    body: dicomRefusalQuerySchema,
    response: dicomRefusalPageSchema,
    handler: ({ account, groupId, body, request }) =>
      admin.dicomRefusals(account, groupId, body, auditContext(request)),
  });
}
