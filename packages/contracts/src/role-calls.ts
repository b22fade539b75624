import { z } from 'zod';
import { defineCall } from './call.js';
import {
  actionCatalogueSchema,
  confirmNameSchema,
  roleMappingsSchema,
  roleSchema,
  upsertRoleSchema,
} from './tenancy.js';

const bucketParams = z.object({ bucketId: z.string() });
const roleParams = z.object({ roleId: z.string() });

/**
 * The roles of an organization and the action catalogue they draw on (spec 001 §7 "Roles"). The
 * server's routes (modules/roles/roles.routes.ts) and the web's client (api/organizations.ts) are
 * built from these.
 */
export const roleCalls = {
  catalogue: defineCall({ method: 'GET', path: 'actions/all', answer: actionCatalogueSchema }),
  list: defineCall({
    method: 'GET',
    path: 'buckets/:bucketId/roles',
    params: bucketParams,
    answer: z.array(roleSchema),
  }),
  create: defineCall({
    method: 'POST',
    path: 'buckets/:bucketId/roles',
    params: bucketParams,
    body: upsertRoleSchema,
    answer: roleSchema,
    status: 201,
  }),
  update: defineCall({
    method: 'PUT',
    path: 'roles/:roleId',
    params: roleParams,
    body: upsertRoleSchema,
    answer: roleSchema,
  }),
  remove: defineCall({
    method: 'DELETE',
    path: 'roles/:roleId',
    params: roleParams,
    body: confirmNameSchema,
    status: 204,
  }),
  /** the holders of a role; they must be members of its organization */
  setHolders: defineCall({
    method: 'PUT',
    path: 'roles/:roleId/mappings',
    params: roleParams,
    body: roleMappingsSchema,
    answer: roleSchema,
  }),
} as const;
