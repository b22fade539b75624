import type { GroupStructure, Organization, ReportTemplate } from '@yyp/contracts';
import type { z } from 'zod';
import type { bucketTemplatesQuerySchema } from '@yyp/contracts';
import type { AccountRow } from '../../db/schema.js';
import { findBucketFacts, loadCallerAccess } from '../../platform/access.js';
import type { AuditContext } from '../../platform/audit.js';
import { canSee, type CallerAccess } from '../../platform/authz.js';
import type { Db } from '../../platform/db.js';
import { errors } from '../../platform/errors.js';
import { findGroup } from '../groups/index.js';
import { bucketsOfGroup, type OrganizationsService } from '../organizations/index.js';
import type { ReportLibraryService } from '../report-library/index.js';
import * as store from './org-structure.store.js';

/**
 * The organization look-ups a hospital system maps its departments with (spec 001 §7 structure-code,
 * find-one, buckets/{id}/report-templates; contracts structure-calls.ts). Authorization is the
 * route's (group member, signed in, organization visible); find-one checks visibility itself, as
 * the organization is named by its code.
 */
export class OrgStructureService {
  constructor(
    private readonly db: Db,
    private readonly organizations: Pick<OrganizationsService, 'get'>,
    private readonly library: ReportLibraryService,
  ) {}

  /** GET groups/{groupId}/structure-code: every organization of the group (a private one too: its name and code only). */
  async structure(groupId: string): Promise<GroupStructure> {
    const group = await findGroup(this.db, groupId);
    if (!group) throw errors.notFound('Group');
    const rows = await bucketsOfGroup(this.db, groupId);
    return {
      groupId: group.id,
      groupName: group.displayName,
      organizations: rows.map((b) => ({ id: b.id, name: b.name, code: b.code, isPrivate: b.isPrivate })),
    };
  }

  /** GET buckets/find-one?code=: the organization of this code the caller can see; 404 alike for none and not visible. */
  async findByCode(account: AccountRow, code: string, known: CallerAccess | null): Promise<Organization> {
    const bucketId = await store.bucketIdByCode(this.db, code);
    const facts = bucketId ? await findBucketFacts(this.db, bucketId) : undefined;
    const access = known ?? (await loadCallerAccess(this.db, account.id));
    if (!facts || !canSee(access, facts)) throw errors.notFound('Organization');
    return this.organizations.get(facts.id, access);
  }

  /** GET buckets/{bucketId}/report-templates: what GET report-templates?bucketId= answers. */
  templates(
    account: AccountRow,
    bucketId: string,
    query: z.infer<typeof bucketTemplatesQuerySchema>,
    ctx: AuditContext,
  ): Promise<ReportTemplate[]> {
    return this.library.templates({ account, ctx }, { ...query, bucketId });
  }
}
