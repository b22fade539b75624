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
import { defineRoute, type RawInput } from '../../platform/route.js';
import type { RolesService } from './roles.service.js';
import { bucketOfRole } from './roles.store.js';

const bucketParams = z.object({ bucketId: z.string() });
const roleParams = z.object({ roleId: z.string() });

export function roleRoutes(app: FastifyInstance, db: Db, roles: RolesService): void {
  const bucket = ({ params }: RawInput) => params.bucketId;
  const bucketOf = ({ params }: RawInput) => bucketOfRole(db, params.roleId ?? '');
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
    auth: { bucket: 'bucket_read', bucketId: bucket },
    params: bucketParams,
    response: z.array(roleSchema),
    handler: ({ bucket: b }) => roles.list(b.id),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'buckets/:bucketId/roles',
    summary: 'Create a role',
    auth: { bucket: 'role_manage', bucketId: bucket },
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
    auth: { bucket: 'role_manage', bucketId: bucketOf },
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
    auth: { bucket: 'role_manage', bucketId: bucketOf },
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
    auth: { bucket: 'role_manage', bucketId: bucketOf },
    params: roleParams,
    body: roleMappingsSchema,
    response: roleSchema,
    handler: ({ account, params, body, request }) =>
      roles.setMembers(account, params.roleId, body.accountIds, auditContext(request)),
  });
}
