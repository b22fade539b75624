import { adminCalls } from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { auditContext } from '../../platform/audit.js';
import { defineCallRoute } from '../../platform/call-route.js';
import type { Db } from '../../platform/db.js';
import type { RawInput } from '../../platform/route.js';
import type { AdminService } from './admin.service.js';
import { groupForAccount } from './admin.owners.js';

/** Account administration, the operation log and the refused DICOM associations (contracts adminCalls). */
export function adminRoutes(app: FastifyInstance, db: Db, admin: AdminService): void {
  const viaAccount = ({ params, callerId }: RawInput) => groupForAccount(db, params.accountId ?? '', callerId);
  const fromQuery = ({ query }: RawInput) => (typeof query.groupId === 'string' ? query.groupId : undefined);
  defineCallRoute(app, adminCalls.accountStatus, {
    summary: 'Enable (0) or disable (1) an account (security admin)',
    auth: { power: 'account_status', group: viaAccount },
    handler: ({ account, groupId, params, body, request }) =>
      admin.setStatus(account, groupId, params.accountId, body.status, auditContext(request)),
  });
  defineCallRoute(app, adminCalls.accountAction, {
    summary: 'Reset password or unlock an account (security admin)',
    auth: { power: 'account_status', group: viaAccount },
    handler: ({ account, groupId, params, request }) =>
      admin.act(account, groupId, params.accountId, params.action, auditContext(request)),
  });
  defineCallRoute(app, adminCalls.realm, {
    summary: 'Accounts of a group (security admin)',
    auth: { power: 'account_status', group: fromQuery },
    handler: ({ groupId, body }) => admin.realm(groupId, body.q, body.skip, body.limit),
  });
  defineCallRoute(app, adminCalls.auditLogs, {
    summary: 'Operation log of a group (auditor)',
    auth: { power: 'audit_read', group: fromQuery },
    handler: ({ account, groupId, body, request }) =>
      admin.auditLogs(account, { ...body, groupId }, auditContext(request)),
  });
  defineCallRoute(app, adminCalls.dicomRefusals, {
    summary: 'Refused DICOM associations, all of them (platform admin)',
    auth: 'platformAdmin',
    handler: ({ account, body, request }) => admin.dicomRefusals(account, null, body, auditContext(request)),
  });
  defineCallRoute(app, adminCalls.platformAuditLogs, {
    summary: "The whole platform's operation log (platform admin)",
    auth: 'platformAdmin',
    handler: ({ account, body, request }) =>
      admin.auditLogs(account, { ...body, groupId: null }, auditContext(request)),
  });
  defineCallRoute(app, adminCalls.platformGroups, {
    summary: 'Every group of the platform (platform admin)',
    auth: 'platformAdmin',
    handler: ({ body }) => admin.platformGroups(body),
  });
  defineCallRoute(app, adminCalls.groupDicomRefusals, {
    summary: "Refused DICOM associations that concern the group's AE titles (auditor)",
    auth: { power: 'audit_read', group: ({ params }) => params.groupId },
    handler: ({ account, groupId, body, request }) =>
      admin.dicomRefusals(account, groupId, body, auditContext(request)),
  });
}
