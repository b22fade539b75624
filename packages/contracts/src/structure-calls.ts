import { z } from 'zod';
import { defineCall } from './call.js';
import { reportTemplateListQuerySchema, reportTemplateListSchema } from './report-library.js';
import { ORG_CODE_PATTERN, organizationSchema } from './tenancy.js';

/**
 * The small organization look-ups of spec 001 §7 "Groups, organizations and buckets" a hospital
 * system maps its departments with (issue 27): the group's structure with codes, one organization
 * by its code, and an organization's report templates.
 */

/** GET groups/{groupId}/structure-code: the group and its organizations with their codes, by name. */
export const groupStructureSchema = z.object({
  groupId: z.string(),
  groupName: z.string(),
  organizations: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      /** the organization's code (ORG_CODE_PATTERN), null when none was set */
      code: z.string().nullable(),
      isPrivate: z.boolean(),
    }),
  ),
});
export type GroupStructure = z.infer<typeof groupStructureSchema>;

/** GET buckets/find-one?code=: the organization with this code (case ignored), if the caller can see it. */
export const findOrganizationQuerySchema = z.object({ code: z.string().trim().regex(ORG_CODE_PATTERN) });

/** GET buckets/{bucketId}/report-templates: the query of report-templates without the organization. */
export const bucketTemplatesQuerySchema = reportTemplateListQuerySchema.omit({ bucketId: true });

export const structureCalls = {
  groupStructure: defineCall({
    method: 'GET',
    path: 'groups/:groupId/structure-code',
    params: z.object({ groupId: z.string().max(64) }),
    answer: groupStructureSchema,
  }),
  findOrganization: defineCall({
    method: 'GET',
    path: 'buckets/find-one',
    query: findOrganizationQuerySchema,
    answer: organizationSchema,
  }),
  /** the same rows and shape as GET report-templates?bucketId= */
  bucketTemplates: defineCall({
    method: 'GET',
    path: 'buckets/:bucketId/report-templates',
    params: z.object({ bucketId: z.string().max(64) }),
    query: bucketTemplatesQuerySchema,
    answer: reportTemplateListSchema,
  }),
} as const;
