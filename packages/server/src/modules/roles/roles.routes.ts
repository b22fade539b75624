import {
  actionCatalogueSchema,
  confirmNameSchema,
  roleMappingsSchema,
  roleSchema,
  upsertRoleSchema,
} from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { auditContext } from '../../platform/audit.js';
import type { Db } from '../../platform/db.js';
import { defineRoute, ownerFrom, type RawInput } from '../../platform/route.js';
import type { RolesService } from './roles.service.js';
import { ownerOfRole } from './roles.owners.js';

const bucketParams = z.object({ bucketId: z.string() });
const roleParams = z.object({ roleId: z.string() });

export function roleRoutes(app: FastifyInstance, db: Db, roles: RolesService): void {
  const bucket = ({ params }: RawInput) => params.bucketId;
  const roleOwner = ownerFrom('roleId', ownerOfRole, db);
  defineRoute(app, {
    method: 'GET',
    url: 'actions/all',
    summary: 'The action catalogue by category',
    auth: 'account',
    response: actionCatalogueSchema,
    handler: () => roles.catalogue(),
  });
  defineRoute(app, {
    method: 'GET',
    url: 'buckets/:bucketId/roles',
    summary: 'Roles of an organization',
    auth: { action: 'bucket_read', owner: bucket },
    params: bucketParams,
    response: z.array(roleSchema),
    handler: ({ bucket: b }) => roles.list(b.id),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'buckets/:bucketId/roles',
    summary: 'Create a role',
    auth: { action: 'role_manage', owner: bucket },
    params: bucketParams,
    status: 201,
    body: upsertRoleSchema,
    response: roleSchema,
    handler: ({ account, bucket: b, body, request }) =>
      roles.create(account, b.id, body.name, body.actions, auditContext(request)),
  });
  defineRoute(app, {
    method: 'PUT',
    url: 'roles/:roleId',
    summary: 'Rename a role or change its actions',
    auth: { action: 'role_manage', owner: roleOwner },
    params: roleParams,
    body: upsertRoleSchema,
    response: roleSchema,
    handler: ({ account, params, body, request }) =>
      roles.update(account, params.roleId, body.name, body.actions, auditContext(request)),
  });
  defineRoute(app, {
    method: 'DELETE',
    url: 'roles/:roleId',
    summary: 'Delete a role (type its name)',
    auth: { action: 'role_manage', owner: roleOwner },
    params: roleParams,
    body: confirmNameSchema,
    status: 204,
    handler: ({ account, params, body, request }) =>
      roles.remove(account, params.roleId, body.confirmName, auditContext(request)),
  });
  defineRoute(app, {
    method: 'PUT',
    url: 'roles/:roleId/mappings',
    summary: 'Set the members holding a role',
    auth: { action: 'role_manage', owner: roleOwner },
    params: roleParams,
    body: roleMappingsSchema,
    response: roleSchema,
    handler: ({ account, params, body, request }) =>
      roles.setMembers(account, params.roleId, body.accountIds, auditContext(request)),
  });
}
