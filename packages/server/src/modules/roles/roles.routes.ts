import { roleCalls as calls } from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { auditContext } from '../../platform/audit.js';
import { defineCallRoute } from '../../platform/call-route.js';
import type { Db } from '../../platform/db.js';
import { ownerFrom, type RawInput } from '../../platform/route.js';
import type { RolesService } from './roles.service.js';
import { ownerOfRole } from './roles.owners.js';

const bucket = ({ params }: RawInput) => params.bucketId;

/** The roles of an organization and the action catalogue (contracts roleCalls). */
export function roleRoutes(app: FastifyInstance, db: Db, roles: RolesService): void {
  const manageRole = { action: 'role_manage', owner: ownerFrom('roleId', ownerOfRole, db) } as const;
  defineCallRoute(app, calls.catalogue, {
    summary: 'The action catalogue by category',
    auth: 'account',
    handler: () => roles.catalogue(),
  });
  defineCallRoute(app, calls.list, {
    summary: 'Roles of an organization',
    auth: { action: 'bucket_read', owner: bucket },
    handler: ({ bucket: b }) => roles.list(b.id),
  });
  defineCallRoute(app, calls.create, {
    summary: 'Create a role',
    auth: { action: 'role_manage', owner: bucket },
    handler: ({ account, bucket: b, body, request }) =>
      roles.create(account, b.id, body.name, body.actions, auditContext(request)),
  });
  defineCallRoute(app, calls.update, {
    summary: 'Rename a role or change its actions',
    auth: manageRole,
    handler: ({ account, params, body, request }) =>
      roles.update(account, params.roleId, body.name, body.actions, auditContext(request)),
  });
  defineCallRoute(app, calls.remove, {
    summary: 'Delete a role (type its name)',
    auth: manageRole,
    handler: ({ account, params, body, request }) =>
      roles.remove(account, params.roleId, body.confirmName, auditContext(request)),
  });
  defineCallRoute(app, calls.setHolders, {
    summary: 'Set the members holding a role',
    auth: manageRole,
    handler: ({ account, params, body, request }) =>
      roles.setMembers(account, params.roleId, body.accountIds, auditContext(request)),
  });
}
